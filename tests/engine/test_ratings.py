"""Ratings (openskill wrapper), outside Django: literal cases and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ratings import (
    ARENA_WIN_RATES,
    BOT_RATINGS,
    MU0,
    PROVISIONAL_MATCHES,
    Skill,
    gap_for_win_rate,
    is_provisional,
    label,
    rate,
    win_probability,
)

skills = st.builds(Skill, st.floats(500, 2500), st.floats(40, 300))


def test_a_new_player_is_shown_level_with_the_normal_bot_and_provisional():
    new = Skill()
    assert new.mu == MU0 == BOT_RATINGS["belote"]["normal"] == BOT_RATINGS["open_blot"]["normal"]
    # One scale: the number shown is the skill estimate, the bots' numbers on it.
    assert new.shown == BOT_RATINGS["belote"]["normal"] == 1500
    assert label(new.shown, is_provisional(0)) == "1500?"
    assert is_provisional(0) and is_provisional(PROVISIONAL_MATCHES - 1)
    assert not is_provisional(PROVISIONAL_MATCHES)
    assert label(1612, False) == "1612"


@settings(max_examples=200, deadline=None)
@given(st.floats(500, 2500), st.sampled_from(["belote", "open_blot"]), st.sampled_from(
    ["easy", "normal", "hard"]))
def test_a_settled_player_shown_above_a_bot_is_expected_to_beat_it(mu, variant, level):
    # One scale: a settled person (narrow sigma) shown above a bot's published
    # number is the favourite against a settled player of the bot's strength.
    person, bot = Skill(mu, 20), Skill(BOT_RATINGS[variant][level], 20)
    if person.shown > bot.shown:
        assert win_probability([person], [bot]) > 0.5
    elif person.shown < bot.shown:
        assert win_probability([person], [bot]) < 0.5


def test_the_winner_gains_and_the_loser_loses_one_against_one():
    (a,), (b,) = rate([[Skill()], [Skill()]], winner=0)
    assert a.mu > MU0 > b.mu
    assert a.sigma < Skill().sigma and b.sigma < Skill().sigma


def test_two_against_two_moves_both_partners():
    after = rate([[Skill(), Skill()], [Skill(), Skill()]], winner=1)
    assert all(s.mu < MU0 for s in after[0])
    assert all(s.mu > MU0 for s in after[1])


def test_beating_a_stronger_side_gains_more_than_beating_a_weaker_one():
    up = rate([[Skill()], [Skill(1800, 100)]], winner=0)[0][0].mu - MU0
    down = rate([[Skill()], [Skill(1200, 100)]], winner=0)[0][0].mu - MU0
    assert up > down > 0


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        rate([[Skill()]], winner=0)
    with pytest.raises(ValueError):
        rate([[Skill()], [Skill()]], winner=2)


@settings(max_examples=200, deadline=None)
@given(skills, skills, st.sampled_from([0, 1]))
def test_winning_never_lowers_and_losing_never_raises_mu(a, b, winner):
    after = rate([[a], [b]], winner)
    before = [a, b]
    assert after[winner][0].mu >= before[winner].mu
    assert after[1 - winner][0].mu <= before[1 - winner].mu


@settings(max_examples=100, deadline=None)
@given(skills, skills)
def test_win_probabilities_are_complementary(a, b):
    p = win_probability([a], [b])
    assert 0 <= p <= 1
    assert p == pytest.approx(1 - win_probability([b], [a]), abs=1e-6)


def test_bot_ratings_reproduce_the_arenas_win_rates():
    for variant, rates in ARENA_WIN_RATES.items():
        bots = BOT_RATINGS[variant]
        assert bots["easy"] < bots["normal"] < bots["hard"]
        for (strong, weak), won in rates.items():
            p = win_probability([Skill(bots[strong], 1e-3)], [Skill(bots[weak], 1e-3)])
            assert p == pytest.approx(won, abs=0.005)


@given(st.floats(0.01, 0.99))
def test_the_gap_for_a_win_rate_inverts_the_models_prediction(share):
    gap = gap_for_win_rate(share)
    assert win_probability([Skill(MU0 + gap, 1e-3)], [Skill(MU0, 1e-3)]) == pytest.approx(
        share, abs=1e-4
    )
