"""Exact values of a real deal's card decisions, read off the engine's own deal.

:func:`solver_for` and :func:`card_values` take a :class:`engine.deal.Deal` in
its play phase (the cards, the trick in progress and the points won come from
the engine, never recomputed); :func:`solve_record` walks a finished deal record
and gives, for every card played, the value of each legal card — what ``python
-m engine solve -`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.actions import BID_VALUES, CHOOSE, PASS, PLAY, TAKE, Action, bid
from engine.belote import BeloteDeal
from engine.cards import CODES, NO_TRUMP, Card, Mask, cards_in
from engine.deal import PLAYING, Deal
from engine.open_blot import OpenBlotDeal
from engine.record import DealRecord, deal_from
from engine.solver.search import Solver


def solver_for(deal: Deal) -> Solver:
    """A solver for this deal's play (trump chosen; its table serves every step)."""
    assert deal.trump is not None, "the play phase has a trump"
    under = deal.under if isinstance(deal, OpenBlotDeal) else None
    return Solver(deal.seats, deal.trump, under)


def shared_solver(deal: Deal, solvers: dict[int, Solver] | None) -> Solver:
    """The solver for ``deal``'s trump in ``solvers`` (one deal's solvers, by
    trump), made and kept there if missing; a fresh one without ``solvers``.
    A solver's table holds exact facts about positions of its trump and face-down
    cards, whoever took and whichever step asked, so one deal's exact values and
    par table may share it."""
    if solvers is None:
        return solver_for(deal)
    assert deal.trump is not None
    solver = solvers.get(deal.trump)
    if solver is None:
        solver = solvers[deal.trump] = solver_for(deal)
    return solver


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
    left = solver.points_left(hands, down, deal.trick)
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


def _bid_to(deal: Deal, taker: int, trump: int) -> None:
    """Bid on ``deal`` (fresh) so that ``taker`` takes with ``trump``: everyone
    before passes, through the engine's own bidding rules."""
    while deal.phase != PLAYING:
        seat = deal.to_act
        assert seat is not None, "the bidding ended without the wanted contract"
        wanted = None
        if seat == taker and isinstance(deal, BeloteDeal) and deal.coinche:
            wanted = bid(seat, BID_VALUES[0], trump)  # any value: only the cards count here
        elif seat == taker:
            for a in deal.legal_actions():
                takes = a.type == TAKE and isinstance(deal, BeloteDeal)
                if (takes and deal.proposed >> 3 == trump) or (  # type: ignore[attr-defined]
                    a.type == CHOOSE and a.trump == trump
                ):
                    wanted = a
        if wanted is None:
            wanted = Action(seat, PASS)
        deal.apply(wanted)


def par_table(
    record: DealRecord,
    contracts: Iterable[tuple[int, int]] | None = None,
    solvers: dict[int, Solver] | None = None,
) -> dict[tuple[int, int], int]:
    """What each contract makes with all cards known: ``{(trump, taker): card
    points of the taker's side}`` with perfect play by everyone (the last-trick 10
    included). Belote: the four suits and four takers (the hands differ with the
    taker, who gets the proposed card); a coinche deal also no trump and all trump
    when its rule set allows them; Open Blot: the four suits and no trump, both
    players (the cards do not depend on who chose, so each trump is solved once).
    ``contracts`` limits the table to those ``(trump, taker)`` pairs.

    ``solvers`` (this deal's, by trump; :func:`shared_solver`) lends the table
    solvers that already searched the deal and keeps the ones it makes: the
    contract actually played then costs little once its cards were valued."""
    probe = deal_from(record)
    if isinstance(probe, BeloteDeal):
        trumps: Iterable[int] = sorted(probe.allowed_trumps) if probe.coinche else range(4)
    else:
        trumps = range(NO_TRUMP + 1)
    out: dict[tuple[int, int], int] = {}
    for trump in trumps:
        value_by_hands: dict[tuple[int, ...], int] = {}
        for taker in range(probe.seats):
            if contracts is not None and (trump, taker) not in set(contracts):
                continue
            deal = deal_from(record)
            _bid_to(deal, taker, trump)
            hands, down = _masks(deal)
            key = (*hands, *down, deal.to_act or 0)
            if key not in value_by_hands:
                solver = shared_solver(deal, solvers)
                assert deal.to_act is not None
                value_by_hands[key] = solver.value(hands, down, deal.to_act, [])
            side0 = value_by_hands[key]
            out[(trump, taker)] = side0 if taker % 2 == 0 else 162 - side0
    return out
