"""Models of the games app, one module per concern."""

from games.models.matches import Deal, Match, Participant, ScoreRow, Tournament
from games.models.players import Player
from games.models.presence import Presence
from games.models.rulesets import RuleSetConfig
from games.models.seating import MatchEvent, Rematch
from games.models.tables import BotLevel, Seat, Table, Variant

__all__ = [
    "BotLevel",
    "Deal",
    "Match",
    "MatchEvent",
    "Participant",
    "Player",
    "Presence",
    "Rematch",
    "RuleSetConfig",
    "ScoreRow",
    "Seat",
    "Table",
    "Tournament",
    "Variant",
]
