"""Deal records (DEAL_RECORD.md): load, dump, rebuild and replay.

The record is a public contract: its reading rules here follow the document
line by line. Input that cannot be read at all raises ``RecordError``; an action
that is illegal or not in canonical form is a finding reported by :func:`replay`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.cards import card
from engine.deal import Deal, new_deal
from engine.errors import IllegalAction, RecordError, RuleSetError
from engine.rules import SEATS, RuleSet, check_variant


@dataclass
class DealRecord:
    variant: str
    dealer: int
    rules: dict[str, Any]
    deck: list[str]
    actions: list[Any] = field(default_factory=list)

    @staticmethod
    def from_dict(data: Any) -> DealRecord:
        """Read a record; raise ``RecordError`` for input DEAL_RECORD.md calls unreadable.

        Actions are kept as given: replaying checks each one (a malformed action is
        an ``error`` at its index, not an unreadable record).
        """
        if not isinstance(data, dict):
            raise RecordError("a deal record must be a JSON object")
        try:
            variant = check_variant(data.get("variant"))
        except RuleSetError as exc:
            raise RecordError(str(exc)) from None
        rules = data.get("rules", {})
        try:
            RuleSet.build(variant, rules)
        except RuleSetError as exc:
            raise RecordError(f"rules: {exc}") from None
        dealer = data.get("dealer")
        seats = SEATS[variant]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise RecordError(f"dealer must be a seat number 0..{SEATS[variant] - 1}")
        deck = data.get("deck")
        if not isinstance(deck, list) or len(deck) != 32:
            raise RecordError("deck must be a list of 32 card codes")
        try:
            cards = [card(c) for c in deck]
        except ValueError as exc:
            raise RecordError(f"deck: {exc}") from None
        if len(set(cards)) != 32:
            raise RecordError("deck must hold 32 distinct card codes")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError("actions must be a list")
        return DealRecord(variant, dealer, dict(rules), list(deck), list(actions))

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "dealer": self.dealer,
            "rules": dict(self.rules),
            "deck": list(self.deck),
            "actions": list(self.actions),
        }

    def new_deal(self) -> Deal:
        rules = RuleSet.build(self.variant, self.rules)
        return new_deal(rules, self.dealer, [card(c) for c in self.deck])


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
    """Replay every action, listing the position before each (DEAL_RECORD.md)."""
    deal = record.new_deal()
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
    deal = record.new_deal()
    for index, raw in enumerate(record.actions):
        try:
            deal.apply(Action.from_dict(raw))
        except IllegalAction as exc:
            raise IllegalAction(f"action {index}: {exc}", exc.reason) from None
    return deal
