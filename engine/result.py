"""The result of a finished deal, in the shape of docs/deal-record.md's ``result``."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

MADE, INSIDE, LITIGE = "made", "inside", "litige"


@dataclass(frozen=True)
class TrickRecord:
    leader: int
    cards: tuple[str, ...]
    winner: int
    points: int


@dataclass(frozen=True)
class DeclarationRecord:
    seat: int
    kind: str
    cards: tuple[str, ...]
    points: int
    counted: bool


@dataclass(frozen=True)
class DealResult:
    """``void`` deals have every other field ``None``. Sides are indexed like seats
    in Open Blot and by ``seat % 2`` in Belote. ``belote`` is a side, or in an
    all-trump contract the side of each king-queen pair in suit order; ``contract``
    is a coinche deal's ``{"value", "trump", "taker", "multiplier"}`` (absent from
    :meth:`to_dict` otherwise, so older records replay exactly as before)."""

    void: bool
    trump: str | None = None
    taker: int | None = None
    tricks: tuple[TrickRecord, ...] | None = None
    card_points: tuple[int, ...] | None = None
    declarations: tuple[DeclarationRecord, ...] | None = None
    belote: int | tuple[int, ...] | None = None
    outcome: str | None = None
    capot: int | None = None
    deal_points: tuple[int, ...] | None = None
    held_points: int | None = None
    contract: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for key in ("tricks", "card_points", "declarations", "deal_points"):
            if d[key] is not None:
                d[key] = [dict(x) if isinstance(x, dict) else x for x in d[key]]
        if d["tricks"] is not None:
            for t in d["tricks"]:
                t["cards"] = list(t["cards"])
        if d["declarations"] is not None:
            for x in d["declarations"]:
                x["cards"] = list(x["cards"])
        if isinstance(d["belote"], tuple):
            d["belote"] = list(d["belote"])
        if d["contract"] is None:
            del d["contract"]
        return d

    @property
    def winner(self) -> int | None:
        """The side that scored more in this deal, or ``None`` (void or equal)."""
        if self.void or self.deal_points is None:
            return None
        best = max(self.deal_points)
        leaders = [s for s, p in enumerate(self.deal_points) if p == best]
        return leaders[0] if len(leaders) == 1 else None
