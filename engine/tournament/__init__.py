"""Tournaments as pure functions: pairings, brackets, standings and tie-breaks.

No Django and no I/O: entrants are ints (their order is their seed, best first),
results are plain values, and every function returns new values. The Django side
(``games.services.tournaments``) stores what these decide.
"""

from engine.tournament.knockout import BracketMatch, bracket, knockout_placings, knockout_rounds
from engine.tournament.pairing import Pairing, round_robin_round, round_robin_rounds, swiss_pairings
from engine.tournament.standings import (
    KINDS,
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    Result,
    Standing,
    standings,
    swiss_rounds_for,
)

__all__ = [
    "KINDS",
    "KNOCKOUT",
    "ROUND_ROBIN",
    "SWISS",
    "BracketMatch",
    "Pairing",
    "Result",
    "Standing",
    "bracket",
    "knockout_placings",
    "knockout_rounds",
    "round_robin_round",
    "round_robin_rounds",
    "standings",
    "swiss_pairings",
    "swiss_rounds_for",
]
