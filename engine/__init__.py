"""Blot's rules engine: pure Python, no Django.

Start here::

    from engine import RuleSet, new_deal, observe, shuffled_deck
    deal = new_deal(RuleSet.build("belote"), dealer=0, deck=shuffled_deck())
    deal.legal_actions(); deal.apply(action); deal.result()

See docs/engine.md for the whole interface.
"""

# BeloteDeal and OpenBlotDeal are imported here, not only exported: each registers
# itself with engine.deal when defined, so new_deal knows both before anyone deals.
from engine.actions import Action
from engine.belote import BeloteDeal
from engine.deal import Deal, new_deal
from engine.errors import EngineError, IllegalAction, RecordError, RuleSetError
from engine.events import Event
from engine.match import Match, MatchFormat, ScoreRow
from engine.observe import Observation, observe
from engine.open_blot import OpenBlotDeal
from engine.record import DealRecord, rebuild, replay
from engine.result import DealResult
from engine.rules import BELOTE, OPEN_BLOT, VARIANTS, RuleSet
from engine.shuffle import commit, shuffled_deck, verify

__all__ = [
    "BELOTE",
    "OPEN_BLOT",
    "VARIANTS",
    "Action",
    "BeloteDeal",
    "Deal",
    "DealRecord",
    "DealResult",
    "EngineError",
    "Event",
    "IllegalAction",
    "Match",
    "MatchFormat",
    "Observation",
    "OpenBlotDeal",
    "RecordError",
    "RuleSet",
    "RuleSetError",
    "ScoreRow",
    "commit",
    "new_deal",
    "observe",
    "rebuild",
    "replay",
    "shuffled_deck",
    "verify",
]
