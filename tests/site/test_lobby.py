"""The lobby: public waiting/playing tables, variant filter (plain and htmx)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Table

pytestmark = pytest.mark.django_db


def test_it_lists_open_tables_with_their_details(client, make_table, alice):
    table = make_table(alice, "belote", fmt="first_to:1001", others=["open", "hard", "open"])
    Table.objects.filter(pk=table.pk).update(spectator_count=7)
    response = client.get(reverse("lobby"))
    assert response.status_code == 200
    listed = list(response.context["tables"])
    assert listed == [table]
    assert listed[0].free_seats == 2
    html = response.content.decode()
    assert "Belote" in html
    assert "First to 1001 points" in html
    assert "alice" in html
    assert "Bot (Hard)" in html
    assert "7 watching" in html  # spectators


def test_it_hides_private_tables(client, make_table, alice):
    make_table(alice, is_private=True)
    assert list(client.get(reverse("lobby")).context["tables"]) == []


def test_it_hides_finished_tables(client, make_table, alice):
    table = make_table(alice)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert list(client.get(reverse("lobby")).context["tables"]) == []


def test_it_lists_running_tables(client, make_table, alice):
    table = make_table(alice, "open_blot", others=["easy"])
    assert table.status == Table.Status.PLAYING
    assert list(client.get(reverse("lobby")).context["tables"]) == [table]


def test_it_filters_by_variant_without_javascript(client, make_table, alice, bob):
    belote = make_table(alice, "belote")
    blot = make_table(bob, "open_blot")
    response = client.get(reverse("lobby"), {"variant": "open_blot"})
    assert list(response.context["tables"]) == [blot]
    assert b"<html" in response.content
    response = client.get(reverse("lobby"), {"variant": "belote"})
    assert list(response.context["tables"]) == [belote]
    response = client.get(reverse("lobby"), {"variant": ""})
    assert set(response.context["tables"]) == {belote, blot}


def test_it_ignores_an_unknown_variant_filter(client, make_table, alice):
    make_table(alice)
    response = client.get(reverse("lobby"), {"variant": "poker"})
    assert len(response.context["tables"]) == 1


def test_it_returns_only_the_table_list_to_htmx(client, make_table, alice):
    make_table(alice, "open_blot")
    response = client.get(
        reverse("lobby"), {"variant": "open_blot"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert b"<html" not in response.content
    assert b"Open Blot" in response.content


def test_it_returns_the_whole_page_to_an_htmx_history_restore(client):
    headers = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
    response = client.get(reverse("lobby"), headers=headers)
    assert b"<html" in response.content
    assert "HX-Request" in response["Vary"]


def test_it_serves_the_vendored_htmx(client):
    html = client.get(reverse("lobby")).content.decode()
    assert "/static/django_htmx/htmx-2.min.js" in html
    assert "https://" not in html.split("<body")[0]  # nothing from a CDN


def test_it_shows_my_tables_including_private_ones(alice_client, make_table, alice):
    table = make_table(alice, is_private=True)
    response = alice_client.get(reverse("lobby"))
    assert list(response.context["my_tables"]) == [table]
    assert table.invite_url() in response.content.decode()
