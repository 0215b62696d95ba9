"""Limits hold when the requests arrive at once.

Each test fires its requests from many threads released together by a barrier,
through Django's full request handling, against the configured database (SQLite
by default, PostgreSQL with DATABASE_URL) and cache, and asserts the limit
exactly: the old code checked a count before the expensive work and wrote it
after, so twenty sign-ups at once made twenty accounts.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connections
from django.test import Client
from django.urls import reverse

from games.models import Table
from tests.site.conftest import PASSWORD, client_for, default_rule_set

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _patient_pool() -> Iterator[None]:
    """Thirty requests at once queue for the connection pool's few connections.
    The site gives up on one after 5 s, to see a database outage quickly; on a
    busy CI machine a queue of thirty can take longer than that without anything
    being wrong. These tests are about the limits, so here requests wait for a
    connection as long as it takes."""
    pool = getattr(connections["default"], "pool", None)
    if pool is None:  # SQLite, or the pool switched off
        yield
        return
    before, pool.timeout = pool.timeout, 120.0
    try:
        yield
    finally:
        pool.timeout = before


def at_once(count: int, request: Callable[[int], int]) -> Counter[int]:
    """Run ``request(n)`` for n in range(count), all released at the same moment;
    the status codes they answered, counted."""
    barrier = threading.Barrier(count)

    def one(n: int) -> int:
        try:
            barrier.wait(timeout=30)
            return request(n)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(count) as pool:
        return Counter(pool.map(one, range(count)))


def test_twenty_sign_ups_at_once_from_one_address_make_exactly_the_limit(settings) -> None:
    settings.BLOT_SIGNUPS_PER_ADDRESS_HOURLY = 5

    def sign_up(n: int) -> int:
        return Client().post(
            reverse("signup"),
            {"username": f"racer{n}", "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR="10.9.0.1",
        ).status_code

    statuses = at_once(20, sign_up)
    assert statuses == Counter({302: 5, 429: 15})
    assert get_user_model().objects.filter(username__startswith="racer").count() == 5


class CountingHasher(MD5PasswordHasher):
    """The tests' fast hasher, counting the passwords it checks."""

    checked = 0
    lock = threading.Lock()

    def verify(self, password: str, encoded: str) -> bool:
        with CountingHasher.lock:
            CountingHasher.checked += 1
        return super().verify(password, encoded)


def test_forty_logins_at_once_are_judged_no_more_than_the_limit(settings, alice) -> None:
    settings.AXES_FAILURE_LIMIT = 10
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    CountingHasher.checked = 0

    def guess(n: int) -> int:
        return Client().post(
            reverse("login"),
            {"username": "alice", "password": f"wrong-{n}"},
            REMOTE_ADDR="10.9.0.2",
        ).status_code

    statuses = at_once(40, guess)
    # Exactly ten passwords were checked; the tenth failure already answers with
    # the lockout (429), as django-axes does, and the thirty after it were
    # refused before their password was checked.
    assert CountingHasher.checked == 10
    assert statuses == Counter({200: 9, 429: 31})
    # The right password is refused too now: the username is locked out.
    response = Client().post(
        reverse("login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.9.0.3"
    )
    assert response.status_code == 429


def test_thirty_table_creations_at_once_make_exactly_the_hourly_limit(settings, alice) -> None:
    settings.BLOT_TABLES_PER_USER_HOURLY = 7
    rule_set = default_rule_set("open_blot").pk
    client = client_for(alice)
    cookie = client.cookies

    def create(n: int) -> int:
        one = Client()
        one.cookies = cookie
        return one.post(
            reverse("table_create"),
            {
                "variant": "open_blot",
                "format": "first_to:501",
                "rule_set": rule_set,
                "seat_1": "open",
                "turn_seconds": 30,
                "disconnect_grace_seconds": 60,
                "bot_delay_ms": 700,
            },
            REMOTE_ADDR=f"10.9.1.{n}",
        ).status_code

    statuses = at_once(30, create)
    assert statuses[302] == 7
    assert Table.objects.filter(created_by=alice).count() == 7


class SlowCache:
    """The shared cache with a few milliseconds on every call, as a Redis across
    a network has: what one process reads may be stale before it writes."""

    def __init__(self, cache) -> None:
        self._cache = cache

    def __getattr__(self, name: str):
        real = getattr(self._cache, name)
        if not callable(real):
            return real

        def slow(*args, **kwargs):
            time.sleep(0.01)
            return real(*args, **kwargs)

        return slow


@pytest.mark.parametrize(
    ("burst", "sustained", "sent", "refusal"),
    [
        ((5, 60), (30, 600), 20, "You are sending messages too fast."),
        ((100, 600), (30, 600), 40, "You have sent a lot of messages"),
    ],
)
def test_chat_messages_sent_at_once_are_stored_exactly_up_to_the_limit(
    settings, monkeypatch, make_table, alice, carol, burst, sustained, sent, refusal
) -> None:
    """One person's messages sent at once from many sockets and processes (here
    threads, through a cache as slow as a network's) store exactly the limit:
    checking the count and adding to it afterwards let several through on the
    same count (20 at once on two Daphnes stored 6 with a limit of 5)."""
    from games import ratelimit
    from games.models import ChatMessage, Room
    from games.services import chat as chat_service
    from games.services.errors import ServiceError

    settings.BLOT_CHAT_BURST = burst
    settings.BLOT_CHAT_SUSTAINED = sustained
    table = make_table(alice, "belote")
    slow = SlowCache(ratelimit.shared())
    monkeypatch.setattr(ratelimit, "shared", lambda: slow)
    where = chat_service.Where(Room.SPECTATORS, table_id=table.pk)
    refusals: list[str] = []

    def say(n: int) -> int:
        try:
            chat_service.post(where, carol, phrase="hello")
        except ServiceError as exc:
            refusals.append(str(exc.message))
            return 429
        return 200

    # The limits count in fixed windows: a burst across a window's end may
    # rightly store up to twice the limit. Start well inside both windows.
    while any(time.time() % seconds > seconds - 5 for _count, seconds in (burst, sustained)):
        time.sleep(0.5)
    statuses = at_once(sent, say)
    limit = min(burst[0], sustained[0])
    assert statuses == Counter({200: limit, 429: sent - limit})
    assert ChatMessage.objects.filter(author=carol).count() == limit
    assert all(refusal in r for r in refusals)
