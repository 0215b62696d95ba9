"""The shared cache (Redis when ``REDIS_URL`` is set), one client per process.

``django.core.cache.cache`` is a new client per thread and per asyncio context:
in Daphne every WebSocket connection and every request is a context of its own,
so each one opened (and left to the garbage collector) its own Redis connection,
with the client's handshake: a spectator's join cost a Redis connect (about
a sixth of a Daphne's time in a storm of joins). One client per process
shares the connection pool, which is thread-safe, across all of them.
"""

from __future__ import annotations

from functools import cache as once
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.signals import setting_changed
from django.dispatch import receiver


@once
def shared() -> BaseCache:
    return caches.create_connection(DEFAULT_CACHE_ALIAS)


@receiver(setting_changed)
def _new_settings(*, setting: str, **kwargs: Any) -> None:
    """A test that points the site at another cache gets a client for it."""
    if setting == "CACHES":
        shared.cache_clear()
