"""The deal record's format (docs/deal-record.md): read and written, nothing played.

The record is a public contract: its reading rules here follow the document
line by line. Input that cannot be read at all raises ``RecordError``; an action
that is illegal or not in canonical form is a finding reported by
:func:`engine.record.replay`. Kept apart from replaying, so that a deal can write
itself down without the deal module and the replay module importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import card
from engine.errors import RecordError, RuleSetError
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
        """Read a record; raise ``RecordError`` for input docs/deal-record.md calls unreadable.

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
