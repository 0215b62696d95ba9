"""Cards, suits and the per-trump tables every other module reads.

A card is an ``int`` in ``0..31``: ``suit * 8 + rank`` with ranks in the natural
order ``7 8 9 T J Q K A`` (index 0..7) and suits ``C D H S`` (0..3). A set of
cards is a 32-bit mask (``1 << card``). The tables below are computed once so the
hot paths (legal moves, trick winners, points) are plain list look-ups.
"""

from __future__ import annotations

from collections.abc import Iterable

Card = int
Mask = int

RANKS = "789TJQKA"
SUITS = "CDHS"
#: Trump codes: the four suits (0..3), ``NT`` no trump (4: Open Blot, and a coinche
#: contract) and ``AT`` all trump (5: a coinche contract), docs/rules.md §1, §7.3.
TRUMP_CODES = ("C", "D", "H", "S", "NT", "AT")
NO_TRUMP = 4
ALL_TRUMP = 5
ALL_CARDS: Mask = (1 << 32) - 1

R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)

# Trick-taking strength within a suit, higher wins (docs/rules.md §1).
_TRUMP_ORDER = (R7, R8, RQ, RK, RT, RA, R9, RJ)  # weakest first: 7 8 Q K 10 A 9 J
_PLAIN_ORDER = (R7, R8, R9, RJ, RQ, RK, RT, RA)  # weakest first: 7 8 9 J Q K 10 A
TRUMP_STRENGTH = tuple(_TRUMP_ORDER.index(r) for r in range(8))
PLAIN_STRENGTH = tuple(_PLAIN_ORDER.index(r) for r in range(8))

_TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
_PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
_NO_TRUMP_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)
_ALL_TRUMP_POINTS = (0, 0, 9, 5, 14, 1, 3, 6)
LAST_TRICK_BONUS = 10
TOTAL_CARD_POINTS = 162


def card(code: str) -> Card:
    """Parse a card code such as ``"JH"``; raises ``ValueError`` on anything else."""
    if not isinstance(code, str) or len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise ValueError(f"not a card code: {code!r}")
    return SUITS.index(code[1]) * 8 + RANKS.index(code[0])


def code(c: Card) -> str:
    return CODES[c]


CODES: tuple[str, ...] = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in range(32))


def suit(c: Card) -> int:
    return c >> 3


def rank(c: Card) -> int:
    return c & 7


def suit_mask(s: int) -> Mask:
    return 0xFF << (8 * s)


SUIT_MASKS: tuple[Mask, ...] = tuple(suit_mask(s) for s in range(4))


def parse_trump(text: str, allow_no_trump: bool = True) -> int:
    """A trump code's index: a suit, ``NT`` (4) or ``AT`` (5); ``ValueError`` otherwise."""
    if text == "NT" and allow_no_trump:
        return NO_TRUMP
    if text == "AT" and allow_no_trump:
        return ALL_TRUMP
    if isinstance(text, str) and len(text) == 1 and text in SUITS:
        return SUITS.index(text)
    raise ValueError(f"not a trump code: {text!r}")


def mask_of(cards: Iterable[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _bits_of_byte(b: int, base: int) -> tuple[Card, ...]:
    return tuple(base + i for i in range(8) if b >> i & 1)


#: ``_SUIT_CARDS[s][b]``: the cards of suit ``s`` whose ranks are the bits of ``b``.
#: The bots' playouts list a mask's cards millions of times a second; four
#: lookups are several times cheaper than a generator stepping bit by bit.
_SUIT_CARDS = tuple(tuple(_bits_of_byte(b, 8 * s) for b in range(256)) for s in range(4))


def cards_in(m: Mask) -> tuple[Card, ...]:
    """The cards of a mask, lowest index first (clubs 7 .. spades A)."""
    c, d, h, s = _SUIT_CARDS
    return c[m & 255] + d[m >> 8 & 255] + h[m >> 16 & 255] + s[m >> 24]


def card_list(m: Mask) -> list[Card]:
    return list(cards_in(m))


def _points_for(trump: int) -> tuple[int, ...]:
    if trump == NO_TRUMP:
        return tuple(_NO_TRUMP_POINTS[c & 7] for c in range(32))
    if trump == ALL_TRUMP:
        return tuple(_ALL_TRUMP_POINTS[c & 7] for c in range(32))
    return tuple(
        (_TRUMP_POINTS if c >> 3 == trump else _PLAIN_POINTS)[c & 7] for c in range(32)
    )


#: ``POINTS[trump][card]``; ``trump`` in 0..5 (4 = no trump, 5 = all trump).
POINTS: tuple[tuple[int, ...], ...] = tuple(_points_for(t) for t in range(6))


def _strength_for(trump: int) -> tuple[int, ...]:
    """A key per card: trumps above every plain card, then the suit's own order.
    In all trump every suit ranks in the trump order (and only the led suit wins)."""
    if trump == ALL_TRUMP:
        return tuple(16 + TRUMP_STRENGTH[c & 7] for c in range(32))
    return tuple(
        16 + TRUMP_STRENGTH[c & 7] if c >> 3 == trump else PLAIN_STRENGTH[c & 7]
        for c in range(32)
    )


#: ``STRENGTH[trump][card]``: compare only cards of the led suit or trumps.
STRENGTH: tuple[tuple[int, ...], ...] = tuple(_strength_for(t) for t in range(6))


def _beats_for(trump: int) -> tuple[Mask, ...]:
    """``BEATS[trump][c]``: the trumps that beat trump card ``c`` (0 for non-trumps);
    in all trump, the cards of ``c``'s suit that beat it."""
    if trump == NO_TRUMP:
        return (0,) * 32
    out = []
    for c in range(32):
        if trump == ALL_TRUMP:
            out.append(sum(
                1 << (c & ~7 | r) for r in range(8) if TRUMP_STRENGTH[r] > TRUMP_STRENGTH[c & 7]
            ))
            continue
        if c >> 3 != trump:
            out.append(0)
            continue
        m = 0
        for r in range(8):
            if TRUMP_STRENGTH[r] > TRUMP_STRENGTH[c & 7]:
                m |= 1 << (trump * 8 + r)
        out.append(m)
    return tuple(out)


BEATS: tuple[tuple[Mask, ...], ...] = tuple(_beats_for(t) for t in range(6))
