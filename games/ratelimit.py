"""Counting actions per user or per address in fixed time windows (issue 10).

The counts live in Django's cache: local memory on the embedded default, Redis
when ``REDIS_URL`` is set, so a limit holds across every web process. A window
is a fixed slice of time (e.g. the current hour); the count of the window is a
cache key that expires with it. Fixed windows let a burst straddle two windows
(at most twice the limit in a moment), which is fine for limits meant to stop
floods, not to meter.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions per ``seconds``."""

    count: int
    seconds: int

    @classmethod
    def parse(cls, value: tuple[int, int] | list[int]) -> Limit:
        count, seconds = value
        return cls(int(count), int(seconds))


def client_address(request: HttpRequest) -> str:
    """The address a request came from. Behind a proxy, Daphne's --proxy-headers
    puts the client's address here from X-Forwarded-For (README, Operations); the
    header itself is never read, as any client could forge it."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(scope: str, who: str, limit: Limit, now: float) -> str:
    window = int(now // limit.seconds)
    # Hashed: addresses and user ids are not kept readable in the cache.
    digest = hashlib.sha256(f"{scope}\0{who}".encode()).hexdigest()[:32]
    return f"ratelimit:{scope}:{digest}:{limit.seconds}:{window}"


def used(scope: str, who: str, limit: Limit) -> int:
    """How many actions ``who`` took in ``scope`` in the current window."""
    return int(cache.get(_key(scope, who, limit, time.time()), 0))


def exceeded(scope: str, who: str, limit: Limit) -> bool:
    """Would one more action go over the limit?"""
    return used(scope, who, limit) >= limit.count


def record(scope: str, who: str, limit: Limit) -> None:
    """Count one action of ``who`` in ``scope``."""
    key = _key(scope, who, limit, time.time())
    # add() then incr(): both atomic on Redis, so concurrent processes count right.
    cache.add(key, 0, timeout=limit.seconds + 1)
    try:
        cache.incr(key)
    except ValueError:  # the window ended between add() and incr()
        cache.add(key, 1, timeout=limit.seconds + 1)
