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
import logging
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest

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
    a test client's forced login). Behind a proxy, Daphne's --proxy-headers puts
    the client's address here from X-Forwarded-For (docs/operations.md); the
    header itself is never read, as any client could forge it. Also django-axes'
    AXES_CLIENT_IP_CALLABLE, so lockouts and limits count the same address."""
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
        return int(cache.get(_key(scope, who, limit, time.time()), 0))
    except Exception:  # the cache (Redis) is down: let people play, say so once
        _cache_trouble.warning("rate limits: the cache cannot be read; not limiting")
        return 0


def exceeded(scope: str, who: str, limit: Limit) -> bool:
    """Would one more action go over the limit?"""
    return used(scope, who, limit) >= limit.count


def record(scope: str, who: str, limit: Limit) -> None:
    """Count one action of ``who`` in ``scope``."""
    key = _key(scope, who, limit, time.time())
    try:
        # add() then incr(): both atomic on Redis, so concurrent processes count right.
        cache.add(key, 0, timeout=limit.seconds + 1)
        try:
            cache.incr(key)
        except ValueError:  # the window ended between add() and incr()
            cache.add(key, 1, timeout=limit.seconds + 1)
    except Exception:  # the cache is down: the action stands, uncounted
        _cache_trouble.warning("rate limits: the cache cannot be written; not counting")
