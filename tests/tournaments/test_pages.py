"""Tournament pages: list, create form, the tournament page and its live
fragment, "your match is ready", profile placings, and the admin."""

from __future__ import annotations

import re

from django.urls import reverse

from games.models import Entrant, Pairing, Table, Tournament
from games.services import tournaments as svc
from tests.site.conftest import client_for, default_rule_set
from tests.tournaments.test_runs import drive

FORM = {
    "name": "Sunday Cup",
    "variant": "open_blot",
    "kind": "knockout",
    "match_format": "best_of:1",
    "max_entrants": "4",
    "rounds": "",
    "fill_with_bots": "easy",
    "turn_seconds": "30",
    "disconnect_grace_seconds": "60",
    "bot_delay_ms": "0",
}


def form(**changes):
    data = {**FORM, **changes}
    data.setdefault("rule_set", "")
    return data


def test_it_creates_a_tournament_from_the_form_open_for_registration(alice_client) -> None:
    response = alice_client.post(reverse("tournament_create"), form())
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    assert (tournament.status, tournament.kind, tournament.format) == (
        "registration",
        "knockout",
        "best_of:1",
    )
    page = alice_client.get(tournament.get_absolute_url()).content.decode()
    assert 'data-tournament-status="registration"' in page
    assert 'data-action="register"' in page and 'data-action="start"' in page


def test_it_refuses_a_bad_form_with_clear_errors_and_creates_nothing(alice_client) -> None:
    bad = [
        form(max_entrants="1"),
        form(rounds="3"),  # rounds are for Swiss only
        form(match_format="first_to:1000"),  # Belote's alone
        form(rule_set=default_rule_set("belote").pk),
        form(name=""),
        form(fill_with_bots="godlike"),
    ]
    for data in bad:
        response = alice_client.post(reverse("tournament_create"), data)
        assert response.status_code == 200
        assert "errorlist" in response.content.decode()
    assert not Tournament.objects.exists()


def test_it_lets_only_staff_feature_a_tournament(alice, make_user) -> None:
    client_for(alice).post(reverse("tournament_create"), form(featured="on"))
    assert Tournament.objects.get().featured is False  # the field is not offered
    staff = make_user("staff", is_staff=True)
    client_for(staff).post(reverse("tournament_create"), form(name="Big", featured="on"))
    assert Tournament.objects.get(name="Big").featured is True


def test_it_lists_upcoming_running_and_finished_filtered_by_variant(
    make_tournament, alice, bob_client
) -> None:
    make_tournament(alice, name="Open one")
    make_tournament(alice, "belote", name="Belote one")
    page = bob_client.get(reverse("tournament_list")).content.decode()
    assert "Open one" in page and "Belote one" in page
    assert page.count('data-action="register"') == 2
    page = bob_client.get(reverse("tournament_list"), {"variant": "belote"}).content.decode()
    assert "Belote one" in page and "Open one" not in page


def test_it_registers_a_player_and_the_organiser_starts_with_a_bracket(
    make_tournament, alice, bob, bob_client, alice_client
) -> None:
    tournament = make_tournament(alice)
    response = bob_client.post(reverse("tournament_action", args=[tournament.pk, "register"]))
    assert response.status_code == 302
    assert tournament.entrants.filter(user=bob).exists()
    # Bob cannot start it; Alice can.
    bob_client.post(reverse("tournament_action", args=[tournament.pk, "start"]))
    tournament.refresh_from_db()
    assert tournament.status == "registration"
    alice_client.post(reverse("tournament_action", args=[tournament.pk, "start"]))
    tournament.refresh_from_db()
    assert tournament.status == "running"
    page = bob_client.get(tournament.get_absolute_url()).content.decode()
    assert 'data-tournament-status="running"' in page
    assert len(re.findall(r"data-bracket-match=", page)) == 3
    assert len(re.findall(r'data-round="1"', page)) == 2
    assert page.count("data-watch") == 2
    bobs_table = Pairing.objects.get(entrant_a__user=bob).table
    assert f'data-your-match href="{bobs_table.get_absolute_url()}"' in page
    # "Your match is ready" on every page, drawn with it (then pushed, not polled).
    for url in (reverse("lobby"), reverse("tournament_list")):
        other = bob_client.get(url).content.decode()
        assert f'data-your-match href="{bobs_table.get_absolute_url()}"' in other
        assert 'id="your-matches"' in other and "tournaments/ready" not in other
    # Not at that very table: they are there already.
    at_table = bob_client.get(bobs_table.get_absolute_url()).content.decode()
    assert '<p class="your-match message" hidden><a data-your-match' in at_table


def test_it_answers_the_live_poll_only_when_the_tournament_changed(
    make_tournament, alice, alice_client
) -> None:
    tournament = make_tournament(alice)
    url = reverse("tournament_live", args=[tournament.pk])
    assert alice_client.get(url, {"v": tournament.version}).status_code == 204
    svc.start(tournament.pk, alice)
    tournament.refresh_from_db()
    fresh = alice_client.get(url, {"v": 0})
    assert fresh.status_code == 200
    assert f'data-version="{tournament.version}"' in fresh.content.decode()
    drive(tournament)
    final = alice_client.get(url, {"v": 0}).content.decode()
    assert 'data-tournament-status="finished"' in final
    assert "data-winner=" in final and "data-score" in final
    assert "hx-trigger" not in final  # a finished tournament stops polling


def test_it_shows_swiss_standings_rows_with_rank_and_score(make_tournament, alice, alice_client):
    tournament = make_tournament(alice, kind="swiss", max_entrants=5, rounds=2)
    svc.start(tournament.pk, alice)
    drive(tournament)
    page = alice_client.get(tournament.get_absolute_url()).content.decode()
    rows = re.findall(r'<tr data-entrant="(\d+)" data-rank="(\d+)" data-score="(\d+)"', page)
    assert [int(rank) for _, rank, _ in rows] == [1, 2, 3, 4, 5]
    by_id = {s.entrant: s for s in svc.standings(tournament)}
    assert all(by_id[int(e)].score == int(score) for e, _, score in rows)
    assert "Buchholz" in page and "has a bye" in page


def test_it_invites_a_belote_partner_who_accepts(make_tournament, alice, bob, bob_client) -> None:
    tournament = make_tournament(alice, "belote")
    client_for(alice).post(
        reverse("tournament_action", args=[tournament.pk, "register"]), {"partner": "bob"}
    )
    entrant = Entrant.objects.get(tournament=tournament, user=alice)
    assert entrant.partner_status == "invited"
    page = bob_client.get(tournament.get_absolute_url()).content.decode()
    assert 'data-action="accept"' in page and "waiting for an answer" in page
    bob_client.post(reverse("tournament_action", args=[tournament.pk, "accept"]))
    entrant.refresh_from_db()
    assert entrant.partner_status == "accepted" and entrant.players() == [alice.pk, bob.pk]
    # An unknown partner is refused with a message, and nothing changes.
    response = client_for(alice).post(
        reverse("tournament_action", args=[tournament.pk, "register"]),
        {"partner": "nobody"},
        follow=True,
    )
    assert "There is no player with that username." in response.content.decode()
    assert tournament.entrants.count() == 1


def test_it_lists_a_players_tournaments_and_places_on_their_profile(
    make_tournament, alice, bob, bob_client
) -> None:
    tournament = make_tournament(alice)
    svc.register(tournament.pk, bob)
    svc.start(tournament.pk, alice)
    # Bob's seat goes to a bot so the run plays itself.
    from games.models import Seat

    Seat.objects.filter(user=bob).update(user=None, bot_level="easy")
    drive(tournament)
    place = Entrant.objects.get(tournament=tournament, user=bob).place
    page = bob_client.get(reverse("profile", args=["bob"])).content.decode()
    assert f'data-tournament="{tournament.pk}"' in page
    assert f'data-place="{place}"' in page


def test_it_lets_the_admin_remove_an_entrant_as_forfeits(make_tournament, alice, bob, make_user):
    staff = make_user("root", is_staff=True, is_superuser=True)
    tournament = make_tournament(alice)
    svc.register(tournament.pk, bob)
    svc.start(tournament.pk, alice)
    entrant = Entrant.objects.get(user=bob)
    client = client_for(staff)
    response = client.post(
        reverse("admin:games_entrant_changelist"),
        {"action": "remove_entrants", "_selected_action": [entrant.pk]},
    )
    assert response.status_code == 302
    pairing = Pairing.objects.get(entrant_a=entrant)
    assert pairing.forfeit and pairing.winner_id == pairing.entrant_b_id
    assert (
        client.get(reverse("admin:games_tournament_change", args=[tournament.pk])).status_code
        == 200
    )
    client.post(
        reverse("admin:games_tournament_changelist"),
        {"action": "cancel_tournaments", "_selected_action": [tournament.pk]},
    )
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    assert not Table.objects.filter(status=Table.Status.PLAYING).exists()


def test_it_hides_a_draft_from_everyone_but_its_organiser(
    make_tournament, alice, alice_client, bob_client
) -> None:
    tournament = make_tournament(alice, open_registration=False)
    assert bob_client.get(tournament.get_absolute_url()).status_code == 404
    page = alice_client.get(tournament.get_absolute_url()).content.decode()
    assert 'data-action="open"' in page
    assert f'href="{reverse("tournament_list")}"' in page  # the header's Tournaments link
