"""Deal records (docs/deal-record.md) played: rebuild a deal from its record, and replay
one step by step as ``python -m engine replay`` reports it. The format itself
(:class:`DealRecord`) is :mod:`engine.record_format`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.cards import card
from engine.deal import Deal, new_deal
from engine.errors import IllegalAction
from engine.record_format import DealRecord
from engine.rules import RuleSet

__all__ = ["DealRecord", "Replay", "deal_from", "rebuild", "replay"]


def deal_from(record: DealRecord) -> Deal:
    """The record's deal as dealt, before any action."""
    rules = RuleSet.build(record.variant, record.rules)
    return new_deal(rules, record.dealer, [card(c) for c in record.deck])


@dataclass
class Replay:
    """What ``python -m engine replay`` prints, plus the deal as it stands."""

    steps: list[dict[str, Any]]
    error: dict[str, Any] | None
    deal: Deal

    @property
    def result(self) -> dict[str, Any] | None:
        if self.error is not None:
            return None
        result = self.deal.result()
        return None if result is None else result.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {"steps": self.steps, "error": self.error, "result": self.result}


def _step(deal: Deal) -> dict[str, Any]:
    return {"to_act": deal.to_act, "legal": [a.to_dict() for a in deal.legal_actions()]}


def replay(record: DealRecord) -> Replay:
    """Replay every action, listing the position before each (docs/deal-record.md)."""
    deal = deal_from(record)
    steps: list[dict[str, Any]] = []
    for index, raw in enumerate(record.actions):
        steps.append(_step(deal))
        try:
            deal.apply(Action.from_dict(raw))
        except IllegalAction as exc:
            return Replay(steps, {"index": index, "message": str(exc)}, deal)
    if not deal.is_over:
        steps.append(_step(deal))
    return Replay(steps, None, deal)


def rebuild(record: DealRecord) -> Deal:
    """The deal a record describes, every action applied; raises ``IllegalAction``
    (with the index in its message) when the log holds an illegal action."""
    deal = deal_from(record)
    for index, raw in enumerate(record.actions):
        try:
            deal.apply(Action.from_dict(raw))
        except IllegalAction as exc:
            raise IllegalAction(f"action {index}: {exc}", exc.reason) from None
    return deal
