"""Actions and their canonical JSON form (DEAL_RECORD.md).

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
ACTION_TYPES = (PASS, TAKE, CHOOSE, DECLARE, PLAY)

_FIELDS: dict[str, frozenset[str]] = {
    PASS: frozenset({"seat", "type"}),
    TAKE: frozenset({"seat", "type"}),
    CHOOSE: frozenset({"seat", "type", "trump"}),
    DECLARE: frozenset({"seat", "type", "cards"}),
    PLAY: frozenset({"seat", "type", "card"}),
}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision by ``seat``. ``card``/``trump``/``cards`` are set per ``type``."""

    seat: int
    type: str
    card: int | None = None
    trump: int | None = None
    cards: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "type": self.type}
        if self.type == PLAY:
            d["card"] = CODES[self.card]  # type: ignore[index]
        elif self.type == CHOOSE:
            d["trump"] = TRUMP_CODES[self.trump]  # type: ignore[index]
        elif self.type == DECLARE:
            d["cards"] = [CODES[c] for c in self.cards or ()]
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


def _show(data: Any) -> str:
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(data)


def declare(seat: int, cards: tuple[int, ...] | list[int]) -> Action:
    return Action(seat, DECLARE, cards=tuple(sorted(cards)))


# Shared instances: PLAY_ACTIONS[seat][card], CHOOSE_ACTIONS[seat][trump], ...
PLAY_ACTIONS = tuple(tuple(Action(s, PLAY, card=c) for c in range(32)) for s in range(4))
CHOOSE_ACTIONS = tuple(
    tuple(Action(s, CHOOSE, trump=t) for t in range(NO_TRUMP + 1)) for s in range(4)
)
PASS_ACTIONS = tuple(Action(s, PASS) for s in range(4))
TAKE_ACTIONS = tuple(Action(s, TAKE) for s in range(4))
