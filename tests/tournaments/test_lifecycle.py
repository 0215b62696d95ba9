"""The life-cycle steps: each checks before it changes anything, and running one
twice changes nothing the second time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Table, Tournament
from games.services import tournaments as svc
from games.services.errors import ServiceError


def snapshot(tournament: Tournament) -> tuple:
    tournament.refresh_from_db()
    return (
        tournament.status,
        tournament.version,
        tournament.entrants.count(),
        tournament.pairings.count(),
        Table.objects.count(),
    )


def test_it_starts_once_however_often_it_is_asked(make_tournament, alice) -> None:
    tournament = make_tournament(alice)
    svc.start(tournament.pk, alice)
    before = snapshot(tournament)
    with pytest.raises(ServiceError):
        svc.start(tournament.pk, alice)
    assert svc.advance(tournament.pk, timezone.now()) is False
    assert snapshot(tournament) == before
    assert before[3] == 2 and before[4] == 2  # two first-round tables, once


def test_it_refuses_bad_steps_and_changes_nothing(make_tournament, alice, bob) -> None:
    tournament = make_tournament(alice, fill_with_bots="")
    before = snapshot(tournament)
    with pytest.raises(ServiceError, match="at least two"):
        svc.start(tournament.pk, alice)
    with pytest.raises(ServiceError, match="organiser"):
        svc.start(tournament.pk, bob)
    with pytest.raises(ServiceError, match="partners"):
        svc.register(tournament.pk, bob, "alice")  # Open Blot has no teams
    svc.register(tournament.pk, bob)
    with pytest.raises(ServiceError, match="already registered"):
        svc.register(tournament.pk, bob)
    assert snapshot(tournament)[2] == before[2] + 1


def test_it_closes_registration_and_starts_when_full(make_tournament, alice, bob, carol):
    tournament = make_tournament(alice, max_entrants=2, fill_with_bots="")
    svc.register(tournament.pk, bob)
    assert snapshot(tournament)[0] == Tournament.Status.REGISTRATION
    svc.register(tournament.pk, carol)
    assert snapshot(tournament)[0] == Tournament.Status.RUNNING
    with pytest.raises(ServiceError):
        svc.register(tournament.pk, alice)


def test_it_starts_at_its_start_time_by_the_conductors_pass(make_tournament, alice, bob):
    starts = timezone.now() + timedelta(minutes=5)
    tournament = make_tournament(alice, starts_at=starts)
    svc.register(tournament.pk, bob)
    assert svc.advance_due(timezone.now()) == 0
    assert svc.advance_due(starts + timedelta(seconds=1)) == 1
    assert svc.advance_due(starts + timedelta(seconds=2)) == 0
    assert snapshot(tournament)[0] == Tournament.Status.RUNNING
    assert tournament.entrants.get(user=bob).seed == 1


def test_it_cancels_a_tournament_nobody_entered_at_its_start_time(make_tournament, alice):
    starts = timezone.now() + timedelta(minutes=5)
    tournament = make_tournament(alice, starts_at=starts, fill_with_bots="")
    svc.advance_due(starts + timedelta(seconds=1))
    assert snapshot(tournament)[0] == Tournament.Status.CANCELLED


def test_it_keeps_a_draft_closed_until_the_organiser_opens_it(make_tournament, alice, bob):
    tournament = make_tournament(alice, open_registration=False)
    with pytest.raises(ServiceError, match="not open"):
        svc.register(tournament.pk, bob)
    with pytest.raises(ServiceError):
        svc.open_registration(tournament.pk, bob)
    svc.open_registration(tournament.pk, alice)
    svc.register(tournament.pk, bob)
    assert tournament.entrants.filter(user=bob).exists()


def test_it_leaves_an_unanswered_partner_invite_out_at_the_start(
    make_tournament, alice, bob, carol, make_user
) -> None:
    dave = make_user("dave")
    tournament = make_tournament(alice, "belote", max_entrants=2, fill_with_bots="")
    svc.register(tournament.pk, alice, "bob")
    svc.register(tournament.pk, carol)
    # Full (two places), but the invite is unanswered: no automatic start.
    assert snapshot(tournament)[0] == Tournament.Status.REGISTRATION
    with pytest.raises(ServiceError, match="full"):
        svc.register(tournament.pk, dave)
    # Bob has not answered: Alice would play alone, paired with Carol, and one
    # team is no tournament. Refused, and nothing changed.
    before = snapshot(tournament)
    with pytest.raises(ServiceError, match="at least two"):
        svc.start(tournament.pk, alice)
    assert snapshot(tournament) == before
    svc.answer_invite(tournament.pk, bob, accept=True)
    # Full and settled now: it started by itself; Carol plays with a bot partner.
    assert snapshot(tournament)[0] == Tournament.Status.RUNNING
    teams = {e.user: e for e in tournament.entrants.all()}
    assert (teams[alice].partner, teams[alice].partner_status) == (bob, "accepted")
    assert (teams[carol].partner_status, teams[carol].bot_level) == ("bot", "normal")
    pairing = tournament.pairings.get()
    seats = {s.index: (s.user_id, s.bot_level) for s in pairing.table.seats.all()}
    assert seats[0] == (alice.pk, None) and seats[2] == (bob.pk, None)
    assert seats[1] == (carol.pk, None) and seats[3] == (None, "normal")
