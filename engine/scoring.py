"""Scoring a finished deal: the one place that turns tricks into deal points.

docs/rules.md §2 "Scoring a deal" and §7.1 (classic Belote, with announcements),
§7.2 (coinche contracts) and §3 "Scoring a deal" (Open Blot).
"""

from __future__ import annotations

from typing import Any

from engine.actions import CAPOT_BID
from engine.cards import ALL_TRUMP, TOTAL_CARD_POINTS, TRUMP_CODES
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
    announced: tuple[int, int] = (0, 0),
    declarations: tuple[DeclarationRecord, ...] = (),
) -> DealResult:
    """Classic bidding: §2, and §7.1 when ``announced`` (each side's counted
    announcement points, one side's at most) is not zero."""
    takers = taker % 2
    defenders = 1 - takers
    bonus = [0, 0]
    if belote_side is not None:
        bonus[belote_side] = 20  # never lost, whatever happens (docs/rules.md §1)
    totals = [card_points[s] + announced[s] + bonus[s] for s in (0, 1)]
    all_announced = announced[0] + announced[1]
    points = [0, 0]
    capot = None
    held = 0
    if 8 in tricks_won:
        capot = tricks_won.index(8)
        points[capot] = rules.capot_points + announced[capot] + bonus[capot]
        points[1 - capot] = bonus[1 - capot]
        outcome = MADE if capot == takers else INSIDE
    elif totals[takers] > totals[defenders]:
        outcome = MADE
        points = totals
    elif totals[takers] < totals[defenders] or rules.litige == "takers_lose":
        outcome = INSIDE
        points[defenders] = TOTAL_CARD_POINTS + all_announced + bonus[defenders]
        points[takers] = bonus[takers]
    elif rules.litige == "split":
        outcome = LITIGE
        points = totals
    else:  # hold_for_next: the takers' card points (and announcements, D-19) wait
        outcome = LITIGE
        points[defenders] = totals[defenders]
        points[takers] = bonus[takers]
        held = card_points[takers] + announced[takers]
    return DealResult(
        void=False,
        trump=TRUMP_CODES[trump],
        taker=taker,
        tricks=tricks,
        card_points=tuple(card_points),
        declarations=declarations,
        belote=belote_side,
        outcome=outcome,
        capot=capot,
        deal_points=tuple(points),
        held_points=held,
    )


def score_coinche(
    *,
    rules: RuleSet,
    trump: int,
    taker: int,
    value: int,
    multiplier: int,
    tricks: tuple[TrickRecord, ...],
    card_points: tuple[int, ...],
    tricks_won: tuple[int, ...],
    belote_sides: tuple[int, ...],
    announced: tuple[int, int] = (0, 0),
    declarations: tuple[DeclarationRecord, ...] = (),
) -> DealResult:
    """A coinche contract (docs/rules.md §7.2, D-21, D-22).

    ``value`` is the contract (250 for capot), ``multiplier`` 1, 2 or 4,
    ``belote_sides`` the side of each king-queen pair that counts (one at most
    unless the contract is all trump) and ``announced`` each side's counted
    announcement points.
    """
    takers = taker % 2
    defenders = 1 - takers
    belote = [0, 0]
    for side in belote_sides:
        belote[side] += 20  # never lost (docs/rules.md §1)
    cards = list(card_points)
    capot: int | None = None
    if tricks_won[takers] == 8:
        capot = takers
        if value != CAPOT_BID:  # an unbid capot counts as the capot_points setting
            cards[takers] = rules.capot_points
    own = [cards[s] + belote[s] + announced[s] for s in (0, 1)]
    # A capot contract is made only by winning every trick; a value by reaching it (D-21).
    made = capot == takers if value == CAPOT_BID else own[takers] >= value
    winner = takers if made else defenders
    points = [0, 0]
    if multiplier == 1 and made:
        points[takers] = own[takers] + value
        points[defenders] = own[defenders]
    elif multiplier == 1:
        points[defenders] = 160 + value + announced[0] + announced[1] + belote[defenders]
        points[takers] = belote[takers]
    else:
        points[winner] = (160 + value) * multiplier + announced[0] + announced[1] + belote[winner]
        points[1 - winner] = belote[1 - winner]
    contract: dict[str, Any] = {
        "value": value, "trump": TRUMP_CODES[trump], "taker": taker, "multiplier": multiplier,
    }
    belote_field: int | tuple[int, ...] | None
    if trump == ALL_TRUMP:
        belote_field = tuple(belote_sides)
    else:
        belote_field = belote_sides[0] if belote_sides else None
    return DealResult(
        void=False,
        trump=TRUMP_CODES[trump],
        taker=taker,
        tricks=tricks,
        card_points=tuple(card_points),
        declarations=declarations,
        belote=belote_field,
        outcome=MADE if made else INSIDE,
        capot=capot,
        deal_points=tuple(points),
        held_points=0,
        contract=contract,
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
