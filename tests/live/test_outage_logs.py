"""During a database outage the log gets one traceback and a count, not a
traceback per refused move or failed poll."""

from __future__ import annotations

import logging

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from games.live.receive import consumers
from games.runtime.lograte import PoolOutageFilter, RateLimitedLog, RepeatedOutageFilter
from tests.live.wsclient import connect, receive_error, receive_table, send_move


def _outage(*args: object, **kwargs: object) -> None:
    raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")


def _tracebacks(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_moves_refused_in_an_outage_log_one_traceback(duel, alice, caplog, monkeypatch):
    fresh = RateLimitedLog(consumers.log, "Storing a move")
    monkeypatch.setattr(consumers, "_move_failures", fresh)
    monkeypatch.setattr(consumers, "submit", _outage)
    ws, _ = await connect(duel.pk, alice)
    await receive_table(ws)
    with caplog.at_level(logging.INFO):
        for _ in range(12):
            await send_move(ws, type="play", card="JH", version=duel.version)
            assert "table-error" in await receive_error(ws)
            await receive_table(ws)
    await ws.disconnect()
    assert len(_tracebacks(caplog)) == 1


@pytest.mark.django_db
def test_polls_failing_in_an_outage_log_one_traceback(caplog, monkeypatch):
    request_log = logging.getLogger("django.request")
    configured = [f for f in request_log.filters if isinstance(f, RepeatedOutageFilter)]
    assert configured, "the settings put no outage filter on django.request"
    monkeypatch.setattr(configured[0], "_last_report", None)  # as after a quiet spell
    monkeypatch.setattr("games.views.lobby._list_context", _outage)
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.INFO):
        for _ in range(20):
            assert client.get(reverse("lobby_tables")).status_code == 500
    assert len(_tracebacks(caplog)) == 1


def test_the_filter_lets_other_failures_through_and_counts_repeats() -> None:
    outage = RepeatedOutageFilter(interval_s=0)  # every repeat reported, as one line

    def record(exc: BaseException) -> logging.LogRecord:
        return logging.LogRecord("django.request", logging.ERROR, "", 0, "Internal Server Error",
                                 (), (type(exc), exc, None))

    assert outage.filter(record(ValueError("a bug")))
    first = record(OperationalError("down"))
    assert outage.filter(first) and first.exc_info
    later = record(OperationalError("down"))
    outage.interval_s = 60
    assert not outage.filter(later)
    outage.interval_s = 0
    summary = record(OperationalError("down"))
    assert outage.filter(summary)
    assert summary.exc_info is None and "1 more database failures" in summary.getMessage()


def test_the_summary_keeps_a_message_with_arguments_whole() -> None:
    """Django logs a failed request as ``"%s: %s"`` with the reason and the path:
    the one-line summary must say that message, not fail formatting it."""
    outage = RepeatedOutageFilter(interval_s=60)

    def record() -> logging.LogRecord:
        exc = OperationalError("down")
        return logging.LogRecord(
            "django.request", logging.ERROR, "", 0, "%s: %s",
            ("Internal Server Error", "/tables/7/"), (type(exc), exc, None),
        )

    assert outage.filter(record())
    assert not outage.filter(record()) and not outage.filter(record())
    outage.interval_s = 0
    summary = record()
    assert outage.filter(summary)
    assert summary.getMessage() == (
        "Internal Server Error: /tables/7/ (2 more database failures like it in the last 0 s, "
        "not shown)"
    )


def test_the_connection_pools_warnings_are_counted_not_repeated(caplog) -> None:
    """While PostgreSQL is away psycopg_pool warns at every try to connect:
    one warning of a run is shown, the rest counted into one line a minute."""
    pool_log = logging.getLogger("psycopg.pool")
    configured = [f for f in pool_log.filters if isinstance(f, PoolOutageFilter)]
    assert configured, "the settings put no filter on psycopg.pool"
    counting = PoolOutageFilter(interval_s=60)

    def warning() -> logging.LogRecord:
        return logging.LogRecord(
            "psycopg.pool", logging.WARNING, "", 0, "error connecting in %r: %s",
            ("pool-1", "Connection refused"), None,
        )

    assert counting.filter(warning())
    assert not any(counting.filter(warning()) for _ in range(30))
    counting.interval_s = 0
    summary = warning()
    assert counting.filter(summary)
    assert summary.getMessage() == (
        "error connecting in 'pool-1': Connection refused (30 more connection pool warnings "
        "like it in the last 0 s, not shown)"
    )
    info = logging.LogRecord("psycopg.pool", logging.INFO, "", 0, "growing pool", (), None)
    assert counting.filter(info)
