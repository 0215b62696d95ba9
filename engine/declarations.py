"""Open Blot combinations: what may be declared, how runs grow, which count.

docs/rules.md §3 "Declarations". Card sets are masks; a player's face-up unplayed
cards are the only ones that can form or grow a combination.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.cards import CODES, NO_TRUMP, R9, RA, RJ, RK, RQ, RT, Mask, card_list

TERZ, FIFTY, HUNDRED, FOUR = "terz", "fifty", "hundred", "four"
RUN_POINTS = {TERZ: 20, FIFTY: 50, HUNDRED: 100}

# Value of four of a kind by rank, and the tie-break order (strongest last).
_FOUR_VALUE_TRUMP = {RJ: 200, R9: 140, RA: 110, RT: 100, RK: 100, RQ: 100}
_FOUR_VALUE_NO_TRUMP = {RA: 190, RT: 100, RK: 100, RQ: 100, RJ: 100}
_FOUR_ORDER_TRUMP = (RQ, RK, RT, RA, R9, RJ)
_FOUR_ORDER_NO_TRUMP = (RJ, RQ, RK, RT, RA)

_RANK_MASKS = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))


def _four_values(trump: int) -> dict[int, int]:
    return _FOUR_VALUE_NO_TRUMP if trump == NO_TRUMP else _FOUR_VALUE_TRUMP


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declared combination. ``order`` is when it was declared (earlier wins ties)."""

    seat: int
    cards: Mask
    order: int

    @property
    def size(self) -> int:
        return self.cards.bit_count()

    @property
    def is_four(self) -> bool:
        low = (self.cards & -self.cards).bit_length() - 1
        return self.cards == _RANK_MASKS[low & 7]

    @property
    def kind(self) -> str:
        if self.is_four:
            return FOUR
        return {3: TERZ, 4: FIFTY}.get(self.size, HUNDRED)

    def points(self, trump: int) -> int:
        if self.is_four:
            low = (self.cards & -self.cards).bit_length() - 1
            return _four_values(trump)[low & 7]
        return RUN_POINTS[self.kind]

    def strength(self, trump: int) -> tuple[int, ...]:
        """Comparison key: any four beats any run (docs/rules.md §3 "Which declarations count")."""
        cards = card_list(self.cards)
        if self.is_four:
            r = cards[0] & 7
            order = _FOUR_ORDER_NO_TRUMP if trump == NO_TRUMP else _FOUR_ORDER_TRUMP
            return (1, self.points(trump), order.index(r), 0)
        top = cards[-1]
        in_trump = int(trump != NO_TRUMP and top >> 3 == trump)
        return (0, min(self.size, 5), top & 7, in_trump, -self.order)

    def codes(self) -> list[str]:
        return [CODES[c] for c in card_list(self.cards)]


def runs_in(cards: Mask) -> list[Mask]:
    """The maximal runs of three or more cards of one suit within ``cards``."""
    found = []
    for s in range(4):
        bits = (cards >> (8 * s)) & 0xFF
        r = 0
        while r < 8:
            if not bits >> r & 1:
                r += 1
                continue
            start = r
            while r < 8 and bits >> r & 1:
                r += 1
            if r - start >= 3:
                found.append(((1 << (r - start)) - 1) << (8 * s + start))
    return found


def available(face_up: Mask, declared: Mask, trump: int) -> list[Mask]:
    """Combinations a player may declare now: fours, then maximal runs (D-7)."""
    free = face_up & ~declared
    values = _four_values(trump)
    fours = [_RANK_MASKS[r] for r in sorted(values) if free & _RANK_MASKS[r] == _RANK_MASKS[r]]
    return fours + runs_in(free)


def _run_through(cards: Mask, c: int) -> Mask:
    """The maximal run of one suit within ``cards`` that contains card ``c``."""
    run = 1 << c
    lo = hi = c
    base = c & ~7
    while lo > base and cards >> (lo - 1) & 1:
        lo -= 1
        run |= 1 << lo
    while hi < base + 7 and cards >> (hi + 1) & 1:
        hi += 1
        run |= 1 << hi
    return run


def grow(declarations: list[Declaration], seat: int, turned: int, face_up: Mask) -> bool:
    """Grow the seat's declared runs after ``turned`` came face up (D-8), in place.

    ``face_up`` is the seat's face-up unplayed cards, ``turned`` included. A run
    grows only while all its cards are face up and unplayed; it never grows over
    a card of another declaration (a four, or a run that has lost a card), and
    runs that the growth joins become one, keeping the earliest declaration.
    Returns whether anything changed.
    """
    mine = [d for d in declarations if d.seat == seat]
    whole = [d for d in mine if not d.is_four and d.cards & ~face_up == 0]
    if not whole:
        return False
    blocked = 0
    for d in mine:
        if d not in whole:
            blocked |= d.cards
    run = _run_through(face_up & ~blocked, turned)
    joined = [d for d in whole if d.cards & run]
    if not joined or run.bit_count() < 3:
        return False
    first = min(joined, key=lambda d: d.order)
    merged = replace(first, cards=run)
    position = declarations.index(first)
    declarations[position] = merged
    for d in joined:
        if d is not first:
            declarations.remove(d)
    return True


def counted_seat(declarations: list[Declaration], trump: int) -> int | None:
    """The seat holding the best combination: only its declarations score."""
    if not declarations:
        return None
    return max(declarations, key=lambda d: d.strength(trump)).seat
