"""Exact values of a real deal's card decisions, read off the engine's own deal.

:func:`solver_for` and :func:`card_values` take a :class:`engine.deal.Deal` in
its play phase (the cards, the trick in progress and the points won come from
the engine, never recomputed); :func:`solve_record` walks a finished deal record
and gives, for every card played, the value of each legal card — what ``python
-m engine solve -`` prints.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.actions import PLAY, Action
from engine.belote import BeloteDeal
from engine.cards import CODES, LAST_TRICK_BONUS, POINTS, Card, Mask, cards_in
from engine.deal import PLAYING, Deal
from engine.open_blot import OpenBlotDeal
from engine.record import DealRecord, deal_from
from engine.solver.search import Solver


def solver_for(deal: Deal) -> Solver:
    """A solver for this deal's play (trump chosen; its table serves every step)."""
    assert deal.trump is not None, "the play phase has a trump"
    under = deal.under if isinstance(deal, OpenBlotDeal) else None
    return Solver(deal.seats, deal.trump, under)


def _masks(deal: Deal) -> tuple[list[Mask], list[Mask]]:
    if isinstance(deal, OpenBlotDeal):
        return list(deal.face_up), list(deal.face_down)
    assert isinstance(deal, BeloteDeal)
    return list(deal.hands), [0, 0, 0, 0]


def card_values(deal: Deal, solver: Solver | None = None) -> dict[Card, int]:
    """For each card the seat to act may play now: the card points its side holds
    at the end of the deal (what it has won so far included, the last-trick 10
    included) when everyone plays perfectly with all cards known from then on."""
    assert deal.phase == PLAYING and deal.to_act is not None
    solver = solver or solver_for(deal)
    hands, down = _masks(deal)
    seat = deal.to_act
    side = seat % 2
    values = solver.values(hands, down, seat, deal.trick)
    legal = deal.legal_play_mask()
    assert set(values) == set(cards_in(legal)), "the solver's legal cards are the engine's"
    table = POINTS[deal.trump]  # type: ignore[index]
    left = 0
    for m in (*hands, *down):
        for c in cards_in(m):
            left += table[c]
    left += sum(table[c] for c in deal.trick) + LAST_TRICK_BONUS
    won = deal.card_points[side]
    return {c: won + (v if side == 0 else left - v) for c, v in values.items()}


@dataclass(frozen=True)
class CardStep:
    """One card decision of a record: ``step`` is the action's index."""

    step: int
    seat: int
    values: dict[Card, int]

    def to_dict(self) -> dict[str, object]:
        return {
            "step": self.step,
            "seat": self.seat,
            "values": {CODES[c]: v for c, v in sorted(self.values.items())},
        }


def solve_record(record: DealRecord) -> Iterator[CardStep]:
    """Every card decision of the record, in order, with each legal card's value.
    Raises ``IllegalAction`` at an illegal action (the record is not a real deal)."""
    deal = deal_from(record)
    solver: Solver | None = None
    for index, raw in enumerate(record.actions):
        action = Action.from_dict(raw)
        if action.type == PLAY and deal.phase == PLAYING:
            solver = solver or solver_for(deal)
            yield CardStep(index, action.seat, card_values(deal, solver))
        deal.apply(action)
