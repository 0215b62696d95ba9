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


def test_it_lists_playing_tables_with_their_score_and_a_watch_link(client, make_table, alice):
    import random

    from games.models import Deal
    from tests.site.conftest import play_out

    table = make_table(alice, "belote", others=["easy", "easy", "easy"])
    match = table.current_match()
    from games.services.matches import finish_deal

    finish_deal(play_out(match.deals.get(number=1), random.Random(3)))
    totals = match.score_rows.get(number=1).totals
    waiting = make_table(alice, "open_blot")
    # Between deals: the next one is dealt by the conductor after the pause.
    assert not match.deals.filter(status=Deal.Status.PLAYING).exists()
    response = client.get(reverse("lobby"))
    assert response.context["playing"] == [table]
    assert response.context["waiting"] == [waiting]
    html = response.content.decode()
    assert f'data-watch href="{table.get_absolute_url()}"' in html
    assert f"{totals[0]} \u2013 {totals[1]}" in html  # an en dash
    assert html.count("data-watch") == 1  # an open table is joined, not watched


def test_it_refreshes_its_list_with_a_small_fragment(client, make_table, alice):
    response = client.get(reverse("lobby"))
    html = response.content.decode()
    assert 'hx-get="/lobby/tables/"' in html and 'hx-trigger="every 5s"' in html
    table = make_table(alice, "open_blot", others=["easy"])  # a table starts meanwhile
    fragment = client.get(reverse("lobby_tables"), {"variant": "open_blot"})
    assert fragment.status_code == 200
    assert b"<html" not in fragment.content
    assert f'data-watch href="{table.get_absolute_url()}"'.encode() in fragment.content
    assert client.get(reverse("lobby_tables"), {"variant": "belote"}).context["tables"] == []


@pytest.mark.parametrize(
    ("variant", "fmt", "seats"), [("belote", "first_to:1000", 4), ("open_blot", "first_to:501", 2)]
)
def test_it_starts_a_table_against_normal_bots_in_one_click(
    alice_client, alice, variant, fmt, seats
):
    response = alice_client.post(reverse("play_bots", args=[variant]))
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert (table.variant, table.format, table.status) == (variant, fmt, Table.Status.PLAYING)
    assert not table.is_private
    assert [(s.user, s.bot_level) for s in table.seats.order_by("index")] == [(alice, None)] + [
        (None, "normal")
    ] * (seats - 1)
    assert table.current_match().status == "playing"


def test_it_sends_an_anonymous_player_to_log_in_before_playing_bots(client):
    response = client.post(reverse("play_bots", args=["belote"]))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next=/"
    assert not Table.objects.exists()


def test_it_refuses_a_quick_table_of_an_unknown_variant(alice_client):
    response = alice_client.post(reverse("play_bots", args=["poker"]), follow=True)
    assert "Unknown variant." in response.content.decode()
    assert not Table.objects.exists()


def test_it_creates_quick_tables_only_on_post(alice_client):
    assert alice_client.get(reverse("play_bots", args=["belote"])).status_code == 405
    assert not Table.objects.exists()


def test_it_offers_the_quick_buttons_in_the_lobby(client):
    html = client.get(reverse("lobby")).content.decode()
    assert 'data-play-bots="belote"' in html and 'data-play-bots="open_blot"' in html
