"""Joining and leaving seats before the start, and the start itself."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.shuffle import verify
from games.models import Match, Seat, Table
from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db


def _join(client, table, index, **data):
    return client.post(reverse("seat_join", args=[table.pk, index]), data)


def _leave(client, table, index, **data):
    return client.post(reverse("seat_leave", args=[table.pk, index]), data)


def test_it_joins_a_free_seat(make_table, alice, bob, bob_client):
    table = make_table(alice)
    response = _join(bob_client, table, 2)
    assert response.status_code == 302
    assert Seat.objects.get(table=table, index=2).user == bob
    table.refresh_from_db()
    assert table.version == 1


def test_it_refuses_a_taken_seat(make_table, alice, bob_client):
    table = make_table(alice, others=["open", "easy", "open"])
    response = _join(bob_client, table, 0)
    assert response.status_code == 302
    assert Seat.objects.get(table=table, index=0).user == alice
    response = _join(bob_client, table, 2)
    assert Seat.objects.get(table=table, index=2).bot_level == "easy"
    assert Seat.objects.get(table=table, index=2).user is None
    messages = [str(m) for m in bob_client.get(response["Location"]).context["messages"]]
    assert "This seat is taken." in messages


def test_it_refuses_a_seat_that_does_not_exist(make_table, alice, bob_client, bob):
    table = make_table(alice, "open_blot")
    _join(bob_client, table, 5)
    assert not Seat.objects.filter(user=bob).exists()


def test_it_refuses_to_join_a_full_table(make_table, alice, bob, carol):
    table = make_table(alice, "open_blot")
    _join(client_for(bob), table, 1)
    _join(client_for(carol), table, 1)
    assert Seat.objects.get(table=table, index=1).user == bob
    assert not Seat.objects.filter(user=carol).exists()


def test_it_moves_a_player_to_another_seat(make_table, alice, bob, bob_client):
    table = make_table(alice)
    _join(bob_client, table, 1)
    _join(bob_client, table, 3)
    assert list(Seat.objects.filter(user=bob).values_list("index", flat=True)) == [3]


def test_it_requires_login_and_post_to_join(client, make_table, alice, bob_client):
    table = make_table(alice)
    response = _join(client, table, 1)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert bob_client.get(reverse("seat_join", args=[table.pk, 1])).status_code == 405


def test_it_leaves_before_the_start(make_table, alice, bob, bob_client):
    table = make_table(alice)
    _join(bob_client, table, 1)
    response = _leave(bob_client, table, 1)
    assert response.status_code == 302
    assert Seat.objects.get(table=table, index=1).user is None


def test_it_refuses_to_leave_someone_elses_seat(make_table, alice, bob, bob_client):
    table = make_table(alice)
    response = _leave(bob_client, table, 0)
    assert response.status_code == 404
    assert Seat.objects.get(table=table, index=0).user == alice


def test_it_refuses_to_cancel_someone_elses_table(make_table, alice, bob_client):
    table = make_table(alice)
    response = bob_client.post(reverse("table_cancel", args=[table.pk]))
    assert response.status_code == 404
    assert Table.objects.filter(pk=table.pk).exists()


def test_it_lets_the_creator_cancel_a_waiting_table(make_table, alice, alice_client):
    table = make_table(alice)
    response = alice_client.post(reverse("table_cancel", args=[table.pk]))
    assert response["Location"] == reverse("lobby")
    assert not Table.objects.filter(pk=table.pk).exists()


def test_it_removes_the_table_when_the_last_human_leaves(make_table, alice, alice_client):
    table = make_table(alice, others=["easy", "open", "open"])
    response = _leave(alice_client, table, 0)
    assert response["Location"] == reverse("lobby")
    assert not Table.objects.filter(pk=table.pk).exists()


def test_it_starts_the_match_when_the_last_seat_is_taken(make_table, alice, bob, carol):
    table = make_table(alice, others=["open", "hard", "open"])
    _join(client_for(bob), table, 1)
    assert not Match.objects.exists()
    _join(client_for(carol), table, 3)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.PLAYING
    assert match.first_dealer in range(4)
    assert [(p.index, p.user, p.bot_level) for p in match.participants.order_by("index")] == [
        (0, alice, None), (1, bob, None), (2, None, "hard"), (3, carol, None),
    ]
    deal = match.deals.get()
    assert (deal.number, deal.dealer, deal.actions) == (1, match.first_dealer, [])
    assert len(set(deal.deck)) == 32
    assert verify(deal.deck, deal.shuffle_salt, deal.commitment)


def test_it_refuses_to_leave_after_the_start(make_table, alice, bob, bob_client):
    table = make_table(alice, "open_blot")
    _join(bob_client, table, 1)
    _leave(bob_client, table, 1)
    assert Seat.objects.get(table=table, index=1).user == bob


def test_it_shows_join_buttons_only_on_open_seats(make_table, alice, bob_client):
    table = make_table(alice, others=["easy", "open", "open"])
    html = bob_client.get(reverse("table", args=[table.pk])).content.decode()
    assert html.count("Sit here") == 2
    assert reverse("seat_join", args=[table.pk, 2]) in html
    assert reverse("seat_join", args=[table.pk, 1]) not in html
    assert "Invite link" not in html  # only for the creator


def test_it_shows_the_invite_link_to_the_creator(make_table, alice, alice_client):
    table = make_table(alice)
    html = alice_client.get(reverse("table", args=[table.pk])).content.decode()
    assert table.invite_url() in html
    assert "Leave" in html
