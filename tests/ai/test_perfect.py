"""The arena's perfect-information player: its double-dummy values equal a brute-force
minimax on random endings of both variants, and it plays a legal card every time."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import decide
from engine.ai.sim import Sim
from engine.cards import cards_in
from engine.deal import Deal, new_deal
from engine.observe import observe
from engine.perfect import DoubleDummy, PerfectPlayer, sim_now
from engine.rules import VARIANTS, RuleSet
from engine.shuffle import shuffled_deck


def _brute_force(sim: Sim) -> int:
    """Side 0's final card points with both sides playing perfectly: plain minimax."""
    if sim.over:
        return sim.points[0]
    values = []
    for c in cards_in(sim.legal()):
        child = sim.copy()
        child.play(c)
        values.append(_brute_force(child))
    return max(values) if sim.to_act % 2 == 0 else min(values)


def _deal_with_cards_left(variant: str, seed: int, cards_left: int) -> Deal | None:
    """A deal of ``variant`` played by the normal bot (random cards now and then)
    until ``cards_left`` cards are still to be played."""
    rng = random.Random(seed)
    rules = RuleSet.build(variant)
    deal = new_deal(rules, rng.randrange(rules.seats), shuffled_deck(rng))
    while not deal.is_over:
        if deal.phase == "play" and 32 - sum(len(t[1]) for t in deal.tricks) - len(
            deal.trick
        ) <= cards_left:
            return deal
        legal = deal.legal_actions()
        if deal.phase == "play" and rng.random() < 0.3:
            deal.apply(rng.choice(legal))
        else:
            deal.apply(decide("normal", observe(deal, deal.to_act), rng))
    return None


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards_left=st.sampled_from([4, 6, 8, 9, 10, 12, 13]))
def test_double_dummy_values_equal_brute_force_minimax_on_endings(
    variant: str, seed: int, cards_left: int
) -> None:
    if variant == "belote":
        cards_left = min(cards_left, 12)  # up to three tricks of four cards
    deal = _deal_with_cards_left(variant, seed, cards_left)
    if deal is None:
        return  # everybody passed
    sim = sim_now(deal)
    side = sim.to_act % 2
    solver = DoubleDummy(sim.seats, sim.trump, sim.under)
    values = solver.card_values(sim)
    for c, value in values.items():
        child = sim.copy()
        child.play(c)
        exact = _brute_force(child)  # side 0's final points
        mine = exact if side == 0 else 162 - exact
        assert value == mine, c
    best = solver.best_card(sim)
    assert values[best] == max(values.values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_perfect_player_plays_a_whole_deal_legally(variant: str) -> None:
    rng = random.Random(3)
    rules = RuleSet.build(variant)
    deal = new_deal(rules, 0, shuffled_deck(rng))
    player = PerfectPlayer()
    while not deal.is_over:
        seat = deal.to_act
        if seat % 2 == 0:
            deal.apply(player.decide(deal))  # a legal action, or apply raises
        else:
            deal.apply(decide("normal", observe(deal, seat), rng))
    assert deal.result() is not None
