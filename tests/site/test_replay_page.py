"""The replay of a finished deal: every step, every card face up, and
nothing at all for a deal still being played — players, spectators and staff alike."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from engine.actions import PLAY
from games.services.matches import finish_deal
from tests.site.conftest import client_for, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def belote_match(make_table, alice):
    table = make_table(alice, "belote", fmt="best_of:3", others=["easy", "normal", "hard"])
    return table.matches.get()


@pytest.fixture
def open_blot_match(make_table, alice):
    return make_table(alice, "open_blot", fmt="best_of:3", others=["normal"]).matches.get()


def finished(match, seed: int):
    deal = play_out(match.deals.get(), random.Random(seed))
    finish_deal(deal)
    deal.refresh_from_db()
    return deal


def url(deal, step: int | None = None) -> str:
    base = reverse("deal_replay", args=[deal.match_id, deal.number])
    return base if step is None else f"{base}?step={step}"


def test_a_running_deal_has_no_replay_for_anyone(belote_match, alice, make_user, client):
    deal = belote_match.deals.get()
    staff = make_user("root", is_staff=True, is_superuser=True)
    for viewer in (client_for(alice), client, client_for(staff)):  # player, spectator, staff
        response = viewer.get(url(deal))
        assert response.status_code == 403
        html = response.content.decode()
        assert "data-replay-refused" in html and "data-card" not in html
        assert "data-replay " not in html


def test_it_steps_through_every_action_of_a_finished_deal(belote_match, client):
    deal = finished(belote_match, seed=3)
    total = len(deal.actions)
    first = client.get(url(deal, 0)).content.decode()
    assert f'data-step="0" data-steps="{total}"' in first
    # At the start every dealt card (four hands of five, and the proposed card) is face up.
    assert len(re.findall(r'data-card="', first)) == 21
    # The replay opens at the first step.
    assert 'data-step="0"' in client.get(url(deal)).content.decode()
    last = client.get(url(deal, total)).content.decode()
    assert f'data-step="{total}"' in last
    assert "data-replay-result" in last
    first_play = next(i for i, a in enumerate(deal.actions) if a["type"] == PLAY)
    after = client.get(url(deal, first_play + 1)).content.decode()
    card = deal.actions[first_play]["card"]
    assert re.search(rf'replay-trick.*data-card="{card}"', after, re.S)
    # Out-of-range and malformed steps are clamped, never an error.
    assert f'data-step="{total}"' in client.get(url(deal, total + 50)).content.decode()
    assert 'data-step="0"' in client.get(url(deal, -3)).content.decode()
    assert 'data-step="0"' in client.get(url(deal) + "?step=x").content.decode()
    for action in ("first", "prev", "next", "last"):
        assert f'data-action="{action}"' in first


def test_open_blot_replay_shows_the_face_down_cards(open_blot_match, client):
    deal = finished(open_blot_match, seed=4)
    html = client.get(url(deal, 0)).content.decode()
    # Before the second batch: the 16 face-down cards and the 8 first face-up ones.
    assert len(re.findall(r'data-card="', html)) == 24
    assert "was-down" in html


def test_the_replay_is_linked_from_the_match_and_deal_pages(belote_match, client):
    deal = finished(belote_match, seed=5)
    link = url(deal)
    assert link in client.get(belote_match.get_absolute_url()).content.decode()
    assert link in client.get(deal.get_absolute_url()).content.decode()


def test_the_replay_is_linked_from_the_players_recent_matches(belote_match, client):
    deal = finished(belote_match, seed=6)
    html = client.get(reverse("profile", args=["alice"])).content.decode()
    assert url(deal) in html
