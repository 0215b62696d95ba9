"""Club-player card-play heuristics on card masks.

The same function picks the normal bot's card (its inputs built from an
observation, see :mod:`engine.ai.normal`) and every simulated player's card in
the hard bot's playouts (inputs built from a sampled deal, see
:mod:`engine.ai.sim`), so the playouts are as good as the normal bot and there is
one set of rules of thumb to tune. Legality is never decided here: the caller
passes the legal mask computed by :func:`engine.tricks.legal_plays`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import (
    ALL_TRUMP,
    BEATS,
    NO_TRUMP,
    PLAIN_STRENGTH,
    POINTS,
    R9,
    RJ,
    STRENGTH,
    SUIT_MASKS,
    Card,
    Mask,
    cards_in,
)
from engine.tricks import beats


def _higher_table(trump: int) -> tuple[Mask, ...]:
    """``HIGHER[trump][c]``: the cards of ``c``'s suit that beat ``c`` in its suit
    (in all-trump every suit ranks as trumps do)."""
    out = []
    for c in range(32):
        if c >> 3 == trump or trump == ALL_TRUMP:
            out.append(BEATS[trump][c])
            continue
        m = 0
        for r in range(8):
            if PLAIN_STRENGTH[r] > PLAIN_STRENGTH[c & 7]:
                m |= 1 << ((c & ~7) + r)
        out.append(m)
    return tuple(out)


HIGHER: tuple[tuple[Mask, ...], ...] = tuple(_higher_table(t) for t in range(ALL_TRUMP + 1))


def low_bit(m: Mask) -> Card:
    return (m & -m).bit_length() - 1


@dataclass(slots=True)
class PlayCtx:
    """What a player knows when choosing a card, as masks.

    ``possible[s]`` is the set of cards seat ``s`` may hold (exact in a sampled
    deal and for Open Blot face-up cards, a superset from an observation);
    ``exact`` says which. ``voids[s]`` is a 4-bit set of suits ``s`` is known
    not to hold. ``keep`` holds cards worth keeping on the table (Open Blot:
    cards of a declared run that may still grow).
    """

    seat: int
    seats: int
    trump: int
    taker: int
    legal: Mask
    hand: Mask
    trick: list[Card]
    leader: int
    best: Card
    best_seat: int
    possible: list[Mask]
    exact: bool
    voids: list[int]
    keep: Mask = 0


def choose_card(x: PlayCtx) -> Card:
    legal = x.legal
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    if not x.trick:
        return _lead(x)
    t = x.trump
    led_suit = x.trick[0] >> 3
    later = [(x.leader + i) % x.seats for i in range(len(x.trick) + 1, x.seats)]
    opp_later = [s for s in later if (s - x.seat) % 2]
    if x.seats == 4 and x.best_seat == (x.seat + 2) % 4:
        if not _threatened(x, x.best, opp_later, led_suit):
            return _give(x, legal)
        return _lowest(x, legal)
    winners = [c for c in cards_in(legal) if beats(c, x.best, t)]
    if winners:
        safe = [c for c in winners if not _threatened(x, c, opp_later, led_suit)]
        if safe:
            return _cheapest_win(x, safe)
        # Nothing wins for sure: with a partner still to come, or a trick worth
        # little, keep the high cards; alone, try the strongest card.
        partner_later = x.seats == 4 and (x.seat + 2) % 4 in later
        trick_points = sum(POINTS[t][c] for c in x.trick)
        if not partner_later and trick_points >= 10:
            plain = [c for c in winners if c >> 3 != t]
            if plain:
                return max(plain, key=lambda c: STRENGTH[t][c])
    return _lowest(x, legal)


def _threatened(x: PlayCtx, card: Card, seats: list[int], led_suit: int) -> bool:
    """Could one of ``seats`` (still to play in this trick) beat ``card``?"""
    t = x.trump
    for s in seats:
        poss = x.possible[s]
        follow = poss & SUIT_MASKS[led_suit]
        if card >> 3 == led_suit and follow & HIGHER[t][card]:
            return True
        if t >= NO_TRUMP or led_suit == t:  # no ruffing without a trump suit
            continue
        # Hidden hands: with at most one card of the suit left that this seat
        # might hold, count on a ruff (two of the three others are void).
        may_ruff = not follow if x.exact else follow.bit_count() <= 1
        if may_ruff:
            trumps = poss & SUIT_MASKS[t]
            if card >> 3 == t:
                if trumps & BEATS[t][card]:
                    return True
            elif trumps:
                return True
    return False


def _is_master(x: PlayCtx, c: Card, outstanding: Mask) -> bool:
    return not HIGHER[x.trump][c] & outstanding


def _give(x: PlayCtx, legal: Mask) -> Card:
    """Partner wins for sure: add the most points, keeping trumps and masters."""
    t = x.trump
    out = _outstanding(x)

    def key(c: Card) -> tuple[int, int, int, int]:
        keep_master = 6 if c >> 3 != t and _is_master(x, c, out) and POINTS[t][c] < 11 else 0
        return (c >> 3 == t, bool(x.keep >> c & 1), keep_master - POINTS[t][c], STRENGTH[t][c])

    return min(cards_in(legal), key=key)


def _lowest(x: PlayCtx, legal: Mask) -> Card:
    """A trick that is lost (or not worth it): the cheapest card, trumps last."""
    t = x.trump

    def key(c: Card) -> tuple[int, int, int, int]:
        return (c >> 3 == t, bool(x.keep >> c & 1), POINTS[t][c], STRENGTH[t][c])

    return min(cards_in(legal), key=key)


def _cheapest_win(x: PlayCtx, safe: list[Card]) -> Card:
    """Win with a plain card carrying the most points, else the lowest winning trump
    (the jack and nine are saved for tricks that need them)."""
    t = x.trump
    plain = [c for c in safe if c >> 3 != t]
    if plain:
        return max(plain, key=lambda c: (POINTS[t][c], -STRENGTH[t][c]))
    return min(safe, key=lambda c: STRENGTH[t][c])


def _outstanding(x: PlayCtx) -> Mask:
    out = 0
    for s in range(x.seats):
        if s != x.seat:
            out |= x.possible[s]
    return out & ~x.hand


def _opponents(x: PlayCtx) -> list[int]:
    return [s for s in range(x.seats) if (s - x.seat) % 2]


def _lead(x: PlayCtx) -> Card:
    t = x.trump
    hand = x.legal
    out = _outstanding(x)
    opps = _opponents(x)
    opp_cards = 0
    for s in opps:
        opp_cards |= x.possible[s]
    if t < NO_TRUMP:
        my_tr = hand & SUIT_MASKS[t]
        opp_tr = opp_cards & SUIT_MASKS[t]
        if my_tr and opp_tr and x.taker % 2 == x.seat % 2:
            # The taking side draws the opponents' trumps ("counts trumps out").
            top = max(cards_in(my_tr), key=lambda c: STRENGTH[t][c])
            if not BEATS[t][top] & out:
                return top
            if x.seat == x.taker and my_tr.bit_count() >= 3:
                return min(cards_in(my_tr), key=lambda c: STRENGTH[t][c])
    masters = []
    for c in cards_in(hand):
        if c >> 3 == t or not _is_master(x, c, out):
            continue
        if t < NO_TRUMP and _ruff_risk(x, c >> 3, opps):
            continue
        masters.append(c)
    if masters:
        return max(masters, key=lambda c: (POINTS[t][c], STRENGTH[t][c]))
    plain = hand & ~SUIT_MASKS[t] if t < NO_TRUMP else hand
    pool = plain or hand
    if not plain and t < NO_TRUMP:
        top = max(cards_in(pool), key=lambda c: STRENGTH[t][c])
        if not BEATS[t][top] & out:
            return top

    def key(c: Card) -> tuple[int, int, int, int]:
        suit = c >> 3
        # A ten whose ace is still out is led last: it would feed the ace.
        bare_ten = POINTS[t][c] == 10 and bool(HIGHER[t][c] & out)
        length = (hand & SUIT_MASKS[suit]).bit_count()
        return (bool(x.keep >> c & 1), bare_ten, POINTS[t][c] - length, STRENGTH[t][c])

    return min(cards_in(pool), key=key)


def _ruff_risk(x: PlayCtx, suit: int, opps: list[int]) -> bool:
    t = x.trump
    for s in opps:
        poss = x.possible[s]
        if not poss & SUIT_MASKS[t]:
            continue
        if x.exact:
            if not poss & SUIT_MASKS[suit]:
                return True
        elif x.voids[s] >> suit & 1:
            return True
    return False


# --- bidding --------------------------------------------------------------------------

_TRUMP_VALUE = (4, 4, 18, 10, 24, 6, 6, 12)  # 7 8 9 T J Q K A as trump


def belote_hand_value(hand: Mask, trump: int) -> float:
    """A club player's count of a six-card Belote hand (five dealt + the proposed
    card, which the taker receives) for ``trump``: trump honours, length, side
    aces and tens, voids to ruff with, and the belote."""
    trumps = hand & SUIT_MASKS[trump]
    n = trumps.bit_count()
    v = float(sum(_TRUMP_VALUE[c & 7] for c in cards_in(trumps)))
    if n >= 3:
        v += 4 * (n - 2)
    for s in range(4):
        if s == trump:
            continue
        side = hand & SUIT_MASKS[s]
        ace = side >> (s * 8 + 7) & 1
        ten = side >> (s * 8 + 3) & 1
        if ace:
            v += 11 + (7 if ten else 0)
        elif ten and side.bit_count() >= 2:
            v += 3
        if not side and n >= 2:
            v += 5
    kq = (1 << (trump * 8 + 5)) | (1 << (trump * 8 + 6))
    if trumps & kq == kq:
        v += 10
    return v


def belote_biddable(hand: Mask, trump: int) -> bool:
    """Never take without the jack, or the nine with two more trumps."""
    trumps = hand & SUIT_MASKS[trump]
    return bool(trumps >> (trump * 8 + RJ) & 1) or (
        bool(trumps >> (trump * 8 + R9) & 1) and trumps.bit_count() >= 3
    )
