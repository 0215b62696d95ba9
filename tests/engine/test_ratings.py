"""Ratings (openskill wrapper), outside Django: literal cases and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ratings import (
    BOT_RATINGS,
    MU0,
    PROVISIONAL_MATCHES,
    Skill,
    is_provisional,
    rate,
    win_probability,
)

skills = st.builds(Skill, st.floats(500, 2500), st.floats(40, 300))


def test_a_new_player_starts_at_the_normal_bots_rating_shown_conservatively():
    new = Skill()
    assert new.mu == MU0 == BOT_RATINGS["normal"]
    assert new.shown < new.mu  # mu - 2 sigma
    assert is_provisional(0) and is_provisional(PROVISIONAL_MATCHES - 1)
    assert not is_provisional(PROVISIONAL_MATCHES)


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
