"""Display names cannot pass for a bot or another player."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Player, names
from tests.site.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db


def _signup(client, username: str, display_name: str = ""):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "display_name": display_name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


@pytest.mark.parametrize(
    "name",
    [
        "Bot 2 (Hard)",
        "bot 3",
        "BOT_4",
        "Bot",
        "B0t 1 (Easy)",
        "Bot (Normal)",
        "\uff22\uff4f\uff54 \uff12",  # fullwidth "Bot 2"
    ],
)
def test_it_refuses_a_bot_like_name_at_sign_up(client, name):
    response = _signup(client, "dora", name)
    assert response.status_code == 200
    errors = response.context["form"].errors["display_name"]
    assert any("look like a bot" in e for e in errors)
    assert not get_user_model().objects.filter(username="dora").exists()


def test_it_refuses_a_bot_like_username_without_a_display_name(client):
    response = _signup(client, "Bot2")
    assert response.status_code == 200
    assert response.context["form"].errors["display_name"]


@pytest.mark.parametrize("name", ["Botanist", "Abbot 2", "Robot Wars"])
def test_it_accepts_names_that_merely_contain_bot(client, name):
    assert _signup(client, "dora", name).status_code == 302
    assert Player.objects.get(user__username="dora").display_name == name


@pytest.mark.parametrize(
    "name",
    ["alice", "ALICE", "Alice", "\uff41\uff4c\uff49\uff43\uff45", "al\u200bice", "\u202ealice"],
)
def test_it_refuses_another_players_name_in_any_case_or_form(client, alice, name):
    response = _signup(client, "dora", name)
    assert response.status_code == 200
    errors = response.context["form"].errors["display_name"]
    assert any("already uses this name" in e for e in errors)


def test_it_strips_bidi_and_zero_width_characters(client):
    name = "\u202eDo\u200dra\u2066 \u200b the\tDealer\u2069"
    assert _signup(client, "dora", name).status_code == 302
    assert Player.objects.get(user__username="dora").display_name == "Dora the Dealer"


def test_it_refuses_a_name_with_nothing_visible(client):
    response = _signup(client, "dora", "\u200b\u202e\u2066")
    assert response.status_code == 200
    assert any(
        "visible character" in e for e in response.context["form"].errors["display_name"]
    )


def test_it_refuses_a_taken_or_bot_name_in_the_profile_form(alice, bob):
    client = client_for(bob)
    url = reverse("profile_edit")
    for name, message in (("Alice", "already uses"), ("Bot 2 (Hard)", "look like a bot")):
        response = client.post(url, {"display_name": name, "language": "en"})
        assert response.status_code == 200
        assert any(message in e for e in response.context["form"].errors["display_name"])
    bob.player.refresh_from_db()
    assert bob.player.display_name == "bob"


def test_it_lets_a_player_keep_or_recase_their_own_name(alice):
    client = client_for(alice)
    response = client.post(reverse("profile_edit"), {"display_name": "Alice", "language": "en"})
    assert response.status_code == 302
    alice.player.refresh_from_db()
    assert alice.player.display_name == "Alice"


def test_it_gives_a_new_user_a_free_name_when_the_username_is_taken(make_user, alice):
    alice.player.display_name = "Zed"
    alice.player.save()
    make_user("zed")  # created outside the sign-up form (admin, createsuperuser)
    zed = Player.objects.get(user__username="zed")
    assert names.key(zed.display_name) != names.key("Zed")


def test_it_compares_names_after_normalisation_and_case_folding():
    assert names.key("Straße") == names.key("STRASSE")
    assert names.key("ﬁne") == names.key("FINE")
    assert names.clean("a\u00adb\u202ec") == "abc"


def test_it_lets_a_player_who_shared_a_name_before_the_checks_keep_it(alice, bob):
    # Migration 0007 keeps earlier duplicates under a "#<id>" key.
    Player.objects.filter(user=bob).update(display_name="alice", name_key=f"alice#{bob.pk}")
    player = Player.objects.get(user=bob)
    player.language = "en"
    player.save()
    player.refresh_from_db()
    assert (player.display_name, player.name_key) == ("alice", f"alice#{bob.pk}")
    player.display_name = "Robert"
    player.save(update_fields=["display_name"])
    assert Player.objects.get(user=bob).name_key == "robert"


def test_it_asks_again_when_someone_takes_the_name_between_the_check_and_the_save(
    alice, bob, monkeypatch
):
    # Both passed the check at the same instant; the unique index let Alice in first.
    for where in ("games.models.players", "games.forms.accounts"):
        monkeypatch.setattr(f"{where}.check_display_name", lambda raw, **kw: raw)
    client = client_for(bob)
    response = client.post(reverse("profile_edit"), {"display_name": "Alice", "language": "en"})
    assert response.status_code == 200
    assert any("moment ago" in e for e in response.context["form"].errors["display_name"])
    bob.player.refresh_from_db()
    assert bob.player.display_name == "bob"

    response = _signup(Client(), "newcomer", "ALICE")
    assert response.status_code == 200
    assert any("moment ago" in e for e in response.context["form"].non_field_errors())
    assert not get_user_model().objects.filter(username="newcomer").exists()
