"""Private tables exist only for people with the invite link (or a seat)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Seat
from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(make_table, alice):
    return make_table(alice, "belote", is_private=True)


def test_it_404s_a_private_table_without_its_link(client, bob_client, private_table):
    assert client.get(reverse("table", args=[private_table.pk])).status_code == 404
    assert bob_client.get(reverse("table", args=[private_table.pk])).status_code == 404


def test_it_404s_a_wrong_invite_token(client, private_table):
    assert client.get(reverse("table_invite", args=["not-the-token"])).status_code == 404


def test_it_shows_a_private_table_through_its_invite_link(client, private_table):
    response = client.get(private_table.invite_url())
    assert response.status_code == 200
    assert "Log in to sit" in response.content.decode()


def test_it_lets_a_guest_with_the_link_join(bob_client, bob, private_table):
    response = bob_client.post(
        reverse("seat_join", args=[private_table.pk, 1]), {"invite": private_table.invite_token}
    )
    assert response["Location"] == private_table.invite_url()
    assert Seat.objects.get(table=private_table, index=1).user == bob
    # Once seated, the plain table address works for them too.
    assert bob_client.get(reverse("table", args=[private_table.pk])).status_code == 200


def test_it_refuses_to_join_without_the_link(bob_client, bob, private_table):
    response = bob_client.post(reverse("seat_join", args=[private_table.pk, 1]))
    assert response.status_code == 404
    response = bob_client.post(
        reverse("seat_join", args=[private_table.pk, 1]), {"invite": "guess"}
    )
    assert response.status_code == 404
    assert not Seat.objects.filter(user=bob).exists()


def test_it_404s_the_match_of_a_private_table_for_strangers(make_table, alice, bob, carol):
    table = make_table(alice, "open_blot", is_private=True)
    client_for(bob).post(reverse("seat_join", args=[table.pk, 1]), {"invite": table.invite_token})
    match = table.matches.get()
    deal = match.deals.get()
    assert client_for(bob).get(match.get_absolute_url()).status_code == 200
    assert client_for(carol).get(match.get_absolute_url()).status_code == 404
    assert client_for(carol).get(deal.get_absolute_url()).status_code == 404


def test_it_shows_a_private_table_to_staff(make_user, private_table):
    staff = make_user("staff", is_staff=True)
    assert client_for(staff).get(reverse("table", args=[private_table.pk])).status_code == 200
