"""Play-now pairing, outside Django: literal cases and properties."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pairing import Ticket, meeting_in, outlook, pair, rating_window, wait_for_gap
from engine.pairing.pools import BOTS_AFTER_S
from engine.pairing.window import PER_SECOND, START


def one(person: int, rating: float, waited: float = 0.0, bots: bool = False) -> Ticket:
    return Ticket((person,), rating, waited, bots)


def sides(seats: tuple[int | None, ...]) -> tuple[set[int | None], set[int | None]]:
    return set(seats[0::2]), set(seats[1::2])


# --- literal cases --------------------------------------------------------------------


def test_two_close_people_meet_at_open_blot():
    groups = pair([one(1, 1500), one(2, 1540)], 2)
    assert [set(g.seats) for g in groups] == [{1, 2}]


def test_people_far_apart_wait_until_their_windows_reach():
    assert pair([one(1, 1500), one(2, 1800)], 2) == []
    # After 20 s each accepts 100 + 15*20 = 400 points either side.
    assert len(pair([one(1, 1500, 20), one(2, 1800, 20)], 2)) == 1


def test_people_very_far_apart_meet_once_both_have_waited_long_enough():
    # No widest window: on a quiet site nobody waits for ever.
    gap = 2000
    need = wait_for_gap(gap)
    assert need == (gap - START) / PER_SECOND  # about two minutes each
    assert pair([one(1, 500, need - 1), one(2, 2500, need - 1)], 2) == []
    assert len(pair([one(1, 500, need), one(2, 2500, need)], 2)) == 1


def test_a_gap_the_first_window_covers_needs_no_wait():
    assert wait_for_gap(0) == wait_for_gap(START) == 0
    with pytest.raises(ValueError):
        wait_for_gap(-1)


def test_the_outlook_counts_the_pool_and_the_window_and_says_when_they_meet():
    # The report's case: the only two people, rated 815 and 1214, both just in.
    me, other = one(1, 815, 0), one(2, 1214, 0)
    told = outlook(me, [me, other], 2)
    assert (told.in_pool, told.in_window, told.window) == (1, 0, START)
    assert told.meet_in_s == pytest.approx((399 - START) / PER_SECOND)
    # Once that long has passed, both accept each other and are paired.
    later = [Ticket(t.members, t.rating, told.meet_in_s) for t in (me, other)]
    assert outlook(later[0], later, 2).in_window == 1
    assert len(pair(later, 2)) == 1


def test_the_outlook_of_someone_alone_or_short_of_a_belote_table():
    me = one(1, 1500, 5)
    assert outlook(me, [me], 2).meet_in_s is None
    three = [me, one(2, 1500), one(3, 1520)]
    told = outlook(me, three, 4)
    assert (told.in_pool, told.in_window, told.meet_in_s) == (2, 2, None)
    full = [*three, one(4, 1900, 0)]
    told = outlook(me, full, 4)
    # The newcomer at 1900 accepts the table's lowest (1500) only after 20 s.
    assert told.meet_in_s == pytest.approx(meeting_in(full[0], full[3]))
    assert told.meet_in_s == pytest.approx((400 - START) / PER_SECOND)


def test_the_outlook_counts_a_party_as_two_people():
    me = one(1, 1500)
    told = outlook(me, [me, Ticket((2, 3), 1510, 0), one(4, 1495)], 4)
    assert (told.in_pool, told.in_window, told.meet_in_s) == (3, 3, 0)


def test_both_must_accept_a_newcomer_with_a_narrow_window_waits():
    # The old waiter accepts 1800, but the newcomer accepts only 100 points.
    assert pair([one(1, 1500, 60), one(2, 1800, 0)], 2) == []


def test_the_longest_waiting_gets_the_closest_rating():
    groups = pair([one(1, 1500, 10), one(2, 1600, 0), one(3, 1510, 0)], 2)
    assert [set(g.seats) for g in groups] == [{1, 3}]


def test_belote_four_people_split_into_balanced_sides():
    groups = pair([one(1, 1700), one(2, 1650), one(3, 1640), one(4, 1600)], 4)
    assert len(groups) == 1
    a, b = sides(groups[0].seats)
    assert {frozenset(a), frozenset(b)} == {frozenset({1, 4}), frozenset({2, 3})}


def test_a_party_stays_partners_even_when_splitting_would_balance_better():
    party = Ticket((1, 2), 1600, 0)  # two people who queue together
    groups = pair([party, one(3, 1580), one(4, 1620)], 4)
    assert len(groups) == 1
    a, b = sides(groups[0].seats)
    assert {1, 2} in (a, b)


def test_two_parties_play_each_other():
    groups = pair([Ticket((1, 2), 1500, 0), Ticket((3, 4), 1520, 0)], 4)
    a, b = sides(groups[0].seats)
    assert {frozenset(a), frozenset(b)} == {frozenset({1, 2}), frozenset({3, 4})}


def test_a_party_finds_another_party_after_a_single_could_not_complete_it():
    groups = pair([Ticket((1, 2), 1500, 5), one(3, 1500), Ticket((4, 5), 1510, 0)], 4)
    assert [set(g.seats) for g in groups] == [{1, 2, 4, 5}]


def test_three_people_do_not_make_a_belote_table():
    assert pair([one(1, 1500), one(2, 1500), one(3, 1500)], 4) == []


def test_bots_fill_the_table_after_thirty_seconds_for_those_who_asked():
    waited = BOTS_AFTER_S
    assert pair([one(1, 1500, waited - 1, bots=True)], 2) == []
    groups = pair([one(1, 1500, waited, bots=True), one(2, 2500, 0, bots=False)], 2)
    assert [g.seats for g in groups] == [(1, None)]


def test_people_waiting_for_bots_share_a_belote_table_with_bots_for_the_rest():
    groups = pair(
        [one(1, 1000, 40, bots=True), one(2, 2400, 40, bots=True)], 4
    )
    assert len(groups) == 1 and groups[0].bots == 2 and set(groups[0].people) == {1, 2}


def test_a_party_waiting_for_bots_stays_together():
    groups = pair([Ticket((1, 2), 1500, 40, True), one(3, 900, 40, bots=True)], 4)
    a, b = sides(groups[0].seats)
    assert {1, 2} in (a, b)


def test_a_person_on_two_tickets_is_refused():
    with pytest.raises(ValueError):
        pair([one(1, 1500), Ticket((1, 2), 1500, 0)], 4)


def test_parties_are_for_belote_only():
    with pytest.raises(ValueError):
        pair([Ticket((1, 2), 1500, 0)], 2)


# --- properties -----------------------------------------------------------------------


@st.composite
def pools(draw, seats: int):
    count = draw(st.integers(0, 30))
    people = iter(range(1, 1000))
    tickets = []
    for _ in range(count):
        size = draw(st.sampled_from([1, 2])) if seats == 4 else 1
        tickets.append(
            Ticket(
                tuple(next(people) for _ in range(size)),
                draw(st.floats(800, 2400)),
                draw(st.floats(0, 120)),
                draw(st.booleans()),
            )
        )
    return tickets


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 4]).flatmap(lambda n: st.tuples(st.just(n), pools(n))))
def test_no_one_is_paired_twice_and_every_table_is_full(case):
    seats, tickets = case
    groups = pair(tickets, seats)
    everyone = [p for g in groups for p in g.people]
    assert len(everyone) == len(set(everyone))
    assert set(everyone) <= {p for t in tickets for p in t.members}
    assert all(len(g.seats) == seats for g in groups)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 4]).flatmap(lambda n: st.tuples(st.just(n), pools(n))))
def test_partners_stay_partners_and_people_meet_only_within_their_windows(case):
    seats, tickets = case
    by_person = {p: t for t in tickets for p in t.members}
    for g in pair(tickets, seats):
        a, b = sides(g.seats)
        for t in {by_person[p] for p in g.people}:
            if len(t.members) == 2:
                assert set(t.members) <= a or set(t.members) <= b
        with_bots_rule = all(
            by_person[p].bots_ok and by_person[p].waited_s >= BOTS_AFTER_S for p in g.people
        )
        if g.bots:
            assert with_bots_rule  # bots only for those who asked and waited
        if with_bots_rule:
            continue  # seated together, ratings aside (possibly with no bot left)
        on_table = {by_person[p] for p in g.people}
        for x, y in combinations(on_table, 2):
            assert x.accepts(y)


@settings(max_examples=200, deadline=None)
@given(pools(4))
def test_belote_sides_are_the_most_balanced_split_that_keeps_parties(tickets):
    by_person = {p: t for t in tickets for p in t.members}
    for g in pair(tickets, 4):
        if g.bots:
            continue
        a, b = sides(g.seats)
        gap = abs(sum(by_person[p].rating for p in a) - sum(by_person[p].rating for p in b))
        people = g.people
        parties = [t.members for t in {by_person[p] for p in people} if len(t.members) == 2]
        for side in combinations(people, 2):
            if any(len(set(party) & set(side)) == 1 for party in parties):
                continue
            rest = [p for p in people if p not in side]
            total = sum(by_person[p].rating for p in side)
            other = abs(total - sum(by_person[p].rating for p in rest))
            assert gap <= other + 1e-9


@given(st.floats(0, 10_000), st.floats(0, 10_000))
def test_windows_widen_monotonically(a, b):
    low, high = sorted((a, b))
    assert rating_window(low) <= rating_window(high)
    assert rating_window(0) > 0


@given(st.floats(0, 5000))
def test_every_gap_is_reached_by_waiting(gap):
    assert rating_window(wait_for_gap(gap)) >= gap - 1e-6


@settings(max_examples=300, deadline=None)
@given(
    st.floats(0, 3000), st.floats(0, 3000), st.floats(0, 300), st.floats(0, 300),
)
def test_two_people_meet_exactly_when_the_outlook_says(a, b, waited_a, waited_b):
    me, other = one(1, a, waited_a), one(2, b, waited_b)
    told = outlook(me, [me, other], 2)
    assert told.meet_in_s is not None and told.meet_in_s >= 0
    assert (told.in_window == 1) == (told.meet_in_s == 0)

    def after(seconds: float) -> list[Ticket]:
        return [one(1, a, waited_a + seconds), one(2, b, waited_b + seconds)]

    # Whoever waits on meets the other at that moment (far apart or not) ...
    assert len(pair(after(told.meet_in_s + 1e-6), 2)) == 1
    # ... and not a second earlier.
    if told.meet_in_s >= 1:
        assert pair(after(told.meet_in_s - 1), 2) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(800, 2400), st.floats(0, 120)), min_size=4, max_size=12))
def test_four_singles_of_the_outlook_can_make_a_belote_table_when_it_says(people):
    tickets = [one(i, r, w) for i, (r, w) in enumerate(people, start=1)]
    told = outlook(tickets[0], tickets, 4)
    assert told.meet_in_s is not None
    later = [Ticket(t.members, t.rating, t.waited_s + told.meet_in_s + 1e-6) for t in tickets]
    # Someone is seated by then (perhaps others of the pool, met earlier).
    assert pair(later, 4)


@settings(max_examples=100, deadline=None)
@given(pools(2))
def test_pairing_is_repeatable(tickets):
    assert pair(tickets, 2) == pair(list(reversed(tickets)), 2)
