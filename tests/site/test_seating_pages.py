"""The leave / return / rematch controls, their pages, and the match record."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from django.urls import reverse

from games.live.draw import match_actions
from games.models import MatchEvent, Seat, Table
from games.services import seating
from games.services.tables import join_seat
from tests.site.conftest import client_for, play_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(make_table, alice, bob) -> Table:
    table = make_table(alice, "open_blot", fmt="best_of:1")
    join_seat(table.pk, bob, 1)
    table.refresh_from_db()
    return table


def test_it_offers_leave_to_a_seated_player_and_nothing_to_a_spectator(duel, alice, carol):
    html = client_for(alice).get(reverse("table", args=[duel.pk])).content.decode()
    assert 'data-action="leave"' in html and 'id="leave-dialog"' in html
    watcher = client_for(carol).get(reverse("table", args=[duel.pk])).content.decode()
    assert "data-match-actions" not in watcher and "leave-dialog" not in watcher
    assert match_actions.view(duel, duel.current_match(), None) is None


def test_it_asks_before_leaving_and_then_leaves(duel, alice):
    client = client_for(alice)
    page = client.get(reverse("match_leave", args=[duel.pk]))
    assert page.status_code == 200 and b'data-action="leave-confirm"' in page.content
    assert Seat.objects.get(table=duel, user=alice).left_at is None  # a GET changes nothing
    response = client.post(reverse("match_leave", args=[duel.pk]))
    assert response.status_code == 302 and response["Location"] == duel.get_absolute_url()
    assert Seat.objects.get(table=duel, user=alice).left_at is not None
    html = client.get(reverse("table", args=[duel.pk])).content.decode()
    assert 'data-action="return"' in html and 'data-action="leave"' not in html


def test_it_answers_htmx_with_no_content_and_the_socket_updates_the_page(duel, alice):
    client = client_for(alice)
    client.post(reverse("match_leave", args=[duel.pk]))
    response = client.post(reverse("match_return", args=[duel.pk]), headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert Seat.objects.get(table=duel, user=alice).left_at is None


def test_it_shows_a_refusal_and_changes_nothing(duel, carol):
    response = client_for(carol).post(reverse("match_leave", args=[duel.pk]), follow=True)
    assert "You have no seat at this table." in response.content.decode()
    assert not MatchEvent.objects.exists()


def test_it_requires_login_to_leave(client, duel):
    response = client.post(reverse("match_leave", args=[duel.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not MatchEvent.objects.exists()


def test_it_says_on_the_match_page_who_left_and_who_returned(duel, alice, carol):
    seating.leave(duel.pk, alice)
    seating.return_to_seat(duel.pk, alice)
    html = client_for(carol).get(duel.current_match().get_absolute_url()).content.decode()
    assert "alice left the table on" in html and "alice returned to the table on" in html
    assert "(deal 1)" in html


def test_it_offers_rematch_and_a_prefilled_new_table_at_the_end(duel, alice, bob):
    Table.objects.filter(pk=duel.pk).update(turn_seconds=45)
    duel.refresh_from_db()
    match = duel.current_match()
    play_match(match)
    match.refresh_from_db()
    actions = match_actions.view(duel, match, 0)
    assert actions["kind"] == "rematch" and not actions["offered"]
    html = client_for(alice).get(reverse("table", args=[duel.pk])).content.decode()
    assert 'data-action="rematch"' in html and 'data-action="new-table"' in html
    client_for(alice).post(actions["url"])
    html = client_for(bob).get(reverse("table", args=[duel.pk])).content.decode()
    assert "Accept the rematch" in html
    mine = client_for(alice).get(reverse("table", args=[duel.pk])).content.decode()
    assert "You accepted the rematch. Waiting for bob." in mine
    # "New table": the create form with this table's settings filled in
    query = parse_qs(urlparse(actions["new_table_url"]).query)
    assert query["variant"] == ["open_blot"] and query["format"] == ["best_of:1"]
    form = client_for(alice).get(actions["new_table_url"]).context["form"]
    assert form["format"].value() == "best_of:1"
    assert form["turn_seconds"].value() == "45"
    assert form["seat_1"].value() == "open"


def test_it_starts_the_rematch_when_the_last_person_accepts(duel, alice, bob):
    match = duel.current_match()
    play_match(match)
    client_for(alice).post(reverse("match_rematch", args=[duel.pk, match.pk]))
    response = client_for(bob).post(reverse("match_rematch", args=[duel.pk, match.pk]))
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.status == Table.Status.PLAYING and duel.current_match() != match
    html = client_for(bob).get(reverse("table", args=[duel.pk])).content.decode()
    assert 'data-action="leave"' in html
