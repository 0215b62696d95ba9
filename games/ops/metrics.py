"""``GET /metrics``: the site's Prometheus series (games/runtime/metrics.py).

Closed to the public: answered only to a bearer token equal to
``BLOT_METRICS_TOKEN`` or to an address in ``BLOT_METRICS_ADDRESSES``
(addresses or networks); with neither set, only to a request from the machine
itself (127.0.0.1 or ::1) that no proxy forwarded. Anything else gets 403.

Which processes it answers for: with ``PROMETHEUS_MULTIPROC_DIR`` set, every
process of the machine that writes to that directory (each Daphne, the worker,
the analyst: prometheus-client's multiprocess mode), so one scrape of any web
process is the whole machine; without it, this process alone. A worker on a
machine without a web process serves the same text on ``BLOT_METRICS_PORT``
(``manage.py blotworker``, :func:`serve_in_thread`).
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games.models import DealAnalysis
from games.ratelimit import client_address
from games.runtime import metrics as _series  # noqa: F401 - declares the series

log = logging.getLogger(__name__)

LOOPBACK = ("127.0.0.1", "::1")


def _networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(a, strict=False) for a in settings.BLOT_METRICS_ADDRESSES]


def allowed(address: str | None, forwarded: bool, authorization: str) -> bool:
    """Whether a scrape from ``address`` (``forwarded``: it came through a proxy
    the site does not count as trusted) with this Authorization header may read."""
    token = settings.BLOT_METRICS_TOKEN
    if token:
        scheme, _, given = authorization.partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(given.strip(), token):
            return True
    if address is None:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if settings.BLOT_METRICS_ADDRESSES:
        return any(ip in network for network in _networks())
    if token:
        return False
    return not forwarded and address in LOOPBACK


class QueueCollector(Collector):
    """Site-wide figures read from the database at each scrape (one indexed count)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            queued = DealAnalysis.objects.filter(status=DealAnalysis.Status.QUEUED).count()
        except Exception:  # the database is away: the series is missing this time
            log.debug("metrics: could not count queued analyses", exc_info=True)
            return
        finally:
            connections[DEFAULT_DB_ALIAS].close()
        yield GaugeMetricFamily(
            "blot_analyses_queued", "Deal analyses waiting for the analyst (site-wide).", queued
        )


_LIVE_GAUGE_FILE = re.compile(r"^gauge_live\w*?_(\d+)\.db$")


def forget_dead_processes(directory: str) -> None:
    """Drop the gauges of processes of this machine that are gone (a Daphne
    restarted or killed): their open sockets are not open any more. Counters
    and histograms stay, so totals do not fall when a process ends."""
    for name in os.listdir(directory):
        found = _LIVE_GAUGE_FILE.match(name)
        if found is None:
            continue
        pid = int(found.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, directory)
        except PermissionError:  # alive, another user's
            pass


def exposition() -> bytes:
    """The Prometheus text of this process, or of every process of the machine."""
    if settings.PROMETHEUS_MULTIPROC_DIR:
        forget_dead_processes(settings.PROMETHEUS_MULTIPROC_DIR)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    queue = CollectorRegistry()
    queue.register(QueueCollector())
    return text + generate_latest(queue)


def _forwarded_untrusted(x_forwarded_for: str) -> bool:
    return bool(x_forwarded_for) and settings.BLOT_TRUSTED_PROXY_HOPS == 0


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(
        client_address(request),
        _forwarded_untrusted(request.META.get("HTTP_X_FORWARDED_FOR", "")),
        request.META.get("HTTP_AUTHORIZATION", ""),
    ):
        return HttpResponse("Forbidden\n", status=403, content_type="text/plain")
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)


def wsgi_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """The worker's ``/metrics``: the same text and the same rule (it has no proxy)."""
    if environ.get("PATH_INFO") != "/metrics":
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"Not found\n"]
    if not allowed(
        environ.get("REMOTE_ADDR"),
        bool(environ.get("HTTP_X_FORWARDED_FOR")),
        environ.get("HTTP_AUTHORIZATION", ""),
    ):
        start_response("403 Forbidden", [("Content-Type", "text/plain")])
        return [b"Forbidden\n"]
    start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST)])
    return [exposition()]


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # scrapes are not news
        pass


def serve_in_thread(port: int, host: str = "0.0.0.0") -> WSGIServer:
    """Serve :func:`wsgi_app` on ``host:port`` from a daemon thread."""
    server = make_server(host, port, wsgi_app, handler_class=_QuietHandler)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    return server
