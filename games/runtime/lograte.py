"""Logging a repeated failure once per interval, with a count, instead of a
traceback per attempt (a database outage must not flood the log)."""

from __future__ import annotations

import logging
import threading
import time

from games.runtime import metrics

INTERVAL_S = 60.0


class RateLimitedLog:
    """The first failure of a kind is logged with its traceback; repeats within
    ``interval_s`` are counted and summarised in one line when the interval ends
    or when the failure stops (:meth:`recovered`)."""

    def __init__(self, logger: logging.Logger, what: str, interval_s: float = INTERVAL_S) -> None:
        self.logger = logger
        self.what = what
        self.interval_s = interval_s
        self._lock = threading.Lock()
        self._since: float | None = None  # when the current run of failures began
        self._last_report = 0.0
        self._count = 0  # failures not reported yet

    @property
    def failing(self) -> bool:
        return self._since is not None

    def failed(self, exc: BaseException) -> None:
        now = time.monotonic()
        with self._lock:
            first = self._since is None
            if first:
                self._since = self._last_report = now
                self._count = 0
            else:
                self._count += 1
                if now - self._last_report < self.interval_s:
                    return
                count, self._count, self._last_report = self._count, 0, now
        if first:
            metrics.outages.labels(what=self.what).inc()
            self.logger.error("%s failed: %s", self.what, exc, exc_info=exc)
        else:
            self.logger.error(
                "%s failed %d more times in the last %.0f s (still failing: %s)",
                self.what,
                count,
                self.interval_s,
                exc,
            )

    def recovered(self) -> None:
        with self._lock:
            if self._since is None:
                return
            lasted, count = time.monotonic() - self._since, self._count
            self._since, self._count = None, 0
        self.logger.warning(
            "%s works again after %.1f s (%d failures not logged singly)", self.what, lasted, count
        )


def _is_outage(exc: BaseException | None) -> bool:
    from django.db import DatabaseError, InterfaceError

    return isinstance(exc, DatabaseError | InterfaceError)


class RepeatedOutageFilter(logging.Filter):
    """A logging filter for loggers that report every failed request (Django's
    ``django.request``): while the database is away every page and poll fails,
    and each failure logged its whole traceback. The first database failure of
    a run keeps its traceback; the rest within ``interval_s`` are counted, and
    the first one after the interval is logged as one line with the count. Other
    failures pass untouched."""

    #: What the summary line says it left out.
    kind = "database failures"

    def __init__(self, interval_s: float = INTERVAL_S) -> None:
        super().__init__()
        self.interval_s = interval_s
        self._lock = threading.Lock()
        self._last_report: float | None = None
        self._count = 0

    def repeats(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is one of the repeated kind this filter counts."""
        return record.exc_info is not None and _is_outage(record.exc_info[1])

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.repeats(record):
            return True
        now = time.monotonic()
        with self._lock:
            last = self._last_report
            if last is not None and now - last < self.interval_s:
                self._count += 1
                return False
            count, self._count, self._last_report = self._count, 0, now
            # A quiet interval since the last report ended the run: a new run
            # shows its traceback again.
            if last is None or count == 0:
                return True
        # The message as logged, formatted with its own arguments before the
        # record's message is replaced by the summary's.
        said = record.getMessage()
        record.msg = "%s (%d more %s like it in the last %.0f s, not shown)"
        record.args = (said, count, self.kind, self.interval_s)
        record.exc_info = None
        record.exc_text = None
        return True


class PoolOutageFilter(RepeatedOutageFilter):
    """The same for psycopg_pool's own log (``psycopg.pool``): while PostgreSQL
    is away each try to open a connection, and each attempt given up, is a
    warning, several a second per process (its attempts are kept a few seconds
    apart at most, so that connections come back as soon as PostgreSQL does)."""

    kind = "connection pool warnings"

    def repeats(self, record: logging.LogRecord) -> bool:
        return record.levelno == logging.WARNING
