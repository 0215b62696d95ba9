"""A lean card-play simulator for the hard bot: one determinized deal, as masks.

Only the play phase is simulated; legality and trick winners come from
:mod:`engine.tricks` (the engine's single legality function) and the deal is
scored by :mod:`engine.scoring`, so the simulator cannot drift from the rules.
It is a few times faster than :class:`engine.deal.Deal` because it keeps no
history, emits no events and copies cheaply, which is what playouts and the
endgame search need. ``tests/ai`` checks it against the engine move by move.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.budget import Budget, OutOfTime
from engine.ai.policy import PlayCtx, choose_card, low_bit
from engine.cards import LAST_TRICK_BONUS, POINTS, Card, Mask, cards_in
from engine.declarations import Declaration, grow
from engine.rules import RuleSet
from engine.scoring import score_belote, score_coinche, score_open_blot
from engine.tricks import TAKES, legal_plays

NO_CARD = -1
_NO_UNDER: tuple[int, ...] = (NO_CARD,) * 32
#: In a sampled deal every hand is known, so no seat needs inferred voids; the
#: policy only reads them (a list because PlayCtx types it so).
_NO_VOIDS: list[int] = [0, 0, 0, 0]


class Sim:
    """The play phase of one fully known deal. ``hands[s]`` is what seat ``s`` may
    play from (Open Blot: face-up unplayed cards); ``under[c]`` the face-down card
    turned up when ``c`` is played (Open Blot)."""

    __slots__ = (
        "announced",
        "belote_sides",
        "best",
        "best_seat",
        "bonus_seat",
        "contract",
        "decl_seats",
        "decls",
        "hands",
        "leader",
        "points",
        "rules",
        "seats",
        "taker",
        "to_act",
        "trick",
        "tricks_left",
        "tricks_won",
        "trump",
        "under",
        "units",
    )

    def __init__(
        self,
        rules: RuleSet,
        trump: int,
        taker: int,
        hands: list[Mask],
        to_act: int,
        *,
        trick: list[Card] | None = None,
        best: Card = -1,
        best_seat: int = -1,
        points: list[int] | None = None,
        tricks_won: list[int] | None = None,
        under: tuple[int, ...] | list[int] = _NO_UNDER,
        decls: list[Declaration] | None = None,
        bonus_seat: int | None = None,
        contract: tuple[int, int] | None = None,
        announced: tuple[int, int] = (0, 0),
        belote_sides: tuple[int, ...] | None = None,
    ) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.trump = trump
        self.taker = taker
        self.hands = hands
        self.to_act = to_act
        self.trick = trick or []
        self.leader = (to_act - len(self.trick)) % self.seats
        self.best = best
        self.best_seat = best_seat
        self.points = points or [0, 0]
        self.tricks_won = tricks_won or [0, 0]
        self.under = tuple(under)
        self.decls = decls or []
        #: Seats with a declaration (a bit each): only their runs may grow.
        self.decl_seats = sum(1 << d.seat for d in self.decls)
        self.bonus_seat = bonus_seat
        #: Belote: a coinche contract's (value, multiplier), or None in classic
        #: bidding; each side's counted announcement points; the side of each
        #: king-queen pair worth a belote (default: the bonus seat's side).
        self.contract = contract
        self.announced = announced
        if belote_sides is None:
            belote_sides = () if bonus_seat is None else (bonus_seat % 2,)
        self.belote_sides = belote_sides
        left = sum(h.bit_count() for h in hands) + sum(1 for u in self.under if u != NO_CARD)
        self.tricks_left = (left + len(self.trick)) // self.seats
        #: Work done (cards played): what a fixed work budget counts.
        self.units = 0

    def copy(self) -> Sim:
        # Spelled out rather than looped over __slots__: playouts and the search
        # copy hundreds of thousands of times per decision.
        twin = object.__new__(Sim)
        twin.announced = self.announced
        twin.belote_sides = self.belote_sides
        twin.contract = self.contract
        twin.best = self.best
        twin.best_seat = self.best_seat
        twin.bonus_seat = self.bonus_seat
        twin.decl_seats = self.decl_seats
        twin.decls = self.decls[:]
        twin.hands = self.hands[:]
        twin.leader = self.leader
        twin.points = self.points[:]
        twin.rules = self.rules
        twin.seats = self.seats
        twin.taker = self.taker
        twin.to_act = self.to_act
        twin.trick = self.trick[:]
        twin.tricks_left = self.tricks_left
        twin.tricks_won = self.tricks_won[:]
        twin.trump = self.trump
        twin.under = self.under
        twin.units = 0
        return twin

    @property
    def over(self) -> bool:
        return self.tricks_left == 0

    def cards_left(self) -> int:
        return self.tricks_left * self.seats - len(self.trick)

    def legal(self) -> Mask:
        seat = self.to_act
        trick = self.trick
        if not trick:
            return self.hands[seat]
        partner = self.seats == 4 and len(trick) >= 2 and self.best_seat == (seat + 2) % 4
        return legal_plays(self.hands[seat], trick[0], self.best, partner, self.trump)

    def play(self, c: Card) -> None:
        # The hot path of every playout and search node: locals, table look-ups
        # (the engine's own rules, tabulated: TAKES is engine.tricks.beats).
        seat = self.to_act
        self.units += 1
        hand = self.hands[seat] & ~(1 << c)
        turned = self.under[c]
        if turned >= 0:
            hand |= 1 << turned
            self.hands[seat] = hand
            if self.decl_seats >> seat & 1:
                grow(self.decls, seat, turned, hand)
        else:
            self.hands[seat] = hand
        trick = self.trick
        if not trick:
            self.leader = seat
            self.best = c
            self.best_seat = seat
        elif TAKES[self.trump][self.best] >> c & 1:
            self.best = c
            self.best_seat = seat
        trick.append(c)
        if len(trick) < self.seats:
            self.to_act = (seat + 1) % self.seats
            return
        table = POINTS[self.trump]
        winner = self.best_seat
        side = winner & 1
        won = 0
        for x in trick:
            won += table[x]
        self.tricks_won[side] += 1
        self.tricks_left -= 1
        if not self.tricks_left:
            won += LAST_TRICK_BONUS
        self.points[side] += won
        self.trick = []
        self.to_act = self.leader = winner
        self.best = self.best_seat = -1

    def deal_points(self) -> tuple[int, ...]:
        """The finished deal's points per side, scored by the engine's rules."""
        if self.seats == 4 and self.contract is not None:
            result = score_coinche(
                rules=self.rules, trump=self.trump, taker=self.taker, value=self.contract[0],
                multiplier=self.contract[1], tricks=(), card_points=tuple(self.points),
                tricks_won=tuple(self.tricks_won), belote_sides=self.belote_sides,
                announced=self.announced,
            )
        elif self.seats == 4:
            result = score_belote(
                rules=self.rules, trump=self.trump, taker=self.taker, tricks=(),
                card_points=tuple(self.points), tricks_won=tuple(self.tricks_won),
                belote_side=self.belote_sides[0] if self.belote_sides else None,
                announced=self.announced,
            )
        else:
            result = score_open_blot(
                rules=self.rules, trump=self.trump, taker=self.taker, tricks=(),
                card_points=tuple(self.points), declarations=self.decls,
                blot_seat=self.bonus_seat,
            )
        assert result.deal_points is not None
        return result.deal_points

    def value(self, side: int) -> float:
        p = self.deal_points()
        return float(p[side] - p[1 - side])

    # --- the default policy and the exact search ------------------------------------------

    def policy_card(self) -> Card:
        """The normal bot's card for the seat to act, seeing only its own cards and
        (as in any determinization) the sampled hands of the others."""
        seat = self.to_act
        legal = self.legal()
        if not legal & (legal - 1):  # one card: nothing to choose (the policy agrees)
            return low_bit(legal)
        return choose_card(
            PlayCtx(
                seat, self.seats, self.trump, self.taker, legal, self.hands[seat],
                self.trick, self.leader, self.best, self.best_seat, self.hands, True,
                _NO_VOIDS,
            )
        )

    def playout(self) -> None:
        while self.tricks_left:
            self.play(self.policy_card())

    def random_playout(self, rnd: Callable[[], float]) -> None:
        """Play to the end, each card drawn uniformly from the legal ones (``rnd()``
        in [0, 1) picks the n-th)."""
        while self.tricks_left:
            legal = self.legal()
            for _ in range(int(rnd() * legal.bit_count())):
                legal &= legal - 1
            self.play((legal & -legal).bit_length() - 1)


def rollout_value(sim: Sim, side: int) -> tuple[float, int]:
    """Play ``sim`` (a copy is used) to the end with the default policy."""
    s = sim.copy()
    s.playout()
    return s.value(side), s.units


#: An exact search asks its budget whether to stop once per this many nodes.
CHECK_NODES = 32


def search(sim: Sim, side: int, budget: Budget | None = None) -> tuple[float, int]:
    """Exact minimax (alpha-beta) value of ``sim`` for ``side``, and nodes visited.
    With a ``budget``, raises :class:`~engine.ai.budget.OutOfTime` as soon as it
    says stop (checked every :data:`CHECK_NODES` nodes)."""
    nodes = [0, CHECK_NODES]
    value = _alphabeta(sim, side, -1e9, 1e9, nodes, budget)
    return value, nodes[0]


def _alphabeta(
    sim: Sim, side: int, alpha: float, beta: float, nodes: list[int], budget: Budget | None
) -> float:
    if not sim.tricks_left:
        nodes[0] += 2  # scoring a leaf costs about two card plays
        return sim.value(side)
    if budget is not None:
        nodes[1] -= 1
        if not nodes[1]:
            nodes[1] = CHECK_NODES
            if budget.out():
                raise OutOfTime
    legal = sim.legal()
    maximizing = sim.to_act % 2 == side
    # Try the policy's card first: it is usually best, which makes the cuts early.
    first = sim.policy_card()
    order = [first] + [c for c in cards_in(legal) if c != first]
    best = -1e9 if maximizing else 1e9
    for c in order:
        child = sim.copy()
        child.play(c)
        nodes[0] += 1
        v = _alphabeta(child, side, alpha, beta, nodes, budget)
        if maximizing:
            if v > best:
                best = v
            alpha = max(alpha, v)
        else:
            if v < best:
                best = v
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best
