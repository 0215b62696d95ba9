"""Models of the games app, one module per concern."""

from games.models.analysis import DealAnalysis
from games.models.bots import ApiToken, BotAccount, BotRating, BotRatingChange
from games.models.chat import (
    ChatMessage,
    ChatMute,
    ChatPolicy,
    ChatReport,
    ChatSilence,
    Phrase,
    Room,
)
from games.models.choices import COINCHE, COINCHE_RULE_SET, Game, game_of, variant_of_game
from games.models.matches import Deal, Match, Participant, ScoreRow
from games.models.players import Player
from games.models.pools import PoolEntry, PoolWait
from games.models.presence import Presence
from games.models.ratings import (
    AccessMark,
    FairPlaySignal,
    Rating,
    RatingChange,
    UnratedMatch,
)
from games.models.rulesets import RuleSetConfig
from games.models.seating import MatchEvent, Rematch
from games.models.social import Challenge, Follow
from games.models.tables import BotLevel, Seat, Table, Variant
from games.models.tournaments import Entrant, Kind, Pairing, Tournament, TournamentRound

__all__ = [
    "COINCHE",
    "COINCHE_RULE_SET",
    "AccessMark",
    "ApiToken",
    "BotAccount",
    "BotLevel",
    "BotRating",
    "BotRatingChange",
    "Challenge",
    "ChatMessage",
    "ChatMute",
    "ChatPolicy",
    "ChatReport",
    "ChatSilence",
    "Deal",
    "DealAnalysis",
    "Entrant",
    "FairPlaySignal",
    "Follow",
    "Game",
    "Kind",
    "Match",
    "MatchEvent",
    "Pairing",
    "Participant",
    "Phrase",
    "Player",
    "PoolEntry",
    "PoolWait",
    "Presence",
    "Rating",
    "RatingChange",
    "Rematch",
    "Room",
    "RuleSetConfig",
    "ScoreRow",
    "Seat",
    "Table",
    "Tournament",
    "TournamentRound",
    "UnratedMatch",
    "Variant",
    "game_of",
    "variant_of_game",
]
