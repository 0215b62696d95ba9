"""The arena's perfect-information player: it cheats, seeing every card.

Its card play ends in an exact double-dummy search (:class:`DoubleDummy`):
alpha-beta on the card points still to be won (tricks and the last trick's ten),
run as null-window tests (MTD(f)), with a transposition table at every trick's
lead keyed on the cards each seat still holds (bounds, and the card that was best
there, tried first next time), and cards equivalent in the play (same hand, same
suit, same points, no card of another seat or the trick's winning card between
them in the trick order) tried once. Legality and trick winners are the engine's
(:func:`engine.tricks.legal_plays`, :data:`engine.tricks.TAKES`), so this is no
second rule book; ``tests/ai/test_perfect.py`` checks the values against a plain
minimax on random endings of both variants. The value is card points, the
quantity the analysis' exact solver computes; declarations, belote and the
contract are scored by the engine on the line played.

A whole deal's solve costs seconds of CPU in Belote and tens of seconds in Open
Blot here, too much for hundreds of arena deals, so :class:`PerfectPlayer`
searches exactly only once :data:`EXACT_CARDS` are left and, before that and for
the bidding, plays each option out on the real deal (see its docstring): the
arena's "perfect" is exact in the endgame and a perfect-information lookahead
before it. The analysis' full solver (``engine/solver``) can replace
:class:`DoubleDummy` here, and raise :data:`EXACT_CARDS` to the whole deal, if it
is fast enough: both compute the same exact card-point values.
"""

from __future__ import annotations

from engine.actions import DECLARE, PLAY, PLAY_ACTIONS, Action
from engine.ai.hard import finish_bidding, start_sim
from engine.ai.sim import NO_CARD, Sim
from engine.cards import LAST_TRICK_BONUS, POINTS, STRENGTH, SUIT_MASKS, Card, Mask
from engine.deal import Deal, new_deal
from engine.tricks import TAKES, legal_plays

_INF = 1 << 20


class DoubleDummy:
    """Exact card-point values of one fully known deal's play. ``hands[s]`` is what
    seat ``s`` may play from; ``under[c]`` the card turned up when ``c`` is played
    (Open Blot), else ``NO_CARD``. The table is kept between calls, so solving
    every position of the same deal costs little more than solving the first."""

    def __init__(self, seats: int, trump: int, under: tuple[int, ...]) -> None:
        self.seats = seats
        self.trump = trump
        self.under = under
        self.points = POINTS[trump]
        self.strength = STRENGTH[trump]
        self.takes = TAKES[trump]
        #: (hands, leader) at a trick's lead → (lower, upper) bounds on side 0's points.
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        #: The card that was best (or cut) at a trick's lead, tried first next time.
        self.moves: dict[tuple[int, ...], Card] = {}
        self.nodes = 0

    # --- the public questions -------------------------------------------------------------

    def card_values(self, sim: Sim) -> dict[Card, int]:
        """For each legal card of the seat to act in ``sim``: the card points its side
        ends the deal with (those already won included) when all play perfectly."""
        side = sim.to_act % 2
        out = {}
        for c in _cards(sim.legal()):
            child = sim.copy()
            child.play(c)
            out[c] = child.points[side] + self.rest(child, side)
        return out

    def best_card(self, sim: Sim) -> Card:
        """A card of greatest :meth:`card_values` (the lowest such card index), found
        with null-window tests: each card after the first is only searched exactly
        if it can beat the best so far."""
        side = sim.to_act % 2
        best_card, best = -1, -1
        for c in sorted(_cards(sim.legal())):
            child = sim.copy()
            child.play(c)
            base = child.points[side]
            if best_card >= 0 and not self.rest_above(child, side, best - base):
                continue
            best_card, best = c, base + self.rest(child, side)
        return best_card

    def rest(self, sim: Sim, side: int) -> int:
        """Points ``side`` wins from here on (the trick in progress included)."""
        lower, upper, guess = 0, self._left(sim), -1
        while lower < upper:  # MTD(f): null-window tests until the bounds meet
            beta = max(guess, lower + 1)
            guess = self._search(sim, beta - 1, beta)
            if guess < beta:
                upper = guess
            else:
                lower = guess
        return lower if side == 0 else self._left(sim) - lower

    def rest_above(self, sim: Sim, side: int, target: int) -> bool:
        """Whether ``side`` wins more than ``target`` points from here on."""
        left = self._left(sim)
        if side == 0:
            return self._search(sim, target, target + 1) > target
        # side 1 wins more than target ⇔ side 0 wins fewer than left - target
        bound = left - target
        return self._search(sim, bound - 1, bound) < bound

    # --- the search -------------------------------------------------------------------------

    def _left(self, sim: Sim) -> int:
        """The points still to be won from ``sim``'s position, the trick in progress
        and the last trick's ten included."""
        if not sim.tricks_left:
            return 0
        total = LAST_TRICK_BONUS
        for h in sim.hands:
            for c in _cards(h):
                total += self.points[c]
                u = self.under[c]
                if u != NO_CARD:
                    total += self.points[u]
        for c in sim.trick:
            total += self.points[c]
        return total

    def _search(self, sim: Sim, alpha: int, beta: int) -> int:
        """Side 0's points from ``sim``'s position on, fail-soft in (alpha, beta)."""
        if not sim.tricks_left:
            return 0
        hands = list(sim.hands)
        left = self._left(sim)
        if not sim.trick:
            return self._lead(hands, sim.to_act, sim.tricks_left, left, alpha, beta)
        won = sum(self.points[c] for c in sim.trick)
        return self._follow(
            hands, len(sim.trick), sim.to_act, sim.trick[0], sim.best, sim.best_seat, won,
            sim.tricks_left, left - won, alpha, beta,
        )

    def _lead(
        self, hands: list[Mask], leader: int, tricks_left: int, left: int, alpha: int, beta: int
    ) -> int:
        """Side 0's points from the ``tricks_left`` tricks (``left`` points), ``leader``
        to lead, fail-soft in (alpha, beta)."""
        if not tricks_left:
            return 0
        key = (*hands, leader)
        lo, hi = self.table.get(key, (0, left))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        a, b = max(alpha, lo), min(beta, hi)
        v = self._follow(hands, 0, leader, -1, -1, -1, 0, tricks_left, left, a, b, key)
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        self.table[key] = (lo, hi)
        return v

    def _follow(
        self, hands: list[Mask], pos: int, seat: int, led: int, best: int, best_seat: int,
        won: int, tricks_left: int, left: int, alpha: int, beta: int,
        key: tuple[int, ...] | None = None,
    ) -> int:
        """Side 0's points from here, ``pos`` cards already in the trick (``won``
        points in it, ``left`` points in the cards still to play)."""
        self.nodes += 1
        seats = self.seats
        hand = hands[seat]
        if pos == 0:
            legal = hand
        else:
            partner = seats == 4 and pos >= 2 and best_seat == seat ^ 2
            legal = legal_plays(hand, led, best, partner, self.trump)
        maximizing = seat % 2 == 0
        value = -_INF if maximizing else _INF
        last = pos == seats - 1
        points = self.points
        order = self._ordered(legal, hands, seat, best, best_seat, pos)
        if key is not None:
            first = self.moves.get(key, -1)
            if first in order:
                order.remove(first)
                order.insert(0, first)
        chosen = -1
        for c in order:
            u = self.under[c]
            hands[seat] = hand & ~(1 << c) | (0 if u == NO_CARD else 1 << u)
            if pos == 0 or self.takes[best] >> c & 1:
                nbest, nseat = c, seat
            else:
                nbest, nseat = best, best_seat
            nwon = won + points[c]
            if last:
                rest = left - points[c]
                if tricks_left == 1:
                    nwon += LAST_TRICK_BONUS
                    rest -= LAST_TRICK_BONUS
                mine = nwon if nseat % 2 == 0 else 0
                v = mine + self._lead(
                    hands, nseat, tricks_left - 1, rest, alpha - mine, beta - mine
                )
            else:
                v = self._follow(
                    hands, pos + 1, (seat + 1) % seats, c if pos == 0 else led, nbest, nseat,
                    nwon, tricks_left, left - points[c], alpha, beta,
                )
            hands[seat] = hand
            if maximizing:
                if v > value:
                    value, chosen = v, c
                    if v > alpha:
                        alpha = v
            elif v < value:
                value, chosen = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            self.moves[key] = chosen
        return value

    def _ordered(
        self, legal: Mask, hands: list[Mask], seat: int, best: int, best_seat: int, pos: int
    ) -> list[Card]:
        """The legal cards worth trying, likeliest best first: one of each run of
        equivalent cards; winners (or, when the side is winning, points) first."""
        strength, points, under = self.strength, self.points, self.under
        # The card winning the trick counts as another seat's: beating it or not
        # is what tells two cards apart.
        others = 0 if best < 0 else 1 << best
        for s, h in enumerate(hands):
            if s != seat:
                others |= h
            for c in _cards(h):  # face-down cards still to come up (Open Blot)
                if under[c] != NO_CARD:
                    others |= 1 << under[c]
        cards: list[Card] = []
        for suit in range(4):
            mine = legal & SUIT_MASKS[suit]
            if not mine:
                continue
            in_suit = sorted(_cards(mine), key=strength.__getitem__)
            theirs = others & SUIT_MASKS[suit]
            prev = -1
            for c in in_suit:
                if (
                    prev >= 0
                    and points[c] == points[prev]
                    and under[c] == under[prev] == NO_CARD
                    and not any(
                        strength[prev] < strength[o] < strength[c] for o in _cards(theirs)
                    )
                ):
                    prev = c
                    continue  # equivalent to the one kept
                cards.append(c)
                prev = c
        if pos == 0:
            return sorted(cards, key=lambda c: -strength[c])
        ours = best_seat % 2 == seat % 2
        takes = self.takes[best]

        def key(c: Card) -> tuple[int, int]:
            if takes >> c & 1:
                return (0, strength[c] - 10 * points[c])
            return (1, -points[c] if ours else points[c])

        return sorted(cards, key=key)


def _cards(m: Mask) -> list[Card]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


# --- the arena player ---------------------------------------------------------------------


def sim_now(deal: Deal) -> Sim:
    """The simulator of ``deal``'s play at its current position, with every card
    known (replayed from the start of play; the deal must be in its play phase)."""
    replay = new_deal(deal.rules, deal.dealer, deal.deck)
    sim: Sim | None = None
    for action in deal.history:
        if sim is None and replay.phase == "play":
            sim = start_sim(replay)
        replay.apply(action)
        if sim is not None and action.type == PLAY:
            sim.play(action.card)  # type: ignore[arg-type]
    if sim is None:
        sim = start_sim(replay)
    assert sim is not None
    return sim


#: The perfect player searches exactly once at most this many cards are left to
#: play (all seats): five tricks of Belote, nine of Open Blot, each a solve of about
#: 0.05 s of CPU here (a whole deal: 1-2 s in Belote, 15-40 s in Open Blot).
EXACT_CARDS = {4: 20, 2: 18}


class PerfectPlayer:
    """Decides for one side of one deal, with that deal in hand: the search table is
    shared by the side's decisions (one per trump).

    With few enough cards left (:data:`EXACT_CARDS`) it plays the double-dummy best
    card. Before that, and for the bidding, it plays out every legal option to the
    end on the real deal, all seats playing the normal bot's card play seeing every
    card (so, once the exact search takes over, perfectly), and takes the option
    whose line scores the most deal points for its side (the engine's scoring).
    """

    def __init__(self) -> None:
        self._solvers: dict[tuple[int, ...], DoubleDummy] = {}

    def _solver(self, sim: Sim) -> DoubleDummy:
        key = (sim.trump, *sim.under)
        if key not in self._solvers:
            self._solvers[key] = DoubleDummy(sim.seats, sim.trump, sim.under)
        return self._solvers[key]

    def decide(self, deal: Deal) -> Action:
        legal = deal.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = deal.to_act
        assert seat is not None
        side = seat % 2
        if deal.phase == "play":
            for a in legal:
                if a.type == DECLARE:
                    return a  # like the hard bot: declare everything
            sim = sim_now(deal)
            if sim.cards_left() <= EXACT_CARDS[sim.seats]:
                return PLAY_ACTIONS[seat][self._solver(sim).best_card(sim)]
            plays = [a for a in legal if a.type == PLAY]
            values = []
            for a in plays:
                child = sim.copy()
                child.play(a.card)  # type: ignore[arg-type]
                values.append(self.line_value(child, side))
            return plays[values.index(max(values))]
        values = []
        for a in legal:
            d = deal.clone()
            d.apply(a)
            finish_bidding(d)
            start = start_sim(d)
            values.append(0.0 if start is None else self.line_value(start, side))
        return legal[values.index(max(values))]

    def line_value(self, sim: Sim, side: int) -> float:
        """``side``'s deal-point margin, scored by the engine, at the end of the line
        where every seat plays the normal bot's card seeing every card until
        :data:`EXACT_CARDS` are left, then the double-dummy best card."""
        line = sim.copy()
        exact = EXACT_CARDS[sim.seats]
        while line.tricks_left and line.cards_left() > exact:
            line.play(line.policy_card())
        if line.tricks_left:
            solver = self._solver(line)
            while line.tricks_left:
                line.play(solver.best_card(line))
        return line.value(side)
