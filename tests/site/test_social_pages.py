"""The pages of following and challenges: the player page's buttons and form,
the list of people you follow, answering from the notices, and the person's
socket on every page for a signed-in person only."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.live.store import presence
from games.models import Challenge, Follow, Table
from games.services import social
from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_signed_in_page_opens_the_persons_socket_and_a_signed_out_one_does_not(
    alice_client,
) -> None:
    for url in (reverse("lobby"), reverse("tournament_list"), reverse("profile", args=["alice"])):
        page = alice_client.get(url).content.decode()
        assert page.count('ws-connect="/ws/person/"') == 1
        assert 'id="person-notices"' in page and "js/person.js" in page
    page = Client().get(reverse("lobby")).content.decode()
    assert "/ws/person/" not in page and "person-notices" not in page


def test_a_player_page_offers_follow_and_a_challenge_to_others_only(
    alice, bob, alice_client
) -> None:
    page = alice_client.get(reverse("profile", args=["bob"])).content.decode()
    assert 'data-action="follow"' in page and 'data-action="challenge"' in page
    own = alice_client.get(reverse("profile", args=["alice"])).content.decode()
    assert 'data-action="follow"' not in own and 'data-action="challenge"' not in own
    anonymous = Client().get(reverse("profile", args=["bob"])).content.decode()
    assert 'data-action="challenge"' not in anonymous
    assert "Log in to follow or challenge this player." in anonymous


def test_following_from_the_player_page_and_back(alice, bob, alice_client) -> None:
    response = alice_client.post(reverse("follow", args=["bob"]))
    assert response.status_code == 302
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    page = alice_client.get(reverse("profile", args=["bob"])).content.decode()
    assert 'data-action="unfollow"' in page
    alice_client.post(reverse("unfollow", args=["bob"]))
    assert not Follow.objects.exists()
    # A GET changes nothing; a signed-out visitor is sent to log in.
    assert alice_client.get(reverse("follow", args=["bob"])).status_code == 405
    assert Client().post(reverse("follow", args=["bob"])).status_code == 302
    assert not Follow.objects.exists()


def test_the_follow_list_shows_who_is_online_and_where_to_watch(
    alice, bob, carol, alice_client, make_table
) -> None:
    social.follow(alice, bob)
    social.follow(alice, carol)
    table = make_table(bob, "open_blot", others=["easy"])
    presence.live_set.open("person-test-channel", None, bob.pk, None)
    presence.live_set.flush(0)
    try:
        page = alice_client.get(reverse("following")).content.decode()
    finally:
        presence.live_set.close("person-test-channel")
        presence.live_set.flush(0)
    assert 'data-person="bob" data-online="1"' in page
    assert 'data-person="carol" data-online="0"' in page
    assert page.index('data-person="bob"') < page.index('data-person="carol"')  # online first
    assert f'data-watch-table="{table.pk}" href="{table.get_absolute_url()}"' in page
    assert page.count('data-action="challenge"') == 2
    assert 'data-nav="following"' in page


def test_a_challenge_is_sent_from_the_player_page(alice, bob, alice_client) -> None:
    response = alice_client.post(
        reverse("challenge", args=["bob"]),
        {"variant": "open_blot", "format": "best_of:3", "rated": "1", "partner": ""},
    )
    assert response.status_code == 302
    made = Challenge.objects.get()
    assert (made.challenger, made.challenged, made.format, made.rated) == (
        alice,
        bob,
        "best_of:3",
        True,
    )
    page = alice_client.get(response["Location"]).content.decode()
    assert "Challenge sent. It expires if nobody answers within 10 minutes." in page
    assert "data-challenge-waiting" in page
    bobs = client_for(bob).get(reverse("lobby")).content.decode()
    assert f'data-challenge="{made.pk}"' in bobs and 'data-action="accept"' in bobs


def test_a_bad_challenge_says_why_and_changes_nothing(alice, alice_client) -> None:
    response = alice_client.post(
        reverse("challenge", args=["alice"]),
        {"variant": "open_blot", "format": "best_of:3"},
        follow=True,
    )
    assert "You cannot challenge yourself." in response.content.decode()
    response = alice_client.post(
        reverse("challenge", args=["alice"]), {"variant": "open_blot", "format": "first_to:1000"}
    )
    assert not Challenge.objects.exists()
    assert Client().post(reverse("challenge", args=["alice"]), {}).status_code == 302
    assert not Challenge.objects.exists()


def test_accepting_from_the_notice_sends_the_page_to_the_table(alice, bob) -> None:
    made = social.create_challenge(alice, bob, variant="open_blot", fmt="best_of:1")
    bobs = client_for(bob)
    response = bobs.post(
        reverse("challenge_answer", args=[made.pk, "accept"]), HTTP_HX_REQUEST="true"
    )
    table = Table.objects.get()
    assert response.status_code == 204 and response["HX-Redirect"] == table.get_absolute_url()
    # Without htmx: a plain redirect.
    made = social.create_challenge(alice, bob, variant="open_blot", fmt="best_of:3")
    response = bobs.post(reverse("challenge_answer", args=[made.pk, "accept"]))
    made.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == made.table.get_absolute_url()


def test_a_stale_or_foreign_answer_is_said_in_the_notices(alice, bob, carol) -> None:
    made = social.create_challenge(alice, bob, variant="open_blot", fmt="best_of:1")
    response = client_for(carol).post(
        reverse("challenge_answer", args=[made.pk, "accept"]), HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200 and 'hx-swap-oob="true"' in body
    assert "This challenge is not addressed to you." in body
    social.decline(made.pk, bob)
    response = client_for(bob).post(
        reverse("challenge_answer", args=[made.pk, "accept"]), HTTP_HX_REQUEST="true"
    )
    assert "This challenge has been declined." in response.content.decode()
    assert not Table.objects.exists()
    assert (
        client_for(bob).post(reverse("challenge_answer", args=[made.pk, "nonsense"])).status_code
        == 404
    )


def test_staff_read_challenges_in_the_admin(admin_client, alice, bob) -> None:
    made = social.create_challenge(alice, bob, variant="open_blot", fmt="best_of:1")
    listing = admin_client.get(reverse("admin:games_challenge_changelist"), {"q": "alice"})
    assert listing.status_code == 200 and "best_of:1" in listing.content.decode()
    page = admin_client.get(reverse("admin:games_challenge_change", args=[made.pk]))
    assert page.status_code == 200  # shown, read only
    assert admin_client.get(reverse("admin:games_challenge_add")).status_code == 403
