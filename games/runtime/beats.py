"""Heartbeats of the background processes, kept in the shared cache (Redis).

A worker (``manage.py blotworker``) and the analyst (``manage.py analyse``)
each write ``time.time()`` under their role's key every :data:`EVERY_S`
seconds from a thread of their own; ``/health/ready/`` reads the key (one
cache GET) and calls the role stale when the newest beat of any process of it
is older than the setting ``BLOT_BEAT_STALE_S``. The key expires with its
staleness, so a role whose every process is gone reads as never having beaten.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings

from games.runtime.sharedcache import shared

log = logging.getLogger(__name__)

#: Seconds between two beats of one process.
EVERY_S = 5.0
WORKER = "worker"
ANALYST = "analyst"


def key(role: str) -> str:
    return f"blot:beat:{role}"


def stale_after_s() -> float:
    return float(settings.BLOT_BEAT_STALE_S)


def beat(role: str) -> None:
    """Write this process's beat for ``role`` (raises when the cache is away)."""
    shared().set(key(role), time.time(), timeout=max(1, int(stale_after_s())) * 2)


def last_beat(role: str) -> float | None:
    """When any process of ``role`` last beat (``time.time()``), or ``None``."""
    value = shared().get(key(role))
    return float(value) if value is not None else None


class Beater:
    """A daemon thread beating for ``role`` until :meth:`stop`. A failed write
    (Redis away) is retried at the next beat and logged at debug level: the
    health check says that Redis is away, not the beat."""

    def __init__(self, role: str, every_s: float = EVERY_S) -> None:
        self.role = role
        self.every_s = every_s
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"beat-{role}", daemon=True)

    def start(self) -> Beater:
        self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            try:
                beat(self.role)
            except Exception:
                log.debug("could not write the %s heartbeat", self.role, exc_info=True)
            if self._stopping.wait(self.every_s):
                return

    def stop(self) -> None:
        self._stopping.set()
