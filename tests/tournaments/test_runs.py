"""Whole tournaments of bots played to the end through the conductor's path:
``run_due`` plays the tables' moves (a finished match wakes its tournament) and
``advance_due`` moves the tournaments on, exactly what the conductor's pass does."""

from __future__ import annotations

import pytest
from django.db.models import Q

from engine.tournament import knockout_rounds
from games.live.conduct.conductor import act_if_due, run_due
from games.models import Entrant, Match, Pairing, Table, Tournament
from games.services import tournaments as svc
from tests.live.conftest import later


def drive(tournament: Tournament, limit: int = 20_000) -> int:
    """Conductor passes (the clock far ahead) until the tournament is over."""
    passes = 0
    for passes in range(1, limit + 1):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return passes
        made = run_due(later()) + svc.advance_due(later())
        if not made:
            raise AssertionError("nothing was due, but the tournament is still running")
    raise AssertionError("gave up")


def start_with_bots(tournament: Tournament, organiser) -> Tournament:
    svc.start(tournament.pk, organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    return tournament


def check_consistent(tournament: Tournament) -> None:
    """Every pairing that was played agrees with its stored match, and nothing
    is left playing."""
    assert not Table.objects.filter(
        pk__in=tournament.pairings.values("table"), status=Table.Status.PLAYING
    ).exists()
    for pairing in tournament.pairings.select_related("match"):
        assert pairing.status == Pairing.Status.FINISHED
        if pairing.is_bye or pairing.forfeit:
            assert pairing.match is None
            continue
        match = pairing.match
        assert match.status == Match.Status.FINISHED and match.tournament_id == tournament.pk
        expected = pairing.entrant_a_id if match.winner == 0 else pairing.entrant_b_id
        assert pairing.winner_id == expected
        totals = match.score_rows.order_by("-number").first().totals
        assert [pairing.points_a, pairing.points_b] == totals


@pytest.mark.parametrize("variant", ["open_blot", "belote"])
@pytest.mark.parametrize("size", [5, 8])
def test_it_plays_a_knockout_of_bots_to_one_winner(make_tournament, alice, variant, size) -> None:
    tournament = start_with_bots(
        make_tournament(alice, variant, "knockout", max_entrants=size), alice
    )
    drive(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    check_consistent(tournament)
    rounds = svc.knockout_bracket(tournament)
    assert len(rounds) == knockout_rounds(size)
    # Every real match of the bracket was played once, as a stored pairing.
    real = {m.key for r in rounds for m in r if not m.bye}
    assert set(tournament.pairings.values_list("round", "index")) == real
    assert tournament.pairings.count() == size - 1
    places = dict(tournament.entrants.values_list("pk", "place"))
    assert list(places.values()).count(1) == 1
    assert places[rounds[-1][0].winner] == 1


def test_it_plays_the_third_place_match(make_tournament, alice) -> None:
    tournament = start_with_bots(
        make_tournament(alice, kind="knockout", max_entrants=4, third_place=True), alice
    )
    drive(tournament)
    check_consistent(tournament)
    assert sorted(tournament.entrants.values_list("place", flat=True)) == [1, 2, 3, 4]
    assert tournament.pairings.filter(third_place=True, round=2, index=2).count() == 1


@pytest.mark.parametrize("variant", ["open_blot", "belote"])
def test_it_plays_a_swiss_of_seven_over_three_rounds(make_tournament, alice, variant) -> None:
    tournament = start_with_bots(
        make_tournament(alice, variant, "swiss", max_entrants=7, rounds=3), alice
    )
    drive(tournament)
    check_consistent(tournament)
    assert tournament.round_set.count() == 3
    for number in (1, 2, 3):
        pairings = tournament.pairings.filter(round=number)
        assert pairings.count() == 4 and pairings.filter(entrant_b=None).count() == 1
        playing = [e for p in pairings for e in (p.entrant_a_id, p.entrant_b_id) if e]
        assert sorted(playing) == sorted(tournament.entrants.values_list("pk", flat=True))
    met = [
        frozenset((a, b))
        for a, b in tournament.pairings.exclude(entrant_b=None).values_list(
            "entrant_a", "entrant_b"
        )
    ]
    assert len(met) == len(set(met))  # no rematch
    byes = list(tournament.pairings.filter(entrant_b=None).values_list("entrant_a", flat=True))
    assert len(set(byes)) == 3
    table = svc.standings(tournament)
    wins = {e: 0 for e in tournament.entrants.values_list("pk", flat=True)}
    for winner in tournament.pairings.values_list("winner", flat=True):
        wins[winner] += 1
    assert {s.entrant: s.score for s in table} == wins
    assert {s.entrant: s.rank for s in table} == dict(
        tournament.entrants.values_list("pk", "place")
    )


@pytest.mark.parametrize("variant", ["open_blot", "belote"])
def test_it_plays_a_round_robin_of_four(make_tournament, alice, variant) -> None:
    tournament = start_with_bots(make_tournament(alice, variant, "round_robin"), alice)
    drive(tournament)
    check_consistent(tournament)
    assert tournament.round_set.count() == 3
    met = [frozenset(p) for p in tournament.pairings.values_list("entrant_a", "entrant_b")]
    assert len(met) == len(set(met)) == 6
    scores = sorted(s.score for s in svc.standings(tournament))
    assert sum(scores) == 6


def test_it_pairs_lone_belote_players_into_teams_when_registration_closes(
    make_tournament, alice, bob, carol, make_user
) -> None:
    dave = make_user("dave")
    tournament = make_tournament(alice, "belote", "round_robin", max_entrants=4)
    for user in (alice, bob, carol):
        svc.register(tournament.pk, user)
    svc.register(tournament.pk, dave)
    start_with_bots(tournament, alice)
    teams = list(tournament.entrants.filter(user__isnull=False).order_by("seed"))
    assert [(e.user, e.partner, e.partner_status) for e in teams] == [
        (alice, bob, Entrant.PartnerStatus.ACCEPTED),
        (carol, dave, Entrant.PartnerStatus.ACCEPTED),
    ]
    assert tournament.entrants.filter(user=None).count() == 2  # two bot teams fill
    # Partners sit opposite each other at their tables: seats 0 and 2, 1 and 3.
    for pairing in tournament.pairings.exclude(table=None):
        seats = dict(pairing.table.seats.values_list("index", "user"))
        a = pairing.entrant_a
        if a.user_id:
            assert (seats[0], seats[2]) == (a.user_id, a.partner_id)


def test_it_resumes_after_a_restart_in_the_middle_of_a_round(make_tournament, alice) -> None:
    """Only stored state drives a tournament: stopping between passes (a restart)
    and running the same passes twice (two processes) loses and duplicates nothing."""
    tournament = start_with_bots(
        make_tournament(alice, kind="swiss", max_entrants=6, rounds=2), alice
    )
    # Play one table of round 1 until its match is over, so the round is not:
    # passes over every table could end all three matches in the same pass (deals
    # of Easy bots often take the same number of moves), and round 2 would begin.
    assert tournament.pairings.filter(round=1).count() == 3
    first = tournament.pairings.filter(round=1).order_by("pk").first()
    for _ in range(5000):
        act_if_due(first.table_id, later())
        if Match.objects.filter(tournament=tournament, status=Match.Status.FINISHED).exists():
            break
    assert Match.objects.filter(tournament=tournament, status=Match.Status.FINISHED).count() == 1
    # "Restart": everything in memory is gone; the woken tournament is advanced twice.
    tournament = Tournament.objects.get(pk=tournament.pk)
    svc.advance_due(later())
    svc.advance_due(later())
    assert svc.advance(tournament.pk, later()) is False
    assert tournament.round_set.count() == 1
    drive(tournament)
    check_consistent(tournament)
    assert tournament.round_set.count() == 2
    assert tournament.pairings.count() == 6
    assert Table.objects.filter(pk__in=tournament.pairings.values("table")).count() == 6
    # Starting again after the end changes nothing.
    with pytest.raises(svc.ServiceError):
        svc.start(tournament.pk, alice)


def test_it_records_a_removed_entrants_remaining_matches_as_forfeits(
    make_tournament, alice, bob
) -> None:
    tournament = make_tournament(alice, kind="round_robin", max_entrants=4)
    svc.register(tournament.pk, bob)
    start_with_bots(tournament, alice)
    entrant = tournament.entrants.get(user=bob)
    svc.remove_entrant(entrant.pk, alice)
    svc.remove_entrant(entrant.pk, alice)  # twice: nothing more happens
    first = tournament.pairings.get(Q(entrant_a=entrant) | Q(entrant_b=entrant), round=1)
    assert first.forfeit and first.winner_id != entrant.pk and first.status == "finished"
    assert first.table.status == Table.Status.FINISHED
    drive(tournament)
    mine = tournament.pairings.filter(Q(entrant_a=entrant) | Q(entrant_b=entrant))
    assert mine.count() == 3 and all(p.forfeit and p.winner_id != entrant.pk for p in mine)
    assert mine.exclude(round=1).filter(table__isnull=False).count() == 0
    assert {s.entrant: s.score for s in svc.standings(tournament)}[entrant.pk] == 0
