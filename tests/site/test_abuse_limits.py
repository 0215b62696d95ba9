"""Login lockout, sign-up and table-creation limits."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import ratelimit
from games.models import Table
from games.services import ServiceError
from tests.site.conftest import PASSWORD, client_for, default_rule_set

pytestmark = pytest.mark.django_db


def _login(client: Client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def _logged_in(client: Client) -> bool:
    return client.get(reverse("lobby")).context["user"].is_authenticated


def test_it_locks_a_username_out_after_repeated_wrong_passwords(settings, alice):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "alice", "wrong-password")
    response = _login(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed attempts to log in" in response.content.decode()
    assert "15 minutes" in response.content.decode()
    assert not _logged_in(client)


def test_it_locks_a_username_out_whatever_address_the_guesses_come_from(settings, alice):
    client = Client()
    for n in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "alice", "wrong-password", address=f"10.0.1.{n}")
    assert _login(client, "alice", PASSWORD, address="10.0.2.1").status_code == 429
    assert not _logged_in(client)


def test_it_locks_an_address_out_that_guesses_many_usernames(settings, alice):
    client = Client()
    for n in range(settings.AXES_FAILURE_LIMIT):
        _login(client, f"user{n}", "wrong-password", address="10.0.3.1")
    assert _login(client, "alice", PASSWORD, address="10.0.3.1").status_code == 429
    assert not _logged_in(client)


def test_it_still_lets_a_player_in_after_a_few_mistakes(settings, alice):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "alice", "wrong-password")
    assert _login(client, "alice", PASSWORD).status_code == 302
    assert _logged_in(client)


def test_it_lets_the_player_in_again_after_the_cool_off(settings, alice):
    from axes.models import AccessAttempt

    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "alice", "wrong-password")
    # The cool-off is over when the attempts are older than it; move them back.
    from django.utils import timezone

    AccessAttempt.objects.update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME * 2
    )
    assert _login(client, "alice", PASSWORD).status_code == 302


def _signup(client: Client, username: str, address: str):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
    )


def test_it_limits_sign_ups_per_address(settings):
    settings.BLOT_SIGNUPS_PER_ADDRESS_HOURLY = 3
    for n in range(3):
        assert _signup(Client(), f"newcomer{n}", "10.0.4.1").status_code == 302
    response = _signup(Client(), "one-too-many", "10.0.4.1")
    assert response.status_code == 429
    assert "Too many accounts were created from your network" in response.content.decode()
    assert not get_user_model().objects.filter(username="one-too-many").exists()
    # Another address is not affected.
    assert _signup(Client(), "elsewhere", "10.0.4.2").status_code == 302


def _create(client: Client, address: str = "10.0.5.1", **seats):
    payload = {
        "variant": "open_blot",
        "format": "first_to:501",
        "rule_set": default_rule_set("open_blot").pk,
        "seat_1": seats.get("seat_1", "open"),
        "turn_seconds": 30,
        "disconnect_grace_seconds": 60,
        "bot_delay_ms": 700,
    }
    return client.post(reverse("table_create"), payload, REMOTE_ADDR=address)


def test_it_limits_table_creation_per_user(settings, alice, make_table):
    settings.BLOT_TABLES_PER_USER_HOURLY = 2
    client = client_for(alice)
    assert _create(client, address="10.0.5.1").status_code == 302
    assert _create(client, address="10.0.5.2").status_code == 302
    response = _create(client, address="10.0.5.3")
    assert response.status_code == 200
    assert "You have created 2 tables in the last hour" in response.content.decode()
    assert Table.objects.filter(created_by=alice).count() == 2
    # The service is the one path every creation takes: it refuses too.
    with pytest.raises(ServiceError):
        make_table(alice, "open_blot")


def test_it_limits_table_creation_per_address(settings, alice, bob):
    settings.BLOT_TABLES_PER_ADDRESS_HOURLY = 2
    assert _create(client_for(alice), address="10.0.6.1").status_code == 302
    assert _create(client_for(bob), address="10.0.6.1").status_code == 302
    response = _create(client_for(bob), address="10.0.6.1")
    assert "Too many tables were created from your network" in response.content.decode()
    assert Table.objects.count() == 2
    assert _create(client_for(bob), address="10.0.6.2").status_code == 302


def test_it_limits_the_running_bot_tables_of_one_user(settings, alice, make_table):
    settings.BLOT_BOT_TABLES_PER_USER = 2
    client = client_for(alice)
    assert _create(client, seat_1="easy").status_code == 302
    assert _create(client, seat_1="hard").status_code == 302
    response = _create(client, seat_1="normal")
    assert "You already have 2 tables with bots running" in response.content.decode()
    assert Table.objects.filter(created_by=alice).count() == 2
    # A table for people only is still allowed...
    assert _create(client, seat_1="open").status_code == 302
    # ...and a bot table again once one of the others has ended.
    ended = Table.objects.filter(created_by=alice, seats__bot_level="easy").get()
    ended.status = Table.Status.FINISHED
    ended.save(update_fields=["status"])
    assert _create(client, seat_1="normal").status_code == 302


def test_it_lets_people_create_tables_when_the_cache_is_down(
    settings, alice, caplog, monkeypatch
):
    # Redis restarting must not stop play: the limits fail open, logged once.
    monkeypatch.setattr(ratelimit, "_cache_trouble", ratelimit._QuietLog())
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens on the discard port
        }
    }
    client = client_for(alice)
    for n in range(3):
        assert _create(client, address=f"10.0.7.{n}").status_code == 302
    assert Table.objects.filter(created_by=alice).count() == 3
    warnings = [r for r in caplog.records if "rate limits" in r.getMessage()]
    assert len(warnings) == 1
    assert not any(r.exc_info for r in warnings)
