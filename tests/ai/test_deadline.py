"""The hard bot's budget is a deadline: the search asks its clock as it goes and
stops once the deadline has passed, whatever it was doing. Driven by an injected
clock that moves only when read, so nothing here depends on the machine's speed."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.ai import Deadline, WorkBudget, decide, normal
from engine.ai.budget import OutOfTime
from engine.ai.hard import MAX_SAMPLES, coinche_candidates, start_sim
from engine.ai.sim import CHECK_NODES, Sim, search
from engine.deal import Deal, new_deal
from engine.observe import Observation, observe
from engine.rules import VARIANTS, RuleSet
from engine.shuffle import shuffled_deck


class StepClock:
    """A clock that advances ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 100.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


class CountingBudget:
    """Never says stop, counts how often it was asked (and what was spent)."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.asked = 0
        self.spent = 0
        self.stop_after = stop_after

    def spend(self, units: int) -> None:
        self.spent += units

    def out(self) -> bool:
        self.asked += 1
        return self.stop_after is not None and self.asked > self.stop_after

    def enough(self, samples: int) -> bool:
        return samples >= MAX_SAMPLES


def _deal(variant: str, seed: int, cards_played: int) -> Deal:
    rng = random.Random(seed)
    rules = RuleSet.build(variant)
    while True:
        deal = new_deal(rules, 0, shuffled_deck(rng))
        while not deal.is_over and (
            deal.phase == "bidding" or 32 - deal.seats * len(deal.tricks) - len(deal.trick)
            > 32 - cards_played
        ):
            deal.apply(decide("normal", observe(deal, deal.to_act), rng))
        if not deal.is_over and len(deal.legal_actions()) >= 2:
            return deal


def _play_position(variant: str) -> Observation:
    deal = _deal(variant, 4, 4)
    return observe(deal, deal.to_act)


def _bid_position(variant: str) -> Observation:
    deal = new_deal(RuleSet.build(variant), 0, shuffled_deck(random.Random(8)))
    return observe(deal, deal.to_act)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("position", [_play_position, _bid_position])
def test_the_search_stops_when_its_next_look_at_the_clock_would_be_late(
    variant: str, position: Callable[[str], Observation]
) -> None:
    obs = position(variant)
    # 1 ms between looks at the clock, 29.5 ms of budget: at the 29th look (28.5 ms
    # or later) the next would come after the deadline.
    clock = StepClock(0.001)
    budget = Deadline(0.0295, clock=clock)
    action = decide("hard", obs, random.Random(1), budget=budget)
    assert action in obs.legal
    assert clock.reads == 1 + 29  # the deadline set, then 29 looks
    assert clock.now < budget.end


def test_a_long_wait_between_looks_makes_it_stop_that_much_earlier() -> None:
    times = iter([0.0, 0.030, 0.031, 0.032, 0.090, 0.091, 0.150])
    budget = Deadline(0.2, clock=lambda: next(times))
    # The 30 ms before the first look (the setup) is no gap between two looks.
    assert [budget.out() for _ in range(5)] == [False, False, False, False, False]
    # The longest gap was 59 ms: at 150 ms the next look might come at 209 ms.
    assert budget.out() is True


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("position", [_play_position, _bid_position])
def test_past_its_deadline_before_any_sample_it_plays_the_normal_bots_choice(
    variant: str, position: Callable[[str], Observation]
) -> None:
    obs = position(variant)
    clock = StepClock(1.0)  # every look at the clock is a second later
    action = decide("hard", obs, random.Random(1), budget=Deadline(0.5, clock=clock))
    assert action == normal.decide(obs)
    assert clock.reads == 2  # the deadline set, one look: no playout was run


def test_a_clock_that_never_moves_still_ends_at_the_sample_cap() -> None:
    obs = _play_position("open_blot")
    budget = CountingBudget()
    decide("hard", obs, random.Random(1), budget=budget)
    # One question before each legal action's playout, for every sample up to the cap.
    assert budget.asked == MAX_SAMPLES * len(obs.legal)


def _endgame_sim(variant: str) -> tuple[Sim, int]:
    # Belote: 12 cards left (3 tricks); Open Blot: 10 (5 tricks): exact search.
    deal = _deal(variant, 2, 20 if variant == "belote" else 22)
    sim = start_sim_at(deal)
    assert deal.to_act is not None
    return sim, deal.to_act % 2


def start_sim_at(deal: Deal) -> Sim:
    """The simulator of ``deal`` at its current position (played from the start)."""
    start = new_deal(deal.rules, deal.dealer, deal.deck)
    sim: Sim | None = None
    for a in deal.history:
        if sim is None and start.phase == "play":
            sim = start_sim(start)
        start.apply(a)
        if sim is not None and a.type == "play":
            sim.play(a.card)
    assert sim is not None
    return sim


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_exact_search_asks_its_budget_as_it_goes_and_stops_when_told(variant: str) -> None:
    sim, side = _endgame_sim(variant)
    exact, nodes = search(sim, side)
    counting = CountingBudget()
    assert search(sim, side, counting) == (exact, nodes)  # asking changes nothing
    assert counting.asked >= nodes // (3 * CHECK_NODES) > 0
    told = CountingBudget(stop_after=0)
    with pytest.raises(OutOfTime):
        search(sim, side, told)
    assert told.asked == 1


def test_a_work_budget_reads_no_clock() -> None:
    obs = _play_position("belote")
    picks = {decide("hard", obs, random.Random(5), budget=WorkBudget(0.01)) for _ in range(2)}
    assert len(picks) == 1
    assert WorkBudget(0.01).out() is False


COINCHE = RuleSet.build(
    "belote", {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True}
)


def _coinche_position(phase: str) -> Observation:
    rng = random.Random(6)
    while True:
        deal = new_deal(COINCHE, 0, shuffled_deck(rng))
        while not deal.is_over and deal.phase != phase:
            deal.apply(decide("normal", observe(deal, deal.to_act), rng))
        if deal.is_over or len(deal.legal_actions()) < 2:
            continue
        obs = observe(deal, deal.to_act)
        # A call is searched only when there is more than one worth sampling.
        if phase == "play" or len(coinche_candidates(obs, normal.decide(obs))) >= 2:
            return obs


@pytest.mark.parametrize("phase", ["bidding", "play"])
def test_in_coinche_too_the_search_keeps_to_its_deadline(phase: str) -> None:
    obs = _coinche_position(phase)
    clock = StepClock(0.001)
    budget = Deadline(0.0295, clock=clock)
    action = decide("hard", obs, random.Random(1), budget=budget)
    assert action in obs.legal
    assert clock.reads == 1 + 29
    late = StepClock(1.0)
    assert decide("hard", obs, random.Random(1), budget=Deadline(0.5, clock=late)) == (
        normal.decide(obs)
    )
    assert late.reads == 2
