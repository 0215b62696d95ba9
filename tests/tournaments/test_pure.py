"""engine.tournament: pairings, brackets, standings and tie-breaks (no Django)."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import (
    ROUND_ROBIN,
    SWISS,
    Pairing,
    Result,
    bracket,
    knockout_placings,
    knockout_rounds,
    round_robin_round,
    round_robin_rounds,
    standings,
    swiss_pairings,
)
from engine.tournament.knockout import seed_order

# --- knockout ------------------------------------------------------------------------------


def test_it_orders_seeds_so_the_best_meet_last() -> None:
    assert seed_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]


def test_it_gives_the_byes_of_a_knockout_of_five_to_the_three_best_seeds() -> None:
    first = bracket([10, 20, 30, 40, 50], {})[0]
    assert [(m.a, m.b, m.bye) for m in first] == [
        (10, None, True),
        (40, 50, False),
        (20, None, True),
        (30, None, True),
    ]
    second = bracket([10, 20, 30, 40, 50], {})[1]
    assert [(m.a, m.b) for m in second] == [(10, None), (20, 30)]
    assert [m.key for r in bracket([10, 20, 30, 40, 50], {}) for m in r if m.ready] == [
        (1, 2),
        (2, 2),
    ]


def test_it_works_out_a_whole_knockout_of_five_by_hand() -> None:
    # 40 beats 50; seed 1 (10) then meets 40; 30 upsets 20; 30 wins the final.
    winners = {(1, 2): 40, (2, 1): 10, (2, 2): 30, (3, 1): 30}
    rounds = bracket([10, 20, 30, 40, 50], winners)
    assert len(rounds) == 3
    final = rounds[2][0]
    assert (final.a, final.b, final.winner, final.loser) == (10, 30, 30, 10)
    assert knockout_placings(rounds) == {30: 1, 10: 2, 20: 3, 40: 3, 50: 5}


def test_it_plays_a_third_place_match_between_the_semifinal_losers() -> None:
    winners = {(1, 1): 1, (1, 2): 4, (1, 3): 2, (1, 4): 3, (2, 1): 1, (2, 2): 3}
    rounds = bracket([1, 2, 3, 4, 5, 6, 7, 8], winners, third_place=True)
    third = rounds[2][1]
    assert third.third_place and (third.a, third.b) == (4, 2) and third.ready
    done = bracket([1, 2, 3, 4, 5, 6, 7, 8], {**winners, (3, 1): 3, (3, 2): 2}, third_place=True)
    places = knockout_placings(done)
    assert (places[3], places[1], places[2], places[4]) == (1, 2, 3, 4)
    assert places[5] == places[6] == places[7] == places[8] == 5


def test_it_refuses_a_winner_who_did_not_play_the_match() -> None:
    with pytest.raises(ValueError):
        bracket([1, 2, 3, 4], {(1, 1): 2})


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=128), st.randoms(use_true_random=False))
def test_it_ends_any_knockout_with_one_winner_after_ceil_log2_rounds(n, rng) -> None:
    entrants = list(range(100, 100 + n))
    winners: dict[tuple[int, int], int] = {}
    played_rounds: set[int] = set()
    for _ in range(200):
        rounds = bracket(entrants, winners)
        ready = [m for r in rounds for m in r if m.ready]
        if not ready:
            break
        for m in ready:
            # Nobody plays twice in a round, and nobody who lost plays again.
            winners[m.key] = rng.choice([m.a, m.b])
            played_rounds.add(m.round)
    rounds = bracket(entrants, winners)
    assert len(rounds) == math.ceil(math.log2(n)) == knockout_rounds(n)
    assert rounds[-1][0].winner is not None
    places = knockout_placings(rounds)
    assert sorted(places) == sorted(entrants)
    assert list(places.values()).count(1) == 1
    for r in rounds:
        seen = [e for m in r for e in (m.a, m.b) if e is not None]
        assert len(seen) == len(set(seen))  # every entrant at most once per round
    assert sum(1 for m in rounds[0] if m.bye) == 2 ** len(rounds) - n


# --- round robin ---------------------------------------------------------------------------


def test_it_pairs_a_round_robin_of_four_by_the_circle_method() -> None:
    rounds = [round_robin_round([1, 2, 3, 4], r) for r in (1, 2, 3)]
    assert rounds == [
        [Pairing(1, 4), Pairing(2, 3)],
        [Pairing(1, 3), Pairing(2, 4)],
        [Pairing(1, 2), Pairing(3, 4)],
    ]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=20))
def test_it_meets_each_pair_exactly_once_in_a_round_robin(n) -> None:
    entrants = list(range(1, n + 1))
    met = []
    byes = []
    for r in range(1, round_robin_rounds(n) + 1):
        pairs = round_robin_round(entrants, r)
        seen = [e for p in pairs for e in (p.a, p.b) if e is not None]
        assert sorted(seen) == entrants  # everyone plays once or has the bye
        met += [frozenset((p.a, p.b)) for p in pairs if p.b is not None]
        byes += [p.a for p in pairs if p.b is None]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    assert sorted(byes) == (entrants if n % 2 else [])


# --- standings -----------------------------------------------------------------------------


def test_it_breaks_swiss_ties_by_buchholz_then_sonneborn_berger() -> None:
    # Round 1: 1 beats 2, 3 beats 4. Round 2: 1 beats 3, 4 beats 2.
    # Scores 1:2, 3:1, 4:1, 2:0. 3 and 4 tie on score: 3 met 4 and 1 (Buchholz 1 + 2),
    # 4 met 3 and 2 (1 + 0). 1 met 2 and 3 (0 + 1) and beat both (SB 1).
    results = [
        Result(1, 1, 2, 1, (120, 40)),
        Result(1, 3, 4, 3, (100, 60)),
        Result(2, 1, 3, 1, (90, 70)),
        Result(2, 4, 2, 4, (80, 30)),
    ]
    table = standings([1, 2, 3, 4], results, SWISS)
    assert [(s.entrant, s.score, s.buchholz, s.sonneborn_berger, s.points_diff) for s in table] == [
        (1, 2, 1, 1, 100),
        (3, 1, 3, 1, 20),
        (4, 1, 1, 0, 10),
        (2, 0, 3, 0, -130),
    ]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_it_breaks_a_tie_on_everything_else_by_head_to_head() -> None:
    # A three-way cycle broken by points difference leaves 2 and 3 level; 3 beat 2.
    results = [
        Result(1, 1, 2, 1, (10, 0)),
        Result(2, 2, 3, 3, (0, 5)),
        Result(3, 3, 1, 1, (0, 5)),
        Result(1, 4, 5, 4, (0, 0)),
    ]
    table = standings([1, 2, 3], [r for r in results if r.a != 4], ROUND_ROBIN)
    assert [s.entrant for s in table] == [1, 3, 2]
    # A(1) beat B(2), B beat C(3), C beat D(4), every match 5-5 in points: A and B
    # are level on score (1), Sonneborn-Berger (1) and difference (0); B is the
    # better seed, but A won their meeting.
    level = [Result(1, 1, 2, 1, (5, 5)), Result(2, 2, 3, 2, (5, 5)), Result(3, 3, 4, 3, (5, 5))]
    table = standings([2, 1, 3, 4], level, ROUND_ROBIN)
    top = table[:2]
    assert [(s.score, s.sonneborn_berger, s.points_diff) for s in top] == [(1, 1, 0)] * 2
    assert [s.entrant for s in table] == [1, 2, 3, 4]


def test_it_scores_a_bye_as_a_win_and_does_not_count_buchholz_in_round_robin() -> None:
    results = [Result(1, 3, None, 3), Result(1, 1, 2, 2, (10, 20))]
    swiss = {s.entrant: s for s in standings([1, 2, 3], results, SWISS)}
    assert swiss[3].score == 1 and swiss[3].byes == 1 and swiss[3].played == 0
    assert swiss[1].buchholz == 1
    robin = {s.entrant: s for s in standings([1, 2, 3], results, ROUND_ROBIN)}
    assert robin[1].buchholz == 0


# --- Swiss ---------------------------------------------------------------------------------


def test_it_pairs_the_first_swiss_round_top_half_against_bottom_half() -> None:
    assert swiss_pairings([1, 2, 3, 4, 5, 6, 7, 8], []) == [
        Pairing(1, 5),
        Pairing(2, 6),
        Pairing(3, 7),
        Pairing(4, 8),
    ]


def test_it_gives_the_swiss_bye_to_the_lowest_ranked_entrant_without_one() -> None:
    first = swiss_pairings([1, 2, 3, 4, 5], [])
    assert first[-1] == Pairing(5, None)
    results = [Result(1, 1, 3, 1), Result(1, 2, 4, 4), Result(1, 5, None, 5)]
    second = swiss_pairings([1, 2, 3, 4, 5], results)
    byes = [p.a for p in second if p.b is None]
    # 5 had the bye; of the others, the lowest-ranked gets it (2 or 3, both on 0).
    ranked = [s.entrant for s in standings([1, 2, 3, 4, 5], results, SWISS)]
    assert byes == [ranked[-1]] and ranked[-1] in (2, 3)


def test_it_avoids_a_swiss_rematch_by_backtracking() -> None:
    # 1 and 2 met; the natural 1 v 2 of the leaders is a rematch.
    results = [Result(1, 1, 3, 1), Result(1, 2, 4, 2), Result(2, 1, 2, 1), Result(2, 3, 4, 3)]
    pairs = swiss_pairings([1, 2, 3, 4], results)
    met = {frozenset((r.a, r.b)) for r in results}
    assert all(frozenset((p.a, p.b)) not in met for p in pairs)


def _rematch_free_exists(entrants, met, had_bye) -> bool:
    for perm in itertools.permutations(entrants):
        pairs = [perm[i : i + 2] for i in range(0, len(perm) - len(perm) % 2, 2)]
        if all(frozenset(p) not in met for p in pairs):
            return True
    return False


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=8), st.integers(min_value=1, max_value=5), st.randoms())
def test_it_plays_everyone_once_per_swiss_round_with_no_avoidable_rematch(n, rounds, rng) -> None:
    entrants = list(range(1, n + 1))
    results: list[Result] = []
    for number in range(1, rounds + 1):
        met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
        had_bye = {r.a for r in results if r.b is None}
        pairs = swiss_pairings(entrants, results)
        seen = [e for p in pairs for e in (p.a, p.b) if e is not None]
        assert sorted(seen) == entrants
        assert sum(1 for p in pairs if p.b is None) == n % 2
        rematches = [p for p in pairs if p.b is not None and frozenset((p.a, p.b)) in met]
        if rematches:
            assert not _rematch_free_exists(entrants, met, set())
        bye = next((p.a for p in pairs if p.b is None), None)
        if bye in had_bye:
            # A second bye only when every fresh bye would have forced a rematch.
            for fresh in (e for e in entrants if e not in had_bye):
                rest = [e for e in entrants if e != fresh]
                assert not _rematch_free_exists(rest, met, set())
        for p in pairs:
            if p.b is None:
                results.append(Result(number, p.a, None, p.a))
            else:
                results.append(Result(number, p.a, p.b, rng.choice([p.a, p.b]), (1, 0)))


def test_it_pairs_six_rounds_of_a_sixty_four_entrant_swiss_without_a_rematch() -> None:
    entrants = list(range(64))
    rng = random.Random(7)
    results: list[Result] = []
    for number in range(1, 7):
        for p in swiss_pairings(entrants, results):
            results.append(Result(number, p.a, p.b, rng.choice([p.a, p.b])))
    met = [frozenset((r.a, r.b)) for r in results]
    assert len(met) == len(set(met)) == 6 * 32
