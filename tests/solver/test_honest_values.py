"""Honest values: each legal action judged from what the acting seat
could see, sampled the way the Hard bot samples; marks and accuracy on the loss."""

from __future__ import annotations

import random

import pytest

from engine.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    accuracy,
    action_key,
    honest_steps,
    honest_values,
    mark,
)
from engine.rules import VARIANTS
from engine.solvebench import normal_deal
from tests.ai.test_honesty import _positions, _redeal


@pytest.mark.parametrize("variant", VARIANTS)
def test_values_do_not_depend_on_cards_the_seat_cannot_see(variant: str) -> None:
    rng = random.Random(11)
    checked = 0
    for deal in _positions(variant, 8, seed=26):
        assert deal.to_act is not None
        twin = _redeal(deal, deal.to_act, rng)
        if twin is None:
            continue
        mine = honest_values(deal, random.Random(5), samples=6)
        assert honest_values(twin, random.Random(5), samples=6) == mine
        legal = {action_key(a) for a in deal.legal_actions() if a.type != "declare"}
        assert set(mine) == legal
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_decision_with_a_choice_is_valued_with_its_loss(variant: str) -> None:
    deal = normal_deal(variant, random.Random(4))
    record = deal.to_record()
    steps = list(honest_steps(record, seed=1))
    assert steps, "a deal has decisions with a choice"
    for step in steps:
        action = record.actions[step.step]
        assert action["seat"] == step.seat
        assert step.chosen in step.values and len(step.values) >= 2
        assert step.loss >= 0
        assert step.mark == mark(step.loss)
    # The same seed gives the same analysis.
    assert list(honest_steps(record, seed=1)) == steps


def test_marks_and_accuracy_follow_the_stated_thresholds() -> None:
    assert mark(0) is None and mark(INACCURACY - 0.1) is None
    assert mark(INACCURACY) == "inaccuracy" and mark(MISTAKE - 0.1) == "inaccuracy"
    assert mark(MISTAKE) == "mistake" and mark(BLUNDER) == "blunder" and mark(300) == "blunder"
    assert accuracy([]) is None
    assert accuracy([0, 0]) == 100
    assert accuracy([81, 500]) == 0
    assert accuracy([0, 40.5]) == 75


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_cards_honest_value_is_in_card_points_like_its_exact_value(variant: str) -> None:
    """A card's honest value is the card points its side holds at the end (the
    exact value's unit): never below what the side has won already, never above
    that plus every point still out and the last trick's 10. A bid's is in deal
    points (a failed contract scores 0, a capot more than 162)."""
    from engine.analysis import BID_UNIT, PLAY_UNIT
    from engine.cards import LAST_TRICK_BONUS, POINTS
    from engine.deal import PLAYING

    assert (BID_UNIT, PLAY_UNIT) == ("deal points", "card points")
    checked = 0
    for deal in _positions(variant, 24, seed=7):
        if deal.phase != PLAYING or deal.trump is None or deal.to_act is None:
            continue
        side = deal.to_act % 2
        won = deal.card_points[side]
        total = sum(int(p) for p in POINTS[deal.trump]) + LAST_TRICK_BONUS
        out = total - sum(deal.card_points)
        for value in honest_values(deal, random.Random(2), samples=4).values():
            assert won - 1e-9 <= value <= won + out + 1e-9
        checked += 1
    assert checked >= 3
