"""The client's address behind a trusted proxy (with Daphne's
--proxy-headers the leftmost X-Forwarded-For entry, which the client writes,
was taken, so prepending one escaped an address lockout)."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from games import ratelimit

pytestmark = pytest.mark.django_db

PROXY = "127.0.0.1"


def _address(hops: int, forwarded: str | None, settings) -> str | None:
    settings.BLOT_TRUSTED_PROXY_HOPS = hops
    extra = {"REMOTE_ADDR": PROXY}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return ratelimit.client_address(RequestFactory().get("/", **extra))


def test_it_takes_the_entry_the_trusted_proxy_wrote_never_the_clients(settings) -> None:
    assert _address(1, "203.0.113.9", settings) == "203.0.113.9"
    assert _address(1, "6.6.6.6, 203.0.113.9", settings) == "203.0.113.9"
    assert _address(2, "6.6.6.6, 203.0.113.9, 10.0.0.2", settings) == "203.0.113.9"


def test_without_trusted_proxies_the_header_is_ignored(settings) -> None:
    assert _address(0, "6.6.6.6", settings) == PROXY
    # Fewer entries than proxies: the request did not come through them.
    assert _address(2, "203.0.113.9", settings) == PROXY
    assert _address(1, None, settings) == PROXY


def test_a_prepended_address_does_not_escape_an_address_lockout(settings, alice) -> None:
    settings.BLOT_TRUSTED_PROXY_HOPS = 1
    settings.AXES_FAILURE_LIMIT = 3
    for n in range(3):
        Client().post(
            reverse("login"),
            {"username": f"nobody{n}", "password": "wrong"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=f"10.1.{n}.1, 198.51.100.7",
        )
    # The same client, another forged entry: still locked out.
    locked = Client().post(
        reverse("login"),
        {"username": "alice", "password": "a-long-enough-Passw0rd"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="10.2.0.1, 198.51.100.7",
    )
    assert locked.status_code == 429
    # Another client behind the same proxy is counted on its own.
    other = Client().post(
        reverse("login"),
        {"username": "alice", "password": "a-long-enough-Passw0rd"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="198.51.100.8",
    )
    assert other.status_code == 302
