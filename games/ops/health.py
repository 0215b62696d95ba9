"""``/health/`` (liveness) and ``/health/ready/`` (readiness), built on
django-health-check's checks and view.

Liveness only says the process answers. Readiness runs, at once, the checks
that apply to this configuration (:func:`readiness_checks`) and answers 200
when all pass, 503 naming each failing part otherwise. The answer names parts
and fixed words only (never an exception's text, a host or a setting); each
check is at most a ``SELECT 1``, a Redis ping, a probe through the channel
layer, a cache GET, or one lookup in an index (the oldest queued analysis).
Both are open without signing in and limited per address
(``BLOT_HEALTH_PER_MINUTE``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import time
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET
from health_check.base import HealthCheck, HealthCheckResult
from health_check.checks import Database
from health_check.contrib.redis import Redis
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView

from games import ratelimit
from games.models import DealAnalysis
from games.runtime import beats

#: Each check's budget; django-health-check gives it one more second to report.
CHECK_TIMEOUT = datetime.timedelta(seconds=3)


@dataclasses.dataclass
class DatabaseCheck(Database):
    """``SELECT 1`` on a connection from the pool (django-health-check's)."""

    timeout = CHECK_TIMEOUT


def _redis_client() -> Any:
    from redis.asyncio import Redis as RedisClient

    return RedisClient.from_url(
        settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
    )


@dataclasses.dataclass
class RedisCheck(Redis):
    """A PING on a fresh connection to ``REDIS_URL`` (django-health-check's)."""

    timeout = CHECK_TIMEOUT
    client_factory: Any = dataclasses.field(repr=False, default=_redis_client)

    def __repr__(self) -> str:  # the library's names the host; ours names nothing
        return "RedisCheck()"


@dataclasses.dataclass
class ChannelLayerCheck(HealthCheck):
    """A message sent to a fresh channel of this process comes back through the
    channel layer (Redis pub/sub): the layer both takes and delivers."""

    timeout = CHECK_TIMEOUT

    async def run(self) -> None:
        layer = get_channel_layer()
        if layer is None:
            raise ServiceUnavailable("no channel layer")
        try:
            channel = await layer.new_channel("blot-health.")  # type: ignore[call-arg]
            async with asyncio.timeout(2):
                await layer.send(channel, {"type": "health.probe"})
                await layer.receive(channel)
        except Exception as exc:  # a receive cut short has dropped its channel already
            raise ServiceUnavailable("no answer") from exc
        # A cancelled receive is the pub/sub layer's only way to drop a channel's
        # subscription: cancel one at once.
        with contextlib.suppress(Exception, asyncio.CancelledError):
            async with asyncio.timeout(0.01):
                await layer.receive(channel)


#: Set once this process has seen every migration applied (they are not unapplied
#: under a running site): later checks cost nothing.
_migrated = False


@dataclasses.dataclass
class MigrationsCheck(HealthCheck):
    """Every migration on disk is applied (read once per process until true)."""

    timeout = CHECK_TIMEOUT

    def run(self) -> None:
        global _migrated
        if _migrated:
            return
        connection = connections[DEFAULT_DB_ALIAS]
        try:
            executor = MigrationExecutor(connection)
            targets = executor.loader.graph.leaf_nodes()
            unapplied = executor.migration_plan(targets)
        except Exception as exc:
            raise ServiceUnavailable("cannot be read") from exc
        finally:
            connection.close()
        if unapplied:
            raise ServiceUnavailable("not applied")
        _migrated = True


def _beat_is_fresh(role: str) -> bool:
    last = beats.last_beat(role)
    return last is not None and time.time() - last <= beats.stale_after_s()


@dataclasses.dataclass
class WorkerCheck(HealthCheck):
    """A worker (``manage.py blotworker``) beat within ``BLOT_BEAT_STALE_S``."""

    timeout = CHECK_TIMEOUT

    def run(self) -> None:
        try:
            fresh = _beat_is_fresh(beats.WORKER)
        except Exception as exc:
            raise ServiceUnavailable("cannot be read") from exc
        if not fresh:
            raise ServiceUnavailable("no fresh heartbeat")


@dataclasses.dataclass
class AnalystCheck(HealthCheck):
    """An analysis queued longer than ``BLOT_BEAT_STALE_S`` while no analyst beat
    within it: analyses wait for an analyst that is not there. One lookup in the
    queued analyses' own index; nothing queued, nothing to check."""

    timeout = CHECK_TIMEOUT

    def run(self) -> None:
        try:
            oldest = (
                DealAnalysis.objects.filter(status=DealAnalysis.Status.QUEUED)
                .order_by("requested_at")
                .values_list("requested_at", flat=True)
                .first()
            )
        except Exception as exc:
            raise ServiceUnavailable("cannot be read") from exc
        finally:
            connections[DEFAULT_DB_ALIAS].close()
        if oldest is None:
            return
        waited = (datetime.datetime.now(datetime.UTC) - oldest).total_seconds()
        if waited <= beats.stale_after_s():
            return
        try:
            fresh = _beat_is_fresh(beats.ANALYST)
        except Exception as exc:
            raise ServiceUnavailable("cannot be read") from exc
        if not fresh:
            raise ServiceUnavailable("analyses wait and no analyst beats")


def readiness_checks() -> dict[str, HealthCheck]:
    """The parts this configuration has, by the name the answer gives them."""
    checks: dict[str, HealthCheck] = {
        "database": DatabaseCheck(),
        "migrations": MigrationsCheck(),
    }
    if settings.REDIS_URL:
        checks["redis"] = RedisCheck()
        checks["channel_layer"] = ChannelLayerCheck()
    if settings.BLOT_CONDUCTOR == "external":
        checks["worker"] = WorkerCheck()
    checks["analyst"] = AnalystCheck()
    return checks


#: The part each part needs: not asked while that one fails (its answer would
#: only repeat the failure, after a timeout of its own).
_NEEDS = {
    "migrations": "database",
    "analyst": "migrations",
    "channel_layer": "redis",
    "worker": "redis",
}


#: Checks whose failure words come from django-health-check, not from here.
_LIBRARY_CHECKS = {"database", "redis"}


def _limited(request: HttpRequest) -> HttpResponse | None:
    limit = ratelimit.Limit(settings.BLOT_HEALTH_PER_MINUTE, 60)
    who = ratelimit.client_address(request) or "unknown"
    if ratelimit.take("health", who, limit) is None:
        response = JsonResponse({"status": "too many requests"}, status=429)
        response["Retry-After"] = "60"
        return response
    return None


def _answer(body: dict[str, Any], status: int) -> JsonResponse:
    response = JsonResponse(body, status=status)
    add_never_cache_headers(response)
    return response


@require_GET
def live(request: HttpRequest) -> HttpResponse:
    """The process answers (nothing else is asked)."""
    return _limited(request) or _answer({"status": "ok"}, 200)


async def _run(checks: dict[str, HealthCheck]) -> dict[str, HealthCheckResult]:
    """Run ``checks`` at once; their results by name."""
    done = await asyncio.gather(*(check.get_result() for check in checks.values()))
    return dict(zip(checks, done, strict=True))


class ReadyView(HealthCheckView):
    """django-health-check's view, answering in the site's JSON shape."""

    http_method_names = ["get", "head"]

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        limited = await sync_to_async(_limited, thread_sensitive=False)(request)
        if limited is not None:
            return limited
        checks = readiness_checks()
        results: dict[str, HealthCheckResult] = {}
        skipped: set[str] = set()
        pending = dict(checks)
        while pending:  # each round: the parts whose own part has answered
            now = {n: c for n, c in pending.items() if _NEEDS.get(n) not in pending}
            for name in list(now):
                need = _NEEDS.get(name)
                if need not in checks:  # this configuration has no such part
                    continue
                if need in skipped or results[need].error is not None:
                    skipped.add(name)
                    del now[name]
            results |= await _run(now)
            pending = {n: c for n, c in pending.items() if n not in results and n not in skipped}
        parts: dict[str, str] = {}
        failing: list[str] = []
        for name in checks:
            if name not in results:
                parts[name] = f"not checked: {_NEEDS[name]} is not ready"
                continue
            error = results[name].error
            if error is None:
                parts[name] = "ok"
                continue
            failing.append(name)
            # The library's own checks may say more than an outsider should read.
            parts[name] = "unavailable" if name in _LIBRARY_CHECKS else str(error.message)
        body = {"status": "unavailable" if failing else "ok", "failing": failing, "checks": parts}
        return _answer(body, 503 if failing else 200)


ready = ReadyView.as_view()
