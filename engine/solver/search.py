"""Exact (double-dummy) card play: every seat sees every card and plays perfectly.

The value of a position is the card points the side of seat 0 (Belote: seats 0
and 2; Open Blot: seat 0) still wins from it, the last-trick 10 included: the
other side wins the rest, so one number says everything and the search is a
plain minimax (side 0 maximizes, side 1 minimizes).

The rules are the engine's: which cards may be played is
:func:`engine.tricks.legal_plays`, who wins a trick :func:`engine.tricks.beats`,
card points :data:`engine.cards.POINTS`. The search adds only the usual
reductions of card-game solvers, none of which changes a value:

- alpha-beta with fail-soft bounds;
- a transposition table at the start of each trick, keyed on the cards each
  seat still holds and the leader (what is left to win depends on nothing else);
  it stores bounds, so the many searches of one deal share their work;
- equivalent cards: two cards of one suit in one hand, worth the same points,
  with no other unplayed card between them in trick order, lead to the same
  value, so only one of them is searched (Open Blot: a card still covering a
  face-down card is never equivalent to another, since playing it turns a
  card up);
- bounds from the points left: a side cannot win more than is left, and with a
  suit trump each side surely wins its trumps that are above all of the other
  side's (no card can take them).

The last two tricks are searched by plain loops (``end2``), not the general
card-by-card recursion; the last trick is computed outright.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards import (
    ALL_TRUMP,
    LAST_TRICK_BONUS,
    NO_TRUMP,
    POINTS,
    STRENGTH,
    SUIT_MASKS,
    Card,
    Mask,
    cards_in,
)
from engine.tricks import TAKES, beats, legal_plays

NO_CARD = -1
INF = 1_000
#: The search's card-by-card step (see ``_State._build``).
_PlayOut = Callable[[int, int, Card, Card, int, int, Mask, int, int, Card], int]


def _run_tables() -> tuple[tuple[Mask, ...], ...]:
    """``RUN_BELOW[trump][c]``: the cards just below ``c`` in trick order, in its
    suit, worth what ``c`` is worth, with nothing of another worth between (the
    low cards: plain 7 8 9, trump 7 8). Within such a run trick order is card
    order, so the strongest of a set of them is its highest bit."""
    out = []
    for t in range(ALL_TRUMP + 1):
        strength, points = STRENGTH[t], POINTS[t]
        per = []
        for c in range(32):
            below = sorted(
                (x for x in range(c & ~7, (c & ~7) + 8) if strength[x] < strength[c]),
                key=lambda x: -strength[x],
            )
            run = 0
            for x in below:
                if points[x] != points[c]:
                    break
                assert x < c, "a run of equal worth follows card order"
                run |= 1 << x
            per.append(run)
        out.append(tuple(per))
    return tuple(out)


RUN_BELOW = _run_tables()


def _pack_table() -> tuple[tuple[int, ...], ...]:
    """``PACK[left][held]``: ``held`` (a subset of the 3-bit ``left``) renumbered as
    if the cards left were the lowest ones, order kept."""
    out = []
    for left in range(8):
        row = []
        for held in range(8):
            packed, k = 0, 0
            for bit in range(3):
                if left >> bit & 1:
                    if held >> bit & 1:
                        packed |= 1 << k
                    k += 1
            row.append(packed)
        out.append(tuple(row))
    return tuple(out)


PACK = _pack_table()


def _low_groups(trump: int) -> list[tuple[int, int]]:
    """Per suit, (shift, bits) of its low cards of equal worth (plain 7 8 9, trump
    7 8, every suit of an all-trump contract 7 8): they sit next to each other in
    trick order."""
    return [
        (8 * suit, 0b11 if suit == trump or trump == ALL_TRUMP else 0b111) for suit in range(4)
    ]


def _low_mask(trump: int) -> Mask:
    return sum(group << shift for shift, group in _low_groups(trump))


def _gaps(low: Mask, trump: int) -> tuple[tuple[int, int, tuple[int, ...], int], ...]:
    """For the low cards left (``low``), the suits where some were played below
    one that is left, as (shift, bits, ``PACK`` row, mask clearing the bits)."""
    out = []
    for shift, group in _low_groups(trump):
        g = low >> shift & group
        if g & (g + 1):
            out.append((shift, group, PACK[g], ~(group << shift)))
    return tuple(out)


def _sure_tables(trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For a suit trump, over the trump suit's 8 ranks as bits: ``ABOVE[held]``,
    the trumps stronger than every one in ``held`` (all of them when ``held`` is
    empty), and ``WORTH[ranks]``, their card points. A side's trumps above all
    the other side's win the tricks they are played to, so their points are its
    whatever happens."""
    base = 8 * trump
    strength = [STRENGTH[trump][base + r] for r in range(8)]
    points = [POINTS[trump][base + r] for r in range(8)]
    above, worth = [], []
    for held in range(256):
        top = max((strength[r] for r in range(8) if held >> r & 1), default=-1)
        above.append(sum(1 << r for r in range(8) if strength[r] > top))
        worth.append(sum(points[r] for r in range(8) if held >> r & 1))
    return tuple(above), tuple(worth)


def _order_tables(
    seats: int, trump: int, under: Sequence[Card]
) -> tuple[tuple[int, ...], ...]:
    """``Solver.order``."""
    points, strength = POINTS[trump], STRENGTH[trump]
    turns = [0 if under[c] == NO_CARD else 1 for c in range(32)]
    if seats == 4:
        master = tuple(200 + points[c] - 2 * (strength[c] & 16) for c in range(32))
        lead = tuple(2 * (strength[c] & 15) - points[c] for c in range(32))
    else:
        master = tuple(200 + points[c] + (strength[c] & 16) + 15 * turns[c] for c in range(32))
        lead = tuple(strength[c] - 100 + 40 * turns[c] for c in range(32))
    hold = tuple(points[c] - strength[c] for c in range(32))
    take = tuple(100 + points[c] - strength[c] + 40 * turns[c] for c in range(32))
    duck = tuple(-points[c] - strength[c] + 10 * turns[c] for c in range(32))
    return master, lead, hold, take, duck


class Solver:
    """Exact values of the positions of one deal's play (fixed trump and, in Open
    Blot, fixed face-down cards). Keeps its transposition table across calls, so
    solving every step of a deal costs little more than solving the first."""

    def __init__(self, seats: int, trump: int, under: Sequence[Card] | None = None) -> None:
        self.seats = seats
        self.trump = trump
        self.under: tuple[Card, ...] = tuple(under) if under is not None else (NO_CARD,) * 32
        self.table: dict[int, tuple[int, int, int]] = {}
        #: ``takes[best][c]``: whether ``c`` takes the trick from ``best`` — the
        #: engine's :func:`~engine.tricks.beats`, looked up instead of called.
        self.takes = tuple(tuple(beats(c, b, trump) for c in range(32)) for b in range(32))
        #: ``tops[c]``: the cards of ``c``'s suit that take a trick from ``c``.
        self.tops = tuple(TAKES[trump][c] & SUIT_MASKS[c >> 3] for c in range(32))
        #: ``_sure_tables`` of the trump (empty without a suit trump).
        self.sure = _sure_tables(trump) if trump < NO_TRUMP else ((), ())
        #: Exact values of positions met as root children, keyed by
        #: :meth:`_State.position`: the next decision's position is the child of the
        #: card actually played, so its value is known before it is searched and
        #: is the first guess for its cards' probes (the best card's value).
        self.known: dict[tuple[object, ...], int] = {}
        #: The search's card order, as sort keys per card (highest first):
        #: ``order = (master, lead, hold, take, duck)``. The leader: its masters
        #: (no other hand holds a stronger card of the suit), points first, in
        #: Belote the plain suits' before the trumps, in Open Blot trumps first;
        #: then, in Belote, a cheap card but a high one of its suit (a
        #: low lead lets the partner take or smear; its rank counts two points a
        #: step, so a 9 or a jack comes before a 7, an ace or 10 last), in Open
        #: Blot the strongest (with no partner a low lead gives the trick away).
        #: A follower whose side holds the trick: its points; one who can take
        #: it: the taking card worth most; else the cheapest. In Open Blot a
        #: card that covers a face-down card comes first among the leader's
        #: non-masters and the taking cards, and is worth 15 points more among
        #: the masters, 10 among the cheap cards: it turns a card up, which
        #: widens the player's choices (see docs/performance.md for the weights
        #: tried).
        self.order = _order_tables(seats, trump, self.under)
        #: ``gaps[low]``: :func:`_gaps` of the low cards left, filled as met.
        self.gaps: dict[Mask, tuple[tuple[int, int, tuple[int, ...], int], ...]] = {}
        self.nodes = 0
        self.probes = 0

    def values(
        self,
        hands: Sequence[Mask],
        down: Sequence[Mask],
        to_act: int,
        trick: Sequence[Card],
    ) -> dict[Card, int]:
        """For each card the seat to act may play: the points side 0 wins from now
        on (this trick included) if that card is played and then everyone plays
        perfectly. ``hands`` are the playable cards (Open Blot: face up),
        ``down`` Open Blot's face-down cards (zeros in Belote)."""
        state = _State(self, hands, down, to_act, trick)
        return state.root_values()

    def best_card(
        self,
        hands: Sequence[Mask],
        down: Sequence[Mask],
        to_act: int,
        trick: Sequence[Card],
    ) -> Card:
        """A card of the best value for the side to act (the lowest such card),
        with one null-window test for each card after the first: only a card that
        beats the best so far is then searched exactly."""
        state = _State(self, hands, down, to_act, trick)
        maximizing = to_act % 2 == 0
        best_card, best = NO_CARD, 0
        for c in cards_in(state.legal()):
            child = _State(self, *_after(self, hands, down, to_act, trick, c))
            if best_card != NO_CARD and (
                not child.at_least(best + 1) if maximizing else child.at_least(best)
            ):
                continue
            best_card, best = c, child.root_value(None if best_card == NO_CARD else best)
        return best_card

    def points_left(
        self, hands: Sequence[Mask], down: Sequence[Mask], trick: Sequence[Card]
    ) -> int:
        """The card points still to be won: the hands, the face-down cards, the
        trick in progress and the last-trick 10."""
        table = POINTS[self.trump]
        total = LAST_TRICK_BONUS + sum(table[c] for c in trick)
        for m in (*hands, *down):
            for c in cards_in(m):
                total += table[c]
        return total

    def value(
        self,
        hands: Sequence[Mask],
        down: Sequence[Mask],
        to_act: int,
        trick: Sequence[Card],
    ) -> int:
        """The points side 0 wins from now on with perfect play by everyone."""
        state = _State(self, hands, down, to_act, trick)
        return state.root_value()


class _State:
    """One search's mutable position; the recursion lives in closures over it for
    speed (local and cell variables are the cheapest names Python has)."""

    def __init__(
        self,
        solver: Solver,
        hands: Sequence[Mask],
        down: Sequence[Mask],
        to_act: int,
        trick: Sequence[Card],
    ) -> None:
        self.solver = solver
        self.hands = list(hands)
        self.down = list(down) + [0] * (solver.seats - len(down))
        self.to_act = to_act
        self.trick = list(trick)
        cards_left = sum(h.bit_count() for h in self.hands) + sum(d.bit_count() for d in self.down)
        seats = solver.seats
        assert (cards_left + len(self.trick)) % seats == 0, "cards do not make whole tricks"
        self.tricks_left = (cards_left + len(self.trick)) // seats
        #: Points side 0 took in a trick completed at the root (by :func:`_play_root`).
        self.won = 0
        if len(self.trick) == seats:
            _, _, _, winner, pts = self._first()
            self.tricks_left -= 1
            if not self.tricks_left:
                pts += LAST_TRICK_BONUS
            self.won = pts if winner % 2 == 0 else 0
            self.to_act = winner
            self.trick = []

    # The search proper -------------------------------------------------------------------

    def _build(self) -> tuple[_PlayOut, Callable[[int, int, int], int], list[int]]:
        solver = self.solver
        seats = solver.seats
        trump = solver.trump
        under = solver.under
        points = POINTS[trump]
        run_below = RUN_BELOW[trump]
        strength = STRENGTH[trump]
        table = solver.table
        hands = self.hands
        down = self.down
        tricks_left = [self.tricks_left]
        # Unplayed cards: in a hand, face down, or in the trick in progress.
        alive = [0]
        for m in hands:
            alive[0] |= m
        for m in down:
            alive[0] |= m
        for c in self.trick:
            alive[0] |= 1 << c
        left_pts = [sum(points[c] for c in cards_in(alive[0]))]
        nodes = [0]
        lead = [NO_CARD]
        taker = solver.takes
        tops = solver.tops
        gaps = solver.gaps
        key_master, key_lead, key_hold, key_take, key_duck = solver.order
        low_mask = _low_mask(trump)
        four = seats == 4
        suit_trump = trump < NO_TRUMP
        above, worth = solver.sure
        tshift = 8 * trump

        def play_out(
            seat: int, n: int, led: Card, best: Card, best_seat: int, pts: int, tm: Mask,
            alpha: int, beta: int, first: Card,
        ) -> int:
            """Value (side 0's points from here) with ``n`` cards in the trick (``tm``);
            ``first`` is a card to try first (the table's best lead)."""
            nodes[0] += 1
            hand = hands[seat]
            if n == 0:
                legal = hand
            else:
                partner = four and n >= 2 and best_seat == (seat + 2) % 4
                legal = legal_plays(hand, led, best, partner, trump)
            if legal & (legal - 1):
                # One card per class of equivalent cards, likely best first (the
                # keys are the solver's ``order`` tables, see there). The case is
                # chosen once per node, not per card: this loop runs at every
                # node of the search.
                a = alive[0]
                keyed = []
                if n == 0:
                    others = a & ~hand
                    for c in cards_in(legal):
                        run = a & run_below[c]
                        if run and under[c] == NO_CARD:
                            x = run.bit_length() - 1  # the next unplayed card below c
                            if legal >> x & 1 and under[x] == NO_CARD:
                                continue  # in the same hand and worth the same: equivalent
                        if c == first:
                            keyed.append((1000, c))
                        elif not tops[c] & others:
                            keyed.append((key_master[c], c))
                        else:
                            keyed.append((key_lead[c], c))
                elif best_seat % 2 == seat % 2:
                    for c in cards_in(legal):
                        run = a & run_below[c]
                        if run and under[c] == NO_CARD:
                            x = run.bit_length() - 1
                            if legal >> x & 1 and under[x] == NO_CARD:
                                continue
                        keyed.append((key_hold[c], c))
                else:
                    takes = taker[best]
                    for c in cards_in(legal):
                        run = a & run_below[c]
                        if run and under[c] == NO_CARD:
                            x = run.bit_length() - 1
                            if legal >> x & 1 and under[x] == NO_CARD:
                                continue
                        keyed.append((key_take[c] if takes[c] else key_duck[c], c))
                keyed.sort(reverse=True)
            else:
                keyed = [(0, (legal & -legal).bit_length() - 1)]
            maximizing = seat % 2 == 0
            value = -INF if maximizing else INF
            chosen = keyed[0][1]
            last = n + 1 == seats
            dn = down[seat]
            nxt = (seat + 1) % seats
            takes = taker[best]  # (unused when leading: ``best`` is then NO_CARD)
            for _, c in keyed:
                bit = 1 << c
                u = under[c]
                if dn and u != NO_CARD and dn >> u & 1:
                    hands[seat] = (hand & ~bit) | (1 << u)
                    down[seat] = dn & ~(1 << u)
                else:
                    hands[seat] = hand & ~bit
                if n == 0 or takes[c]:
                    nb, ns = c, seat
                else:
                    nb, ns = best, best_seat
                p = pts + points[c]
                if last:
                    a0 = alive[0]
                    alive[0] = a0 & ~(tm | bit)
                    tricks_left[0] -= 1
                    left_pts[0] -= p
                    won = p + LAST_TRICK_BONUS if not tricks_left[0] else p
                    if ns % 2 == 0:
                        v = won + start(ns, alpha - won, beta - won)
                    else:
                        v = start(ns, alpha, beta)
                    tricks_left[0] += 1
                    left_pts[0] += p
                    alive[0] = a0
                else:
                    v = play_out(
                        nxt, n + 1, led if n else c, nb, ns, p, tm | bit,
                        alpha, beta, NO_CARD,
                    )
                hands[seat] = hand
                down[seat] = dn
                if maximizing:
                    if v > value:
                        value, chosen = v, c
                        if v > alpha:
                            alpha = v
                else:
                    if v < value:
                        value, chosen = v, c
                        if v < beta:
                            beta = v
                if alpha >= beta:
                    break
            if n == 0:
                lead[0] = chosen
            return value

        legal_of = legal_plays

        def order2(legal: Mask, best: Card, holding: bool) -> tuple[Card, ...]:
            """``legal``'s cards (at most two), the likely better first, as in
            :func:`play_out`: on the own side's trick, points; else the taking card
            worth most, or the cheapest."""
            cs = cards_in(legal)
            if len(cs) == 2:
                x, y = cs
                if holding:
                    if points[y] - strength[y] > points[x] - strength[x]:
                        return y, x
                else:
                    t = taker[best]
                    kx = 100 + points[x] - strength[x] if t[x] else -points[x] - strength[x]
                    ky = 100 + points[y] - strength[y] if t[y] else -points[y] - strength[y]
                    if ky > kx:
                        return y, x
            return cs

        def end2(leader: int, alpha: int, beta: int) -> int:
            """Value of the last two tricks, led by ``leader`` (each seat holds two
            cards; Open Blot: face up or down), fail-soft within ``alpha``,
            ``beta``: one plain loop per seat over its legal cards, the last trick
            computed outright. A sixth of the general search's nodes were here,
            each paying for card equivalence and a sort that two cards do not
            need (Belote: 5.5 % fewer instructions; Open Blot: no change). It runs
            under :func:`start`, which still keeps these positions in the table:
            dropping the table here cost more than it saved."""
            nodes[0] += 1
            # Minimax over the leader's side's points ``lv``: the leader and its
            # partner maximize it, the others minimize; side 0's value is ``lv``
            # or what is left minus ``lv``.
            total = left_pts[0] + LAST_TRICK_BONUS
            mine = leader % 2 == 0
            if mine:
                a0, b0 = alpha, beta
            else:
                a0, b0 = total - beta, total - alpha
            hl = hands[leader]
            v0 = -INF
            if four:
                s1, s2, s3 = (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4
                h1, h2, h3 = hands[s1], hands[s2], hands[s3]
                for c0 in cards_in(hl):
                    r0 = hl & ~(1 << c0)
                    p0 = points[c0]
                    a1 = a0 if a0 > v0 else v0
                    v1 = INF
                    t0 = taker[c0]
                    for c1 in order2(legal_of(h1, c0, c0, False, trump), c0, False):
                        if t0[c1]:
                            b1, w1 = c1, 1
                        else:
                            b1, w1 = c0, 0
                        p1 = p0 + points[c1]
                        r1 = h1 & ~(1 << c1)
                        b2 = b0 if b0 < v1 else v1
                        v2 = -INF
                        t1 = taker[b1]
                        for c2 in order2(legal_of(h2, c0, b1, w1 == 0, trump), b1, w1 == 0):
                            if t1[c2]:
                                bb2, w2 = c2, 2
                            else:
                                bb2, w2 = b1, w1
                            p2 = p1 + points[c2]
                            r2 = h2 & ~(1 << c2)
                            a3 = a1 if a1 > v2 else v2
                            v3 = INF
                            t2 = taker[bb2]
                            for c3 in order2(legal_of(h3, c0, bb2, w2 == 1, trump), bb2, w2 == 1):
                                w = 3 if t2[c3] else w2
                                r3 = h3 & ~(1 << c3)
                                # The last trick, led by the first trick's winner.
                                rest = (
                                    r0.bit_length() - 1, r1.bit_length() - 1,
                                    r2.bit_length() - 1, r3.bit_length() - 1,
                                )
                                best = rest[w]
                                wl = w
                                for j in ((w + 1) & 3, (w + 2) & 3, (w + 3) & 3):
                                    if taker[best][rest[j]]:
                                        best, wl = rest[j], j
                                lv = p2 + points[c3] if w % 2 == 0 else 0
                                if wl % 2 == 0:
                                    lv += (
                                        points[rest[0]] + points[rest[1]] + points[rest[2]]
                                        + points[rest[3]] + LAST_TRICK_BONUS
                                    )
                                if lv < v3:
                                    v3 = lv
                                    if v3 <= a3:
                                        break
                            if v3 > v2:
                                v2 = v3
                                if v2 >= b2:
                                    break
                        if v2 < v1:
                            v1 = v2
                            if v1 <= a1:
                                break
                    if v1 > v0:
                        v0 = v1
                        if v0 >= b0:
                            break
            else:
                f = 1 - leader
                hf = hands[f]
                al = hl | down[leader]
                af = hf | down[f]
                for c0 in cards_in(hl):
                    r0 = (al & ~(1 << c0)).bit_length() - 1
                    p0 = points[c0]
                    v1 = INF
                    t0 = taker[c0]
                    for c1 in order2(legal_of(hf, c0, c0, False, trump), c0, False):
                        r1 = (af & ~(1 << c1)).bit_length() - 1
                        last = points[r0] + points[r1] + LAST_TRICK_BONUS
                        if t0[c1]:
                            lv = last if taker[r1][r0] else 0
                        else:
                            lv = p0 + points[c1] + (0 if taker[r0][r1] else last)
                        if lv < v1:
                            v1 = lv
                            if v1 <= a0 or v1 <= v0:
                                break
                    if v1 > v0:
                        v0 = v1
                        if v0 >= b0:
                            break
            return v0 if mine else total - v0

        def start(leader: int, alpha: int, beta: int) -> int:
            """Value at the start of a trick led by ``leader``; uses the table."""
            left = tricks_left[0]
            if left <= 1:
                if not left:
                    return 0
                # The last trick plays itself: one card in each hand.
                best = hands[leader].bit_length() - 1
                best_seat = leader
                p = points[best] + LAST_TRICK_BONUS
                for i in range(1, seats):
                    s = (leader + i) % seats
                    c = hands[s].bit_length() - 1
                    p += points[c]
                    if taker[best][c]:
                        best, best_seat = c, s
                return p if best_seat % 2 == 0 else 0
            most = left_pts[0] + LAST_TRICK_BONUS
            sure = 0
            if suit_trump:
                # Each side's trumps above all of the other side's are its own points.
                if four:
                    t0 = (hands[0] | hands[2]) >> tshift & 255
                    t1 = (hands[1] | hands[3]) >> tshift & 255
                else:
                    t0 = (hands[0] | down[0]) >> tshift & 255
                    t1 = (hands[1] | down[1]) >> tshift & 255
                sure = worth[t0 & above[t1]]
                most -= worth[t1 & above[t0]]
            if alpha >= most:
                return most
            if beta <= sure:
                return sure
            key = leader
            if four:
                # Belote: the low cards of equal worth (plain 7 8 9, trump 7 8) sit
                # next to each other in trick order, so only which of them are left,
                # in order, and who holds each matters: packed to the lowest ranks,
                # positions differing only there share one entry.
                al = alive[0]  # at a trick's start: the cards in the hands
                h0, h1, h2, h3 = hands
                low = al & low_mask
                packs = gaps.get(low)
                if packs is None:
                    packs = gaps[low] = _gaps(low, trump)
                for shift, group, pack, clear in packs:
                    h0 = (h0 & clear) | pack[h0 >> shift & group] << shift
                    h1 = (h1 & clear) | pack[h1 >> shift & group] << shift
                    h2 = (h2 & clear) | pack[h2 >> shift & group] << shift
                    h3 = (h3 & clear) | pack[h3 >> shift & group] << shift
                key |= h0 << 3 | h1 << 35 | h2 << 67 | h3 << 99
            else:
                key |= (hands[0] | down[0]) << 3 | (hands[1] | down[1]) << 35
            entry = table.get(key)
            lo, hi, first = sure, most, NO_CARD
            if entry is not None:
                lo, hi, first = entry
                if lo < sure:
                    lo = sure
                if hi > most:
                    hi = most
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
            a = alpha if alpha > lo else lo
            b = beta if beta < hi else hi
            if left == 2:
                v = end2(leader, a, b)
            else:
                v = play_out(leader, 0, NO_CARD, NO_CARD, -1, 0, 0, a, b, first)
            if v <= a:
                hi = min(hi, v)
            elif v >= b:
                lo = max(lo, v)
            else:
                lo = hi = v
            table[key] = (lo, hi, lead[0])
            return v

        return play_out, start, nodes

    def _left(self) -> int:
        """Card points still in the hands (face-down cards too) and the last-trick 10."""
        return self.solver.points_left(self.hands, self.down, [])

    def _first(self) -> tuple[int, Card, Card, int, int]:
        """The trick in progress as (n, led, best, best seat, its points)."""
        solver = self.solver
        trick = self.trick
        if not trick:
            return 0, NO_CARD, NO_CARD, -1, 0
        n = len(trick)
        leader = (self.to_act - n) % solver.seats
        best, best_seat = trick[0], leader
        for i, c in enumerate(trick[1:], start=1):
            if beats(c, best, solver.trump):
                best, best_seat = c, (leader + i) % solver.seats
        pts = sum(POINTS[solver.trump][c] for c in trick)
        return n, trick[0], best, best_seat, pts

    def root_value(
        self, guess: int | None = None, floor: int | None = None, ceiling: int | None = None
    ) -> int:
        """Null-window searches closing in on the value (MTD(f)-like); with the
        table's bounds each probe reuses the last one's work, and a null window
        cuts far more than a wide one. ``floor`` and ``ceiling`` are bounds on
        the value known beforehand (those of the points taken at the root
        included): a probe that reaches one proves the value."""
        play_out, _, nodes = self._build()
        n, led, best, best_seat, pts = self._first()
        v = 0
        if self.tricks_left:
            tm = 0
            for c in self.trick:
                tm |= 1 << c
            # Null-window probes: the first at the guess (usually a sibling's value),
            # then galloping away from it in doubling steps until the value is
            # bracketed, then bisecting; a fail-soft answer narrows further than
            # the probe asked. An exact guess costs two probes, a far one a few
            # more, where stepping by one point cost one per point.
            lo, hi = 0, sum(POINTS[self.solver.trump][c] for c in cards_in(tm)) + self._left()
            if floor is not None:
                lo = max(lo, floor - self.won)
            if ceiling is not None:
                hi = min(hi, ceiling - self.won)
            gamma = (lo + hi + 1) // 2 if guess is None else min(max(guess - self.won, lo + 1), hi)
            step, last, bracketed = 1, 0, guess is None
            while lo < hi:
                g = play_out(
                    self.to_act, n, led, best, best_seat, pts, tm, gamma - 1, gamma, NO_CARD
                )
                self.solver.probes += 1
                way = 1 if g >= gamma else -1
                if way > 0:
                    lo = g
                else:
                    hi = g
                bracketed = bracketed or way == -last
                if bracketed:
                    gamma = (lo + hi + 1) // 2
                elif way > 0:
                    gamma = min(lo + step, hi)
                else:
                    gamma = max(hi - step + 1, lo + 1)
                step, last = 2 * step, way
            v = lo
        self.solver.nodes += nodes[0]
        return self.won + int(v)

    def legal(self) -> Mask:
        """The cards the seat to act may play (the engine's rule)."""
        solver = self.solver
        seat = self.to_act
        n, led, best, best_seat, _pts = self._first()
        hand = self.hands[seat]
        if n == 0:
            return hand
        partner = solver.seats == 4 and n >= 2 and best_seat == (seat + 2) % 4
        return legal_plays(hand, led, best, partner, solver.trump)

    def at_least(self, target: int) -> bool:
        """Whether side 0 ends with at least ``target`` of the points from here
        (those taken at the root included): one null-window search."""
        gamma = target - self.won
        if not self.tricks_left or gamma <= 0:
            return gamma <= 0
        play_out, _, nodes = self._build()
        n, led, best, best_seat, pts = self._first()
        tm = 0
        for c in self.trick:
            tm |= 1 << c
        g = play_out(self.to_act, n, led, best, best_seat, pts, tm, gamma - 1, gamma, NO_CARD)
        self.solver.probes += 1
        self.solver.nodes += nodes[0]
        return g >= gamma

    def position(self) -> tuple[object, ...]:
        """What the value from here (``won`` aside) depends on."""
        return (*self.hands, *self.down, self.to_act, *self.trick)

    def root_values(self) -> dict[Card, int]:
        """Each legal card's exact value: the card played, then null-window searches
        whose first guess is the position's own value when an earlier decision
        found it (the best card's value), else the best value so far."""
        solver = self.solver
        seat = self.to_act
        known = solver.known.get(self.position())
        pick = max if seat % 2 == 0 else min
        out: dict[Card, int] = {}
        for c in cards_in(self.legal()):
            child = _State(solver, *_after(solver, self.hands, self.down, seat, self.trick, c))
            guess = known if known is not None else pick(out.values()) if out else None
            # The position's value bounds each card's: no card is better for the
            # side to act than its best. A best card is then proved by the one
            # probe at the guess, where it took two.
            if known is None:
                out[c] = child.root_value(guess)
            elif seat % 2 == 0:
                out[c] = child.root_value(guess, ceiling=known)
            else:
                out[c] = child.root_value(guess, floor=known)
            solver.known[child.position()] = out[c] - child.won
        return out


def _after(
    solver: Solver, hands: Sequence[Mask], down: Sequence[Mask], seat: int,
    trick: Sequence[Card], c: Card,
) -> tuple[list[Mask], list[Mask], int, list[Card]]:
    """The position after ``seat`` plays ``c`` (outside the search)."""
    hands, down = list(hands), list(down)
    hands[seat] &= ~(1 << c)
    u = solver.under[c]
    if u != NO_CARD and down[seat] >> u & 1:
        down[seat] &= ~(1 << u)
        hands[seat] |= 1 << u
    return hands, down, (seat + 1) % solver.seats, [*trick, c]
