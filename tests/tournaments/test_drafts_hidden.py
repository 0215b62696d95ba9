"""A draft tournament is its organiser's and staff's alone, everywhere (its
live fragment once answered 200 with its name and settings to anyone)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db

SECRET = "Secret spring cup"


def _addresses(tournament) -> list[str]:
    return [
        tournament.get_absolute_url(),
        reverse("tournament_live", args=[tournament.pk]),
        reverse("tournament_live", args=[tournament.pk]) + "?v=0",
        reverse("tournament_list"),
    ]


def test_a_draft_is_not_shown_to_a_visitor_or_another_player(
    make_tournament, alice, bob_client
) -> None:
    tournament = make_tournament(alice, name=SECRET, open_registration=False)
    for client in (Client(), bob_client):
        for address in _addresses(tournament):
            response = client.get(address)
            assert SECRET not in response.content.decode(), address
        assert client.get(reverse("tournament_live", args=[tournament.pk])).status_code == 404


def test_a_drafts_buttons_answer_others_as_if_it_did_not_exist(
    make_tournament, alice, bob_client
) -> None:
    tournament = make_tournament(alice, name=SECRET, open_registration=False)
    for action in ("register", "open", "start", "cancel"):
        url = reverse("tournament_action", args=[tournament.pk, action])
        assert bob_client.post(url).status_code == 404
    tournament.refresh_from_db()
    assert tournament.status == "draft"


def test_the_organiser_and_staff_see_the_draft_and_its_fragment(
    make_tournament, alice, alice_client, make_user
) -> None:
    tournament = make_tournament(alice, name=SECRET, open_registration=False)
    staff = client_for(make_user("dana", is_staff=True))
    for client in (alice_client, staff):
        live = client.get(reverse("tournament_live", args=[tournament.pk]))
        assert live.status_code == 200
        assert SECRET in live.content.decode()
