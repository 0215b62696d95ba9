"""Actions and their canonical JSON form (docs/deal-record.md).

Actions are immutable values. The common ones (every pass, take, choice and
card play of every seat) are built once and shared, so producing the legal
actions of a position costs list look-ups, not allocations.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.cards import CODES, NO_TRUMP, TRUMP_CODES, card, parse_trump
from engine.errors import IllegalAction

PASS = "pass"
TAKE = "take"
CHOOSE = "choose"
DECLARE = "declare"
PLAY = "play"
BID = "bid"
COINCHE = "coinche"
SURCOINCHE = "surcoinche"
ACTION_TYPES = (PASS, TAKE, CHOOSE, DECLARE, PLAY, BID, COINCHE, SURCOINCHE)

#: A coinche bid's values (docs/rules.md §7.2): 80 .. 160 by tens, and capot as 250.
CAPOT_BID = 250
BID_VALUES = (*range(80, 170, 10), CAPOT_BID)

_FIELDS: dict[str, frozenset[str]] = {
    PASS: frozenset({"seat", "type"}),
    TAKE: frozenset({"seat", "type"}),
    CHOOSE: frozenset({"seat", "type", "trump"}),
    DECLARE: frozenset({"seat", "type", "cards"}),
    PLAY: frozenset({"seat", "type", "card"}),
    BID: frozenset({"seat", "type", "value", "trump"}),
    COINCHE: frozenset({"seat", "type"}),
    SURCOINCHE: frozenset({"seat", "type"}),
}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision by ``seat``. ``card``/``trump``/``cards``/``value`` are set per
    ``type`` (a bid has ``value`` and ``trump``)."""

    seat: int
    type: str
    card: int | None = None
    trump: int | None = None
    cards: tuple[int, ...] | None = None
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "type": self.type}
        if self.type == PLAY:
            d["card"] = CODES[self.card]  # type: ignore[index]
        elif self.type == CHOOSE:
            d["trump"] = TRUMP_CODES[self.trump]  # type: ignore[index]
        elif self.type == DECLARE:
            d["cards"] = [CODES[c] for c in self.cards or ()]
        elif self.type == BID:
            d["value"] = self.value
            d["trump"] = TRUMP_CODES[self.trump]  # type: ignore[index]
        return d

    def __str__(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_dict(data: Any) -> Action:
        """Parse the canonical form; anything else raises ``IllegalAction``."""
        if not isinstance(data, dict):
            raise IllegalAction(f"malformed action {_show(data)}: not an object")
        kind = data.get("type")
        if kind not in _FIELDS:
            raise IllegalAction(f"malformed action {_show(data)}: unknown type")
        if set(data) != _FIELDS[kind]:
            raise IllegalAction(
                f"malformed action {_show(data)}: a {kind} action has exactly the keys "
                + ", ".join(sorted(_FIELDS[kind]))
            )
        seat = data["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction(f"malformed action {_show(data)}: seat must be an integer")
        try:
            if kind == PLAY:
                return Action(seat, PLAY, card=card(data["card"]))
            if kind == CHOOSE:
                return Action(seat, CHOOSE, trump=parse_trump(data["trump"]))
            if kind == DECLARE:
                return _declare_from(seat, data["cards"])
            if kind == BID:
                return _bid_from(seat, data["value"], data["trump"])
        except ValueError as exc:
            raise IllegalAction(f"malformed action {_show(data)}: {exc}") from None
        return Action(seat, kind)


def _declare_from(seat: int, codes: Any) -> Action:
    if not isinstance(codes, list) or not codes:
        raise ValueError("cards must be a non-empty list of card codes")
    cards = [card(c) for c in codes]
    if cards != sorted(set(cards)):
        raise ValueError("cards must be distinct and in canonical order (C D H S, 7 to A)")
    return Action(seat, DECLARE, cards=tuple(cards))


def _bid_from(seat: int, value: Any, trump: Any) -> Action:
    if isinstance(value, bool) or not isinstance(value, int) or value not in BID_VALUES:
        raise ValueError("value must be 80, 90, ... 160, or 250 (capot)")
    return Action(seat, BID, trump=parse_trump(trump), value=int(value))


def _show(data: Any) -> str:
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(data)


def declare(seat: int, cards: tuple[int, ...] | list[int]) -> Action:
    return Action(seat, DECLARE, cards=tuple(sorted(cards)))


def bid(seat: int, value: int, trump: int) -> Action:
    """A coinche bid: ``value`` from :data:`BID_VALUES`, ``trump`` 0..5 (``AT`` is 5)."""
    return Action(seat, BID, trump=trump, value=value)


# Shared instances: PLAY_ACTIONS[seat][card], CHOOSE_ACTIONS[seat][trump], ...
PLAY_ACTIONS = tuple(tuple(Action(s, PLAY, card=c) for c in range(32)) for s in range(4))
CHOOSE_ACTIONS = tuple(
    tuple(Action(s, CHOOSE, trump=t) for t in range(NO_TRUMP + 1)) for s in range(4)
)
PASS_ACTIONS = tuple(Action(s, PASS) for s in range(4))
TAKE_ACTIONS = tuple(Action(s, TAKE) for s in range(4))
COINCHE_ACTIONS = tuple(Action(s, COINCHE) for s in range(4))
SURCOINCHE_ACTIONS = tuple(Action(s, SURCOINCHE) for s in range(4))
