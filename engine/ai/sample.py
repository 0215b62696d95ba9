"""Where the unseen cards may lie, and deals drawn consistent with it.

Built from an observation only. Hard constraints come from :mod:`engine.ai.view`
(voids, trumps a seat cannot hold, hand sizes, the proposed card in the taker's
hand); soft ones — per-card weights — from the bidding: a seat that passed the
proposed suit seldom holds its jack, a taker usually holds the jack or nine of
trump. A sample assigns every unseen card to a holder, most constrained card
first, each holder drawn with probability proportional to its weight for the
card times its free room, so likelier layouts are drawn more often (the samples
are then averaged with equal weight).

Open Blot hides only face-down cards, which the rules never constrain (duties
are about face-up cards), so there every layout of them is equally likely.
"""

from __future__ import annotations

import random

from engine.actions import CHOOSE, PASS, TAKE
from engine.ai.normal import greedy_declarations
from engine.ai.sim import NO_CARD, Sim
from engine.ai.view import Table
from engine.cards import ALL_CARDS, NO_TRUMP, R9, RA, RJ, RK, RQ, RT, Card, Mask
from engine.cards import cards_in as _cards_in
from engine.declarations import Declaration
from engine.layout import BELOTE_PROPOSED_INDEX, belote_first_deal, open_blot_layout
from engine.observe import Observation
from engine.rules import BELOTE, RuleSet

DECK = 4  # the holder index of Belote's undealt cards during bidding


def bid_weights(obs: Observation) -> list[list[float]]:
    """``w[seat][card]``: how much likelier than average the bidding makes it that
    ``seat`` holds ``card`` (Belote), reading the bids as a club player would."""
    w = [[1.0] * 32 for _ in range(4)]
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
        assert obs.taker is not None and obs.trump is not None and obs.proposed is not None
        room = [0] * 4
        known = [0] * 4
        known[self.seat] = t.mine
        proposed_out = not t.played >> obs.proposed & 1
        if obs.taker != self.seat and proposed_out:
            known[obs.taker] |= 1 << obs.proposed
        possible = t.possible()
        allowed = [0] * 4
        for s in range(4):
            if s != self.seat:
                room[s] = obs.hand_sizes[s] - known[s].bit_count()
                allowed[s] = possible[s]
        assert self.weights is not None
        hands = draw(rng, list(_cards_in(self.unseen)), room, allowed, self.weights)
        for s in range(4):
            hands[s] |= known[s]
        bonus = _pair_holder([hands[s] | t.played_by[s] for s in range(4)], obs.trump)
        return Sim(
            self.rules, obs.trump, obs.taker, hands, t.seat if obs.to_act is None else obs.to_act,
            trick=t.trick[:], best=t.best, best_seat=t.best_seat,
            points=list(obs.card_points), tricks_won=list(obs.tricks_won), bonus_seat=bonus,
        )

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
        assert obs.proposed is not None and self.weights is not None
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


def _mask(cards: tuple[Card, ...]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _pair_holder(holdings: list[Mask], trump: int) -> int | None:
    """The seat dealt both king and queen of trump (belote / blot), if any."""
    pair = (1 << (trump * 8 + RK)) | (1 << (trump * 8 + RQ))
    for s, m in enumerate(holdings):
        if m & pair == pair:
            return s
    return None

