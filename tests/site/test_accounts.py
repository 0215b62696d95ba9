"""Sign up, log in and out, password change, profile page and its edit form."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Player
from tests.site.conftest import PASSWORD, client_for, play_match

pytestmark = pytest.mark.django_db


def test_it_signs_up_and_logs_the_user_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "dora",
            "display_name": "Dora the Dealer",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="dora")
    assert user.player.display_name == "Dora the Dealer"
    assert client.get(reverse("lobby")).context["user"] == user


def test_it_uses_the_username_when_no_display_name_is_given(client):
    client.post(
        reverse("signup"),
        {"username": "eve", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert Player.objects.get(user__username="eve").display_name == "eve"


def test_it_refuses_mismatched_passwords(client):
    response = client.post(
        reverse("signup"),
        {"username": "dora", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not get_user_model().objects.filter(username="dora").exists()


def test_it_shows_the_signup_page(client):
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert b"Sign up" in response.content


def test_it_logs_in_and_out(client, alice):
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert client.get(reverse("lobby")).context["user"] == alice
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not client.get(reverse("lobby")).context["user"].is_authenticated


def test_it_refuses_a_wrong_password(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors


def test_it_changes_the_password(alice):
    client = client_for(alice)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "another-Passw0rd-2",
            "new_password2": "another-Passw0rd-2",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    assert client.get(reverse("password_change_done")).status_code == 200
    alice.refresh_from_db()
    assert alice.check_password("another-Passw0rd-2")


def test_it_requires_login_to_change_the_password(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_gives_every_user_a_player_profile(db):
    user = get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    assert user.player.display_name == "root"


def test_it_shows_a_profile_with_statistics(make_table, alice, bob):
    table = make_table(alice, "open_blot", fmt="best_of:1")
    client_for(bob).post(reverse("seat_join", args=[table.pk, 1]))
    match = table.matches.get()
    play_match(match, seed=3)
    match.refresh_from_db()
    response = client_for(bob).get(reverse("profile", args=["alice"]))
    assert response.status_code == 200
    stats = response.context["stats"]
    assert stats.matches_played == 1
    assert stats.matches_won == (1 if match.winner == 0 else 0)
    assert stats.deals_played == match.deals.count()
    assert list(response.context["matches"]) == [match]


def test_it_hides_private_matches_from_other_profiles(make_table, alice, bob, carol):
    table = make_table(alice, "open_blot", is_private=True)
    client_for(bob).post(
        reverse("seat_join", args=[table.pk, 1]), {"invite": table.invite_token}
    )
    assert table.matches.count() == 1
    own = client_for(alice).get(reverse("profile", args=["alice"]))
    assert len(own.context["matches"]) == 1
    other = client_for(carol).get(reverse("profile", args=["alice"]))
    assert len(other.context["matches"]) == 0


def test_it_404s_an_unknown_profile(client):
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_it_edits_the_profile(alice_client, alice):
    response = alice_client.post(
        reverse("profile_edit"), {"display_name": "Queen of Hearts", "language": "en"}
    )
    assert response.status_code == 302
    alice.player.refresh_from_db()
    assert alice.player.display_name == "Queen of Hearts"
    assert response.cookies["django_language"].value == "en"


def test_it_refuses_an_unknown_language(alice_client, alice):
    response = alice_client.post(
        reverse("profile_edit"), {"display_name": "X", "language": "xx"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["language"]


def test_it_serves_a_signed_in_player_in_their_saved_language(alice, settings):
    from django.test import Client

    settings.LANGUAGES = [("en", "English"), ("fr", "French")]
    alice.player.language = "fr"
    alice.player.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    response = client.get(reverse("lobby"))
    assert response["Content-Language"] == "fr"
    anonymous = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("lobby"))
    assert anonymous["Content-Language"] == "en"
