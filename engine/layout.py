"""Where each card of the deck goes: the dealing layouts of docs/rules.md §2, §3, §7.2.

The deal classes deal through these tables, and a bot that samples the cards it
cannot see turns its sample back into a deck order through the same tables, so
the layout is written down once.
"""

from __future__ import annotations

from functools import cache


@cache
def belote_first_deal(dealer: int) -> tuple[int, ...]:
    """The seat receiving deck index 0..19: 3 each then 2 each from ``dealer + 1``."""
    seats: list[int] = []
    for batch in (3, 2):
        for i in range(1, 5):
            seats.extend([(dealer + i) % 4] * batch)
    return tuple(seats)


BELOTE_PROPOSED_INDEX = 20


@cache
def belote_completion(dealer: int, taker: int) -> tuple[int, ...]:
    """The seat receiving deck index 21..31: 3 each from ``dealer + 1``, the taker
    2 (he has the proposed card)."""
    seats: list[int] = []
    for i in range(1, 5):
        seat = (dealer + i) % 4
        seats.extend([seat] * (2 if seat == taker else 3))
    return tuple(seats)


@cache
def coinche_deal(dealer: int) -> tuple[int, ...]:
    """The seat receiving deck index 0..31 in a coinche deal: 3 each, 2 each, then
    3 each, from ``dealer + 1`` (docs/rules.md §7.2)."""
    seats: list[int] = []
    for batch in (3, 2, 3):
        for i in range(1, 5):
            seats.extend([(dealer + i) % 4] * batch)
    return tuple(seats)


@cache
def open_blot_layout(dealer: int) -> tuple[tuple[int, int, bool], ...]:
    """``(seat, stack, face_up)`` for deck index 0..31 (D-6). Indices 24..31 are the
    second face-up batch, dealt once trump is chosen or both passed in round 1."""
    non_dealer = (dealer + 1) % 2
    out: list[tuple[int, int, bool]] = []
    for seat, first in ((non_dealer, 0), (dealer, 0), (non_dealer, 4), (dealer, 4)):
        out.extend((seat, first + k, False) for k in range(4))
    for first in (0, 4):
        for seat in (non_dealer, dealer):
            out.extend((seat, first + k, True) for k in range(4))
    return tuple(out)


OPEN_BLOT_SECOND_BATCH = 24
