"""Models of the games app, one module per concern."""

from games.models.analysis import DealAnalysis
from games.models.matches import Deal, Match, Participant, ScoreRow
from games.models.players import Player
from games.models.presence import Presence
from games.models.rulesets import RuleSetConfig
from games.models.seating import MatchEvent, Rematch
from games.models.tables import BotLevel, Seat, Table, Variant
from games.models.tournaments import Entrant, Kind, Pairing, Tournament, TournamentRound

__all__ = [
    "BotLevel",
    "Deal",
    "DealAnalysis",
    "Entrant",
    "Kind",
    "Match",
    "MatchEvent",
    "Pairing",
    "Participant",
    "Player",
    "Presence",
    "Rematch",
    "RuleSetConfig",
    "ScoreRow",
    "Seat",
    "Table",
    "Tournament",
    "TournamentRound",
    "Variant",
]
