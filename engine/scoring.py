"""Scoring a finished deal: the one place that turns tricks into deal points.

RULES.md §2 "Scoring a deal" (Belote) and §3 "Scoring a deal" (Open Blot).
"""

from __future__ import annotations

from engine.cards import TOTAL_CARD_POINTS, TRUMP_CODES
from engine.declarations import Declaration, counted_seat
from engine.result import INSIDE, LITIGE, MADE, DealResult, DeclarationRecord, TrickRecord
from engine.rules import RuleSet


def score_belote(
    *,
    rules: RuleSet,
    trump: int,
    taker: int,
    tricks: tuple[TrickRecord, ...],
    card_points: tuple[int, ...],
    tricks_won: tuple[int, ...],
    belote_side: int | None,
) -> DealResult:
    takers = taker % 2
    defenders = 1 - takers
    bonus = [0, 0]
    if belote_side is not None:
        bonus[belote_side] = 20  # never lost, whatever happens (RULES.md §1)
    totals = [card_points[s] + bonus[s] for s in (0, 1)]
    points = [0, 0]
    capot = None
    held = 0
    if 8 in tricks_won:
        capot = tricks_won.index(8)
        points[capot] = rules.capot_points + bonus[capot]
        points[1 - capot] = bonus[1 - capot]
        outcome = MADE if capot == takers else INSIDE
    elif totals[takers] > totals[defenders]:
        outcome = MADE
        points = totals
    elif totals[takers] < totals[defenders] or rules.litige == "takers_lose":
        outcome = INSIDE
        points[defenders] = TOTAL_CARD_POINTS + bonus[defenders]
        points[takers] = bonus[takers]
    elif rules.litige == "split":
        outcome = LITIGE
        points = totals
    else:  # hold_for_next: the takers' card points wait for the next deal's winner
        outcome = LITIGE
        points[defenders] = totals[defenders]
        points[takers] = bonus[takers]
        held = card_points[takers]
    return DealResult(
        void=False,
        trump=TRUMP_CODES[trump],
        taker=taker,
        tricks=tricks,
        card_points=tuple(card_points),
        declarations=(),
        belote=belote_side,
        outcome=outcome,
        capot=capot,
        deal_points=tuple(points),
        held_points=held,
    )


def score_open_blot(
    *,
    rules: RuleSet,
    trump: int,
    taker: int,
    tricks: tuple[TrickRecord, ...],
    card_points: tuple[int, ...],
    declarations: list[Declaration],
    blot_seat: int | None,
) -> DealResult:
    opponent = 1 - taker
    best = counted_seat(declarations, trump)
    declared = [0, 0]
    for d in declarations:
        if d.seat == best:
            declared[d.seat] += d.points(trump)
    blot = [0, 0]
    if blot_seat is not None:
        blot[blot_seat] = 20
    all_declared = sum(declared)
    points = [0, 0]
    capot = None
    if 0 in card_points:
        # Kapout is settled before "made or failed" (D-10).
        loser = card_points.index(0)
        capot = 1 - loser
        points[capot] = rules.kapout_points + all_declared + blot[capot]
        points[loser] = blot[loser]
        outcome = MADE if capot == taker else INSIDE
    else:
        totals = [card_points[s] + declared[s] + blot[s] for s in (0, 1)]
        if totals[taker] > totals[opponent]:
            outcome = MADE
            points = totals
        else:  # equal or less: the taker fails (D-9)
            outcome = INSIDE
            points[opponent] = TOTAL_CARD_POINTS + all_declared + blot[opponent]
            points[taker] = blot[taker]
    records = tuple(
        DeclarationRecord(d.seat, d.kind, tuple(d.codes()), d.points(trump), d.seat == best)
        for d in declarations
    )
    return DealResult(
        void=False,
        trump=TRUMP_CODES[trump],
        taker=taker,
        tricks=tricks,
        card_points=tuple(card_points),
        declarations=records,
        belote=blot_seat,
        outcome=outcome,
        capot=capot,
        deal_points=tuple(points),
        held_points=0,
    )
