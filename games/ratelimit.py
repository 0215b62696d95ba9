"""Counting actions per user or per address in fixed time windows.

The counts live in Django's cache: local memory on the embedded default, Redis
when ``REDIS_URL`` is set, so a limit holds across every web process. A window
is a fixed slice of time (e.g. the current hour); the count of the window is a
cache key that expires with it. Fixed windows let a burst straddle two windows
(at most twice the limit in a moment), which is fine for limits meant to stop
floods, not to meter.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest

from games.runtime.sharedcache import shared

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions per ``seconds``."""

    count: int
    seconds: int

    @classmethod
    def parse(cls, value: tuple[int, int] | list[int]) -> Limit:
        count, seconds = value
        return cls(int(count), int(seconds))


def client_address(request: HttpRequest) -> str | None:
    """The address a request came from (``None`` when the server gave none, as for
    a test client's forced login). Also django-axes' AXES_CLIENT_IP_CALLABLE, so
    lockouts and limits count the same address.

    Behind ``BLOT_TRUSTED_PROXY_HOPS`` proxies (each appending the address it
    heard from to X-Forwarded-For), the client is the entry the outermost trusted
    proxy wrote: the ``hops``-th from the right. Whatever the client wrote itself
    is to the left of it and is never read (taking the leftmost entry would
    let a client choose the address it was counted under). Without trusted
    proxies, or when the header has fewer entries than there are proxies (the
    request did not come through them), it is the connection's own address."""
    hops = settings.BLOT_TRUSTED_PROXY_HOPS
    if hops > 0:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
        if len(entries) >= hops:
            return entries[-hops]
    return request.META.get("REMOTE_ADDR") or None


def _key(scope: str, who: str, limit: Limit, now: float) -> str:
    window = int(now // limit.seconds)
    # Hashed: addresses and user ids are not kept readable in the cache.
    digest = hashlib.sha256(f"{scope}\0{who}".encode()).hexdigest()[:32]
    return f"ratelimit:{scope}:{digest}:{limit.seconds}:{window}"


class _QuietLog:
    """Logs a repeated failure once per interval, with how often it happened."""

    def __init__(self, interval_s: float = 60) -> None:
        self.interval_s = interval_s
        self.last = -interval_s
        self.missed = 0

    def warning(self, message: str) -> None:
        now = time.monotonic()
        if now - self.last < self.interval_s:
            self.missed += 1
            return
        log.warning("%s (%d more since the last report)", message, self.missed)
        self.last, self.missed = now, 0


_cache_trouble = _QuietLog()


def used(scope: str, who: str, limit: Limit) -> int:
    """How many actions ``who`` took in ``scope`` in the current window."""
    try:
        return int(shared().get(_key(scope, who, limit, time.time()), 0))
    except Exception:  # the cache (Redis) is down: let people play, say so once
        _cache_trouble.warning("rate limits: the cache cannot be read; not limiting")
        return 0


def exceeded(scope: str, who: str, limit: Limit) -> bool:
    """Would one more action go over the limit?"""
    return used(scope, who, limit) >= limit.count


class Ticket:
    """One action counted by :func:`take`; :meth:`give_back` uncounts it when the
    action did not happen after all (the form failed, the service refused)."""

    def __init__(self, key: str | None) -> None:
        self._key = key

    def give_back(self) -> None:
        key, self._key = self._key, None
        if key is None:
            return
        # Gone with its window, or the cache is away: nothing to undo.
        with contextlib.suppress(Exception):
            shared().decr(key)


def _count_one(key: str, seconds: int) -> int:
    """Add one to ``key`` atomically and return the new count (Redis INCR; the
    local-memory cache holds a lock)."""
    shared().add(key, 0, timeout=seconds + 1)
    try:
        return int(shared().incr(key))
    except ValueError:  # the key expired between add() and incr()
        if shared().add(key, 1, timeout=seconds + 1):
            return 1
        return int(shared().incr(key))


def take(scope: str, who: str, limit: Limit) -> Ticket | None:
    """Count one action of ``who`` in ``scope`` *before* doing it: a
    :class:`Ticket` when it is within the limit, ``None`` (and nothing counted)
    when it would go over. The count is one atomic increment, so of many
    requests arriving at once exactly ``limit.count`` get a ticket (checking
    first and counting after the work let every one of them through)."""
    key = _key(scope, who, limit, time.time())
    try:
        count = _count_one(key, limit.seconds)
    except Exception:  # the cache is down: the action goes ahead, uncounted
        _cache_trouble.warning("rate limits: the cache cannot be written; not limiting")
        return Ticket(None)
    ticket = Ticket(key)
    if count > limit.count:
        ticket.give_back()
        return None
    return ticket


#: How long a turn is held at most if its process dies while holding it.
TURN_TTL_S = 30
#: How long a request waits for its turn before giving up.
TURN_WAIT_S = 20.0


class TurnTimeout(Exception):
    """Waited :data:`TURN_WAIT_S` for a turn that never came."""


@contextlib.contextmanager
def one_at_a_time(scope: str, who: str) -> Iterator[None]:
    """Judge the actions of ``who`` in ``scope`` one after another, across every
    process (a lock in the shared cache): what the previous one stored is seen
    by the next. Login attempts use it (without it, of 40 sent at once 18
    were judged against a limit of 10, as each read the stored failures before
    any was written). When the cache is away the action goes ahead unserialised."""
    digest = hashlib.sha256(f"{scope}\0{who}".encode()).hexdigest()[:32]
    key = f"turn:{scope}:{digest}"
    token = uuid.uuid4().hex
    deadline = time.monotonic() + TURN_WAIT_S
    try:
        while not shared().add(key, token, timeout=TURN_TTL_S):
            if time.monotonic() > deadline:
                raise TurnTimeout(scope)
            time.sleep(0.005)
    except TurnTimeout:
        raise
    except Exception:
        _cache_trouble.warning("rate limits: the cache cannot be written; not serialising")
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            if shared().get(key) == token:
                shared().delete(key)

