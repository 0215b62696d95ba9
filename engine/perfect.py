"""The arena's perfect-information player: it cheats, seeing every card.

Its card play ends in the exact double-dummy search of the analysis
(:class:`engine.solver.search.Solver`; :class:`DoubleDummy` only puts the
simulator's position into the solver's terms), so there is one exact solver and
no second rule book; ``tests/ai/test_perfect.py`` checks the values against a
plain minimax on random endings of both variants. The value is card points;
declarations, belote and the contract are scored by the engine on the line
played.

A whole deal's solve costs seconds of CPU in Belote and tens of seconds in Open
Blot here, too much for hundreds of arena deals, so :class:`PerfectPlayer`
searches exactly only once :data:`EXACT_CARDS` are left and, before that and for
the bidding, plays each option out on the real deal (see its docstring): the
arena's "perfect" is exact in the endgame and a perfect-information lookahead
before it.
"""

from __future__ import annotations

from engine.actions import DECLARE, PLAY, PLAY_ACTIONS, Action
from engine.ai import normal
from engine.ai.hard import coinche_candidates, finish_bidding, start_sim
from engine.ai.sim import NO_CARD, Sim
from engine.cards import Card, Mask, cards_in
from engine.deal import Deal, new_deal
from engine.observe import observe
from engine.solver.search import Solver


class DoubleDummy:
    """Exact card-point values of one fully known deal's play, asked of the
    simulator's positions. ``under[c]`` is the card turned up when ``c`` is played
    (Open Blot), else ``NO_CARD``. The solver's table is kept between calls, so
    solving every position of the same deal costs little more than the first."""

    def __init__(self, seats: int, trump: int, under: tuple[int, ...]) -> None:
        self.under = under
        self.solver = Solver(seats, trump, under)

    def _position(self, sim: Sim) -> tuple[list[Mask], list[Mask], int, list[Card]]:
        """The solver's view of ``sim``: playable cards, face-down cards (those
        under a playable card), the seat to act and the trick in progress."""
        down = []
        for hand in sim.hands:
            d = 0
            for c in cards_in(hand):
                if self.under[c] != NO_CARD:
                    d |= 1 << self.under[c]
            down.append(d)
        return list(sim.hands), down, sim.to_act, list(sim.trick)

    def card_values(self, sim: Sim) -> dict[Card, int]:
        """For each legal card of the seat to act in ``sim``: the card points its side
        ends the deal with (those already won included) when all play perfectly."""
        side = sim.to_act % 2
        hands, down, to_act, trick = self._position(sim)
        values = self.solver.values(hands, down, to_act, trick)
        if side == 0:
            return {c: sim.points[0] + v for c, v in values.items()}
        left = self.solver.points_left(hands, down, trick)
        return {c: sim.points[1] + left - v for c, v in values.items()}

    def best_card(self, sim: Sim) -> Card:
        """A card of greatest :meth:`card_values` (the lowest such card index)."""
        hands, down, to_act, trick = self._position(sim)
        return self.solver.best_card(hands, down, to_act, trick)


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
        if deal.rules.coinche:
            # A coinche auction offers some sixty bids: weigh the hard bot's few
            # candidates (the normal call, pass, coinche or surcoinche, the best
            # trump's bids around the hand's value) instead.
            obs = observe(deal, seat)
            legal = coinche_candidates(obs, normal.decide(obs))
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
