"""Belote announcements: the combinations a hand holds, their points, which side's count.

docs/rules.md §7.1. A combination is a mask of cards: a **run** (three or more
cards of one suit in the natural order 7 8 9 10 J Q K A, taken whole) or a
**carré** (the four cards of one rank, 7s and 8s excepted). A card may be in one
run and one carré (D-14). Open Blot's combinations, which grow and compare
differently, are :mod:`engine.declarations`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import CODES, R9, RA, RJ, RK, RQ, RT, Mask, card_list
from engine.declarations import runs_in

TIERCE, CINQUANTE, CENT, CARRE = "tierce", "cinquante", "cent", "carre"
KINDS = (TIERCE, CINQUANTE, CENT, CARRE)

#: A carré's points by rank; other ranks make no carré.
CARRE_POINTS = {RJ: 200, R9: 150, RA: 100, RT: 100, RK: 100, RQ: 100}
#: Between carrés of 100: A > 10 > K > Q (weakest first; J and 9 have their own points).
_CARRE_ORDER = (RQ, RK, RT, RA, R9, RJ)
_RANK_MASKS = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))


def is_carre(cards: Mask) -> bool:
    low = (cards & -cards).bit_length() - 1
    return cards == _RANK_MASKS[low & 7]


def kind_of(cards: Mask) -> str:
    if is_carre(cards):
        return CARRE
    return {3: TIERCE, 4: CINQUANTE}.get(cards.bit_count(), CENT)  # 5 to 8: one cent (D-13)


def points_of(cards: Mask) -> int:
    if is_carre(cards):
        return CARRE_POINTS[((cards & -cards).bit_length() - 1) & 7]
    return {TIERCE: 20, CINQUANTE: 50, CENT: 100}[kind_of(cards)]


def combinations(hand: Mask) -> list[Mask]:
    """Every combination in ``hand``: carrés (J 9 A 10 K Q order), then maximal runs."""
    carres = [_RANK_MASKS[r] for r in _CARRE_ORDER[::-1] if hand & _RANK_MASKS[r] == _RANK_MASKS[r]]
    return carres + runs_in(hand)


def strength(cards: Mask, trump: int) -> tuple[int, ...]:
    """Comparison key (D-17, D-18): points; at equal points a carré over a run;
    carrés of 100 by rank A > 10 > K > Q; runs by length, then top card, then being
    in the trump suit (never in an all-trump or no-trump contract: ``trump`` >= 4)."""
    if is_carre(cards):
        rank = ((cards & -cards).bit_length() - 1) & 7
        return (points_of(cards), 1, _CARRE_ORDER.index(rank), 0)
    top = cards.bit_length() - 1
    in_trump = int(trump < 4 and top >> 3 == trump)
    return (points_of(cards), 0, cards.bit_count() * 8 + (top & 7), in_trump)


@dataclass(frozen=True, slots=True)
class Announcement:
    """One announced combination, in the order announcements were made."""

    seat: int
    cards: Mask

    @property
    def kind(self) -> str:
        return kind_of(self.cards)

    @property
    def points(self) -> int:
        return points_of(self.cards)

    @property
    def side(self) -> int:
        return self.seat % 2

    def codes(self) -> list[str]:
        return [CODES[c] for c in card_list(self.cards)]


def counted_side(announced: list[Announcement], trump: int) -> int | None:
    """The side whose announcements count: the one holding the best announcement;
    ``None`` when nobody announced or the two best are equal (D-18)."""
    best: list[tuple[int, ...] | None] = [None, None]
    for a in announced:
        key = strength(a.cards, trump)
        current = best[a.side]
        if current is None or key > current:
            best[a.side] = key
    first, second = best
    if first is None and second is None:
        return None
    if first is None:
        return 1
    if second is None or first > second:
        return 0
    return 1 if second > first else None


def counted_points(announced: list[Announcement], trump: int) -> tuple[int, int]:
    """Each side's counted announcement points (one side's at most)."""
    side = counted_side(announced, trump)
    points = [0, 0]
    for a in announced:
        if a.side == side:
            points[side] += a.points
    return points[0], points[1]
