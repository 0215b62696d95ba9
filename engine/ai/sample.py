"""Where the unseen cards may lie, and deals drawn consistent with it.

Built from an observation only. Hard constraints come from :mod:`engine.ai.view`
(voids, trumps a seat cannot hold, hand sizes, the proposed card in the taker's
hand); soft ones — per-card weights — from the bidding: a seat that passed the
proposed suit seldom holds its jack, a taker usually holds the jack or nine of
trump. A sample assigns every unseen card to a holder, most constrained card
first, each holder drawn with probability proportional to its weight for the
card times its free room, so likelier layouts are drawn more often (the samples
are then averaged with equal weight).

In a coinche deal the auction speaks too (:func:`auction_weights`,
:func:`auction_minimums`: a suit bidder is dealt enough of his suit), shown
announcement cards are placed with their holder, and a sample is redrawn (up to
:data:`HIDDEN_TRIES` times) until each seat holds the combinations it announced
whose cards are still hidden.

Open Blot hides only face-down cards, which the rules never constrain (duties
are about face-up cards), so there every layout of them is equally likely.
"""

from __future__ import annotations

import random

from engine.actions import BID, CHOOSE, COINCHE, PASS, TAKE
from engine.ai.auction import TRUMP_RANK_WEIGHT, AuctionState, Call, calls_of
from engine.ai.normal import greedy_declarations
from engine.ai.sim import NO_CARD, Sim
from engine.ai.view import Table
from engine.announcements import (
    Announcement,
    combinations,
    counted_points,
    kind_of,
    points_of,
    strength,
)
from engine.cards import (
    ALL_CARDS,
    ALL_TRUMP,
    NO_TRUMP,
    R9,
    RA,
    RJ,
    RK,
    RQ,
    RT,
    SUIT_MASKS,
    Card,
    Mask,
    mask_of,
)
from engine.cards import cards_in as _cards_in
from engine.declarations import Declaration
from engine.layout import BELOTE_PROPOSED_INDEX, belote_first_deal, coinche_deal, open_blot_layout
from engine.observe import Observation
from engine.rules import BELOTE, RuleSet

DECK = 4  # the holder index of Belote's undealt cards during bidding
#: Draws tried for a sample whose hands hold every hidden announced combination;
#: after that the last draw is used (merely plausible).
HIDDEN_TRIES = 12


def bid_weights(obs: Observation) -> list[list[float]]:
    """``w[seat][card]``: how much likelier than average the bidding makes it that
    ``seat`` holds ``card`` (Belote), reading the bids as a club player would."""
    w = [[1.0] * 32 for _ in range(4)]
    if obs.rules.coinche:
        return auction_weights(calls_of(obs.history))
    if obs.proposed is None:
        return w
    p = obs.proposed >> 3
    passes = 0
    for a in obs.history:
        if a.type == PASS:
            if passes < 4:
                w[a.seat][p * 8 + RJ] *= 0.35
                w[a.seat][p * 8 + R9] *= 0.7
            else:
                for s in range(4):
                    if s != p:
                        w[a.seat][s * 8 + RJ] *= 0.6
            passes += 1
        elif a.type in (TAKE, CHOOSE):
            t = p if a.type == TAKE else a.trump
            assert t is not None
            for r, f in ((RJ, 3.0), (R9, 2.0), (RA, 1.4), (RT, 1.3)):
                w[a.seat][t * 8 + r] *= f
            for r in range(8):
                w[a.seat][t * 8 + r] *= 1.2
    return w


def _opening(calls: list[Call], i: int) -> bool:
    """Whether bid ``i`` names a trump its partner had not bid before (not a raise)."""
    c = calls[i]
    partner = (c.seat + 2) % 4
    return not any(b.type == BID and b.seat == partner and b.trump == c.trump for b in calls[:i])


def auction_weights(calls: list[Call]) -> list[list[float]]:
    """``w[seat][card]`` read off a coinche auction (docs/rules.md §7.2): a bid in a
    suit shows its jack, nine and length, a raise shows side aces, a no-trump bid
    aces and tens, an all-trump bid jacks and nines; a coinche shows trumps and
    aces against the contract; a pass before any bid shows no strong suit."""
    w = [[1.0] * 32 for _ in range(4)]
    bid_seen = False
    for i, c in enumerate(calls):
        row = w[c.seat]
        if c.type == PASS and not bid_seen:
            for s in range(4):
                row[s * 8 + RJ] *= 0.8
                row[s * 8 + RA] *= 0.9
        elif c.type == BID and c.trump is not None:
            bid_seen = True
            t = c.trump
            if t == NO_TRUMP:
                for s in range(4):
                    row[s * 8 + RA] *= 2.0
                    row[s * 8 + RT] *= 1.3
            elif t == ALL_TRUMP:
                for s in range(4):
                    row[s * 8 + RJ] *= 2.5
                    row[s * 8 + R9] *= 1.6
            elif _opening(calls, i):
                for r in range(8):
                    row[t * 8 + r] *= TRUMP_RANK_WEIGHT[r]
            else:
                row[t * 8 + RJ] *= 1.5
                for s in range(4):
                    if s != t:
                        row[s * 8 + RA] *= 1.4
        elif c.type == COINCHE:
            high = AuctionState.of(calls[:i]).highest
            if high is not None and high.trump is not None and high.trump < NO_TRUMP:
                t = high.trump
                row[t * 8 + RJ] *= 2.0
                row[t * 8 + R9] *= 1.6
                for s in range(4):
                    if s != t:
                        row[s * 8 + RA] *= 1.4
            else:
                for s in range(4):
                    row[s * 8 + RA] *= 1.5
                    row[s * 8 + RJ] *= 1.5
    return w


def auction_minimums(calls: list[Call]) -> list[tuple[int, int, int]]:
    """Hard constraints a coinche auction puts on the samples: ``(seat, suit, n)``,
    the bidder of a suit (not a raise of his partner's) was dealt at least two of
    it, three from a bid of 110 on."""
    need: dict[tuple[int, int], int] = {}
    for i, c in enumerate(calls):
        if c.type != BID or c.trump is None or c.trump >= NO_TRUMP or c.value is None:
            continue
        if not _opening(calls, i):
            continue
        n = 3 if c.value >= 110 else 2
        key = (c.seat, c.trump)
        need[key] = max(need.get(key, 0), n)
    return [(seat, suit, n) for (seat, suit), n in sorted(need.items())]


def place_minimums(
    rng: random.Random,
    minimums: list[tuple[int, int, int]],
    unseen: Mask,
    held: list[Mask],
    room: list[int],
    allowed: list[Mask],
    weight: list[list[float]],
) -> list[Mask]:
    """Before the free draw: give each constrained seat enough cards of its suit
    (``held[seat]`` is what it is known to hold or to have played), drawn from the
    unseen cards it may hold, weighted. Updates ``room``; returns what was placed
    per seat (what cannot be met is left to the free draw)."""
    placed = [0] * len(room)
    for seat, suit, n in minimums:
        have = ((held[seat] | placed[seat]) & SUIT_MASKS[suit]).bit_count()
        pool = [c for c in _cards_in(unseen & allowed[seat] & SUIT_MASKS[suit])
                if not any(p >> c & 1 for p in placed)]
        while have < n and pool and room[seat] > 0:
            total = sum(weight[seat][c] for c in pool)
            x = rng.random() * total
            pick = pool[-1]
            for c in pool:
                x -= weight[seat][c]
                if x < 0:
                    pick = c
                    break
            pool.remove(pick)
            placed[seat] |= 1 << pick
            room[seat] -= 1
            have += 1
    return placed


def draw(
    rng: random.Random,
    cards: list[Card],
    room: list[int],
    allowed: list[Mask],
    weight: list[list[float]],
) -> list[Mask]:
    """Assign ``cards`` to holders (``room[h]`` cards each, only where ``allowed``),
    weighted by ``weight[h][card]``. Retries on a dead end; if the constraints still
    cannot be met, drops them (a sample is then merely plausible)."""
    holders = range(len(room))
    order = sorted(cards, key=lambda c: (sum(allowed[h] >> c & 1 for h in holders), c))
    for attempt in range(24):
        strict = attempt < 20
        left = room[:]
        out = [0] * len(room)
        for c in order:
            cand = [h for h in holders if left[h] and (not strict or allowed[h] >> c & 1)]
            if not cand:
                break
            total = sum(weight[h][c] * left[h] for h in cand)
            x = rng.random() * total
            pick = cand[-1]
            for h in cand:
                x -= weight[h][c] * left[h]
                if x < 0:
                    pick = h
                    break
            out[pick] |= 1 << c
            left[pick] -= 1
        else:
            return out
    raise AssertionError("room does not match the cards to place")  # pragma: no cover


class Sampler:
    """Draws complete deals consistent with one observation."""

    def __init__(self, obs: Observation, table: Table, rules: RuleSet) -> None:
        self.obs = obs
        self.table = table
        self.rules = rules
        self.seat = table.seat
        seen = table.played | table.mine
        if obs.proposed is not None:
            seen |= 1 << obs.proposed
        for m in table.face_up:
            seen |= m
        self.unseen = ALL_CARDS & ~seen
        self.weights = bid_weights(obs) if obs.variant == BELOTE else None
        #: Announcements of other seats whose cards are hidden: (kind, points) each.
        self.hidden: dict[int, list[tuple[str, int]]] = {}
        for d in obs.declarations:
            if d.seat != self.seat and not d.cards:
                self.hidden.setdefault(d.seat, []).append((d.kind, d.points))
        #: Coinche: how many cards of its suit each bidder must hold (not this seat).
        self.minimums = [
            m for m in auction_minimums(calls_of(obs.history)) if m[0] != self.seat
        ] if rules.coinche else []

    @property
    def certain(self) -> bool:
        """Nothing is hidden: one sample is the truth."""
        return self.unseen == 0

    # --- the play phase ------------------------------------------------------------------

    def sim(self, rng: random.Random) -> Sim:
        if self.obs.variant == BELOTE:
            return self._belote_sim(rng)
        return self._open_blot_sim(rng)

    def _belote_sim(self, rng: random.Random) -> Sim:
        obs, t = self.obs, self.table
        assert obs.taker is not None and obs.trump is not None
        known = [0] * 4
        known[self.seat] = t.mine
        if obs.proposed is not None and obs.taker != self.seat and not t.played >> obs.proposed & 1:
            known[obs.taker] |= 1 << obs.proposed
        for d in obs.declarations:  # an announcement's shown cards not yet played
            if d.seat != self.seat and d.cards:
                known[d.seat] |= mask_of(d.cards) & ~t.played
        placed_known = known[0] | known[1] | known[2] | known[3]
        possible = t.possible()
        allowed = [0] * 4
        for s in range(4):
            if s != self.seat:
                allowed[s] = possible[s] & ~placed_known
        assert self.weights is not None
        held = [known[s] | t.played_by[s] for s in range(4)]
        for _ in range(HIDDEN_TRIES):
            room = [0] * 4
            for s in range(4):
                if s != self.seat:
                    room[s] = obs.hand_sizes[s] - known[s].bit_count()
            unseen = self.unseen & ~placed_known
            placed = place_minimums(rng, self.minimums, unseen, held, room, allowed, self.weights)
            for m in placed:
                unseen &= ~m
            hands = draw(rng, list(_cards_in(unseen)), room, allowed, self.weights)
            for s in range(4):
                hands[s] |= known[s] | placed[s]
            if self._fits_hidden(hands):
                break
        holdings = [hands[s] | t.played_by[s] for s in range(4)]
        sides = belote_sides(holdings, obs.trump)
        bonus = _pair_holder(holdings, obs.trump) if obs.trump < NO_TRUMP else None
        contract = None
        if obs.contract is not None:
            contract = (int(obs.contract["value"]), int(obs.contract["multiplier"]))
        return Sim(
            self.rules, obs.trump, obs.taker, hands, t.seat if obs.to_act is None else obs.to_act,
            trick=t.trick[:], best=t.best, best_seat=t.best_seat,
            points=list(obs.card_points), tricks_won=list(obs.tricks_won), bonus_seat=bonus,
            contract=contract, announced=self._announced(hands, obs.trump),
            belote_sides=sides,
        )

    def _fits_hidden(self, hands: list[Mask]) -> bool:
        """Whether each seat's dealt hand in this sample holds the combinations it
        announced whose cards are not shown (their kind and points are public)."""
        for seat, needed in self.hidden.items():
            dealt = hands[seat] | self.table.played_by[seat]
            have = [(kind_of(m), points_of(m)) for m in combinations(dealt)]
            for need in needed:
                if need not in have:
                    return False
                have.remove(need)
        return True

    def _announced(self, hands: list[Mask], trump: int) -> tuple[int, int]:
        """Each side's counted announcement points in this sample: public once the
        first trick is over; during it, the announcements made so far plus every
        combination of the seats still to play to it (they announce all they hold)."""
        obs = self.obs
        if not self.rules.announcements:
            return (0, 0)
        if obs.counted_side is not None:
            points = [0, 0]
            for d in obs.declarations:
                if d.seat % 2 == obs.counted_side:
                    points[obs.counted_side] += d.points
            return points[0], points[1]
        if obs.tricks:
            return (0, 0)  # the first trick is over and neither side's count
        keys: list[tuple[int, tuple[int, ...], int]] = []
        for d in obs.declarations:
            if d.cards:
                key = strength(mask_of(d.cards), trump)
            else:  # its cards are not shown yet: judged by its points and kind
                key = (d.points, int(d.kind == "carre"), 0, 0)
            keys.append((d.seat % 2, key, d.points))
        acted = {s for s, _ in obs.trick} | {self.seat}
        for s in range(4):
            if s not in acted:
                for m in combinations(hands[s]):
                    keys.append((s % 2, strength(m, trump), points_of(m)))
        best: list[tuple[int, ...]] = [(), ()]
        for side, key, _ in keys:
            best[side] = max(best[side], key)
        if best[0] == best[1]:
            return (0, 0)
        side = 0 if best[0] > best[1] else 1
        total = sum(p for sd, _, p in keys if sd == side)
        return (total, 0) if side == 0 else (0, total)

    def _open_blot_sim(self, rng: random.Random) -> Sim:
        obs, t = self.obs, self.table
        assert obs.taker is not None and obs.trump is not None and obs.to_act is not None
        hidden = list(_cards_in(self.unseen))
        rng.shuffle(hidden)
        under = [NO_CARD] * 32
        holdings = [t.face_up[s] | t.played_by[s] for s in (0, 1)]
        k = 0
        for s, row in enumerate(obs.stacks):
            for top, down in row:
                if top is not None and down:
                    under[top] = hidden[k]
                    holdings[s] |= 1 << hidden[k]
                    k += 1
        assert k == len(hidden), "every unseen card lies under a face-up card in play"
        decls = [
            Declaration(d.seat, _mask(d.cards), i) for i, d in enumerate(obs.declarations)
        ]
        if not obs.tricks:
            # Whoever has not yet had his turn in the first trick will declare all he can.
            acted = {s for s, _ in obs.trick} | {self.seat}
            for s in (0, 1):
                if s not in acted:
                    for d in greedy_declarations(s, t.face_up[s], obs.trump):
                        decls.append(Declaration(s, d.cards, len(decls)))
        bonus = None if obs.trump == NO_TRUMP else _pair_holder(holdings, obs.trump)
        return Sim(
            self.rules, obs.trump, obs.taker, list(t.face_up), obs.to_act,
            trick=t.trick[:], best=t.best, best_seat=t.best_seat,
            points=list(obs.card_points), tricks_won=list(obs.tricks_won),
            under=under, decls=decls, bonus_seat=bonus,
        )

    # --- the bidding phase: whole decks ----------------------------------------------------

    def deck(self, rng: random.Random) -> list[Card]:
        """A deck order dealing exactly what this seat sees (bidding phase)."""
        if self.obs.variant == BELOTE:
            return self._belote_deck(rng)
        return self._open_blot_deck(rng)

    def _belote_deck(self, rng: random.Random) -> list[Card]:
        obs = self.obs
        assert self.weights is not None
        if self.rules.coinche:
            return self._coinche_deck(rng)
        assert obs.proposed is not None
        room = [5, 5, 5, 5, 32 - 21]
        room[self.seat] = 0
        allowed = [ALL_CARDS] * 5
        weights = [*self.weights, [1.0] * 32]
        held = draw(rng, list(_cards_in(self.unseen)), room, allowed, weights)
        held[self.seat] = self.table.mine
        piles = [list(_cards_in(m)) for m in held]
        rng.shuffle(piles[DECK])
        deck = [piles[s].pop() for s in belote_first_deal(obs.dealer)]
        deck.append(obs.proposed)
        deck.extend(piles[DECK])
        assert len(deck) == 32 and BELOTE_PROPOSED_INDEX == 20
        return deck

    def _coinche_deck(self, rng: random.Random) -> list[Card]:
        """A coinche deck (3-2-3, docs/rules.md §7.2) dealing this seat its hand and
        the others hands drawn with the auction's weights and minimums."""
        assert self.weights is not None
        room = [8, 8, 8, 8]
        room[self.seat] = 0
        allowed = [ALL_CARDS] * 4
        allowed[self.seat] = 0
        unseen = self.unseen
        placed = place_minimums(rng, self.minimums, unseen, [0] * 4, room, allowed, self.weights)
        for m in placed:
            unseen &= ~m
        held = draw(rng, list(_cards_in(unseen)), room, allowed, self.weights)
        for s in range(4):
            held[s] |= placed[s]
        held[self.seat] = self.table.mine
        piles = [list(_cards_in(m)) for m in held]
        return [piles[s].pop() for s in coinche_deal(self.obs.dealer)]

    def _open_blot_deck(self, rng: random.Random) -> list[Card]:
        obs = self.obs
        hidden = list(_cards_in(self.unseen))
        rng.shuffle(hidden)
        deck = []
        for seat, stack, face_up in open_blot_layout(obs.dealer):
            top = obs.stacks[seat][stack][0] if face_up else None
            deck.append(top if top is not None else hidden.pop())
        assert not hidden
        return deck


def announce_all(hands: list[Mask], first: int, trump: int) -> tuple[int, int]:
    """Each side's counted announcement points when every seat, from ``first`` on,
    announces every combination in its hand (docs/rules.md §7.1)."""
    made = [
        Announcement(s, m)
        for s in ((first + i) % 4 for i in range(4))
        for m in combinations(hands[s])
    ]
    return counted_points(made, trump) if made else (0, 0)


def _mask(cards: tuple[Card, ...]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def belote_sides(holdings: list[Mask], trump: int) -> tuple[int, ...]:
    """The side of each king-queen pair worth a belote under ``trump``: the trump
    suit's, every suit's in all-trump, none in no-trump (docs/rules.md §7.3)."""
    suits = range(4) if trump == ALL_TRUMP else () if trump == NO_TRUMP else (trump,)
    out = []
    for s in suits:
        seat = _pair_holder(holdings, s)
        if seat is not None:
            out.append(seat % 2)
    return tuple(out)


def _pair_holder(holdings: list[Mask], trump: int) -> int | None:
    """The seat dealt both king and queen of trump (belote / blot), if any."""
    pair = (1 << (trump * 8 + RK)) | (1 << (trump * 8 + RQ))
    for s, m in enumerate(holdings):
        if m & pair == pair:
            return s
    return None

