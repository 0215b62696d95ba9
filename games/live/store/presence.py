"""Who is connected to a table: seats' players and spectators.

One row per WebSocket connection. A connection refreshes ``last_seen`` while it
lives and stamps ``closed_at`` when it ends; a row not seen for
``BLOT_PRESENCE_STALE_S`` counts as closed, so a crashed process's connections
fade out on their own.

Each process keeps its live connections in a :class:`LiveSet` and writes them in
batches (:meth:`LiveSet.flush`, about once a second): the new rows in one
statement, the closed ones in one, and every ``BLOT_PRESENCE_HEARTBEAT_S`` one
UPDATE of ``last_seen`` for all of the process's live connections — never a query per
connection per heartbeat. A failed flush keeps everything pending and is retried
with backoff; after a database outage the heartbeat is written at once, and for
that long after the database came back a stale ``last_seen`` does not count as
away (only a closed connection does): a connection that could not record its
presence is not silently turned into an absent player.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Case, Count, DateTimeField, Q, Value, When
from django.utils import timezone

from games.live.store.rows import select_values
from games.models import Presence, Table
from games.runtime.cancelling import raise_if_cancelled
from games.runtime.lograte import RateLimitedLog

log = logging.getLogger(__name__)

def heartbeat_s() -> float:
    return settings.BLOT_PRESENCE_HEARTBEAT_S


def stale() -> timedelta:
    return timedelta(seconds=settings.BLOT_PRESENCE_STALE_S)

#: How often a process writes its pending opens/closes and watcher counts.
FLUSH_S = 1.0
MAX_BACKOFF_S = 5.0
#: Rows per UPDATE ... WHERE channel_name IN (...).
CHUNK = 500

_outage_lock = threading.Lock()
_database_down = False
_forgive_until = 0.0  # time.monotonic(): until then a stale last_seen is not "away"


def database_failed() -> None:
    """This process could not reach the database (presence writes may be missing)."""
    global _database_down
    with _outage_lock:
        _database_down = True


def database_ok() -> None:
    """The database answers again: forgive stale heartbeats for one ``stale()``
    period, time enough for every process to write its catch-up heartbeat."""
    global _database_down, _forgive_until
    with _outage_lock:
        if _database_down:
            _database_down = False
            _forgive_until = time.monotonic() + stale().total_seconds()


def forgiving() -> bool:
    with _outage_lock:
        return _database_down or time.monotonic() < _forgive_until


def _open(now: datetime) -> Q:
    return Q(closed_at__isnull=True, last_seen__gte=now - stale())


def opened(table_id: int, channel_name: str, user_id: int | None, seat: int | None) -> None:
    now = timezone.now()
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={
            "table_id": table_id,
            "user_id": user_id,
            "seat_index": seat,
            "connected_at": now,
            "last_seen": now,
            "closed_at": None,
        },
    )
    _count_spectators(table_id)


def seen(channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name, closed_at__isnull=True).update(
        last_seen=timezone.now()
    )


def closed(table_id: int, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(closed_at=timezone.now())
    _count_spectators(table_id)
    # Someone left: the table may now need a stand-in sooner than it thought.
    Table.objects.filter(pk=table_id).update(wakeup_at=timezone.now())


def _count_spectators(table_id: int) -> None:
    now = timezone.now()
    count = Presence.objects.filter(_open(now), table_id=table_id, seat_index__isnull=True).count()
    Table.objects.filter(pk=table_id).update(spectator_count=count)


def away_since(table: Table, seat: int, since: datetime) -> datetime | None:
    """When the seat's player was last connected, or ``None`` if connected now.
    A player never connected to this table counts as away from ``since``."""
    fresh_from = timezone.now() - stale()
    # One read of the seat's connections (a handful: old closed rows are
    # forgotten daily), judged here rather than in two queries.
    rows = select_values(
        Presence,
        ("closed_at", "last_seen"),
        "t.table_id = %s AND t.seat_index = %s",
        [table.pk, seat],
    )
    # Just after an outage a heartbeat may be missing through no fault of the
    # player's: only a connection that said it closed counts as gone then.
    outage = forgiving()
    if any(closed is None and (outage or seen >= fresh_from) for closed, seen in rows):
        return None
    if not rows:
        # Rows are written in batches: a player who connected just before the
        # outage may have no row until their process writes again.
        return None if outage else since
    closed_at, last_seen = max(rows, key=lambda row: row[1])
    return closed_at or last_seen


def closed_since(table: Table, seat: int) -> datetime | None:
    """When the seat's player closed their last connection to the table, or
    ``None`` while any connection is open, however stale its heartbeat, or none
    is recorded: only a connection that said it closed proves they went (a
    missing heartbeat or row may be a database outage's, not theirs)."""
    rows = select_values(
        Presence, ("closed_at",), "t.table_id = %s AND t.seat_index = %s", [table.pk, seat]
    )
    if not rows or any(closed is None for (closed,) in rows):
        return None
    return max(closed for (closed,) in rows)


def online(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` have a live connection now: any page with their own
    socket, or a table. After an outage a stale heartbeat still counts."""
    now = timezone.now()
    live = Q(closed_at__isnull=True) if forgiving() else _open(now)
    return set(
        Presence.objects.filter(live, user_id__in=list(user_ids))
        .values_list("user_id", flat=True)
        .distinct()
    )


def forget_old(before: timedelta = timedelta(days=1)) -> int:
    """Drop connection rows closed long ago."""
    deleted, _ = Presence.objects.filter(closed_at__lt=timezone.now() - before).delete()
    return deleted


@dataclass(frozen=True)
class Connection:
    #: None: a person's own socket (``games.live.receive.person``), not a table's.
    table_id: int | None
    user_id: int | None
    seat: int | None


class LiveSet:
    """This process's live connections and the presence writes still to make."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: dict[str, Connection] = {}
        self._opened: dict[str, tuple[Connection, datetime]] = {}
        #: Closed connections whose rows exist, and when each closed: the row says
        #: when the page went, not when the flush came (a second later, at most).
        self._closed: dict[str, tuple[Connection, datetime]] = {}
        #: Written connections now speaking for another seat: their rows' seat.
        self._reseated: dict[str, int | None] = {}
        self._recount: set[int] = set()
        self._last_beat = time.monotonic()
        self.catch_up = False  # write the heartbeat at the next flush (after an outage)

    def open(
        self, channel: str, table_id: int | None, user_id: int | None, seat: int | None
    ) -> None:
        conn = Connection(table_id, user_id, seat)
        with self._lock:
            self._live[channel] = conn
            self._opened[channel] = (conn, timezone.now())
            self._closed.pop(channel, None)
            if seat is None and table_id is not None:
                self._recount.add(table_id)

    def move(self, channel: str, seat: int | None) -> None:
        """A live connection now speaks for ``seat`` (None: it watches): its row
        is written again at the next flush, and the table's spectators are
        counted again when it joins or leaves them."""
        with self._lock:
            old = self._live.get(channel)
            if old is None or old.seat == seat:
                return
            conn = Connection(old.table_id, old.user_id, seat)
            self._live[channel] = conn
            if channel in self._opened:  # not written yet: written as it is now
                self._opened[channel] = (conn, self._opened[channel][1])
            else:
                self._reseated[channel] = seat
            if old.table_id is not None and None in (seat, old.seat):
                self._recount.add(old.table_id)

    def close(self, channel: str) -> None:
        with self._lock:
            conn = self._live.pop(channel, None)
            if conn is None:
                return
            self._reseated.pop(channel, None)
            if self._opened.pop(channel, None) is None:
                self._closed[channel] = (conn, timezone.now())  # its row exists
            if conn.seat is None and conn.table_id is not None:
                self._recount.add(conn.table_id)

    def __len__(self) -> int:
        return len(self._live)

    def channels(self) -> list[str]:
        """The channel names of this process's live connections."""
        with self._lock:
            return list(self._live)

    def flush(self, heartbeat_every: float | None = None) -> dict[int, int]:
        """Write what is pending; returns the new spectator count of every table
        whose spectators changed. On failure nothing pending is lost."""
        with self._lock:
            opened, self._opened = self._opened, {}
            closed, self._closed = self._closed, {}
            reseated, self._reseated = self._reseated, {}
            recount, self._recount = self._recount, set()
            every = heartbeat_s() if heartbeat_every is None else heartbeat_every
            beat = self.catch_up or time.monotonic() - self._last_beat >= every
            live = list(self._live) if beat else []
        try:
            counts = self._write(opened, closed, reseated, recount, live)
        except BaseException:
            with self._lock:
                for channel, pending in opened.items():
                    if channel in self._live:  # closed meanwhile: never written, nothing to do
                        self._opened.setdefault(channel, pending)
                for channel, seat in reseated.items():
                    if channel in self._live:
                        self._reseated.setdefault(channel, seat)
                for channel, gone in closed.items():
                    if channel not in self._live:
                        self._closed[channel] = gone
                self._recount |= recount
                self.catch_up = True
            raise
        if beat:
            self._last_beat = time.monotonic()
            self.catch_up = False
        return counts

    def _write(
        self,
        opened: dict[str, tuple[Connection, datetime]],
        closed: dict[str, tuple[Connection, datetime]],
        reseated: dict[str, int | None],
        recount: set[int],
        live: list[str],
    ) -> dict[int, int]:
        now = timezone.now()
        if opened:
            Presence.objects.bulk_create(
                [
                    Presence(
                        channel_name=channel,
                        table_id=conn.table_id,
                        user_id=conn.user_id,
                        seat_index=conn.seat,
                        connected_at=at,
                        last_seen=now,
                        closed_at=None,
                    )
                    for channel, (conn, at) in opened.items()
                ],
                update_conflicts=True,
                unique_fields=["channel_name"],
                update_fields=[
                    "table",
                    "user",
                    "seat_index",
                    "connected_at",
                    "last_seen",
                    "closed_at",
                ],
            )
        for channel, seat in reseated.items():  # rare: a seat changed hands
            Presence.objects.filter(channel_name=channel).update(seat_index=seat)
        for chunk in _chunks(list(closed)):
            Presence.objects.filter(channel_name__in=chunk).update(
                closed_at=Case(
                    *(When(channel_name=c, then=Value(closed[c][1])) for c in chunk),
                    output_field=DateTimeField(),
                )
            )
        left_seats = {
            c.table_id
            for c, _at in closed.values()
            if c.seat is not None and c.table_id is not None
        }
        if left_seats:
            # Someone left: the table may now need a stand-in sooner than it thought.
            Table.objects.filter(pk__in=left_seats).update(wakeup_at=now)
        for chunk in _chunks(live):
            Presence.objects.filter(channel_name__in=chunk, closed_at__isnull=True).update(
                last_seen=now
            )
        if not recount:
            return {}
        counted = dict(
            Presence.objects.filter(_open(now), table_id__in=recount, seat_index__isnull=True)
            .values_list("table_id")
            .annotate(n=Count("id"))
            .values_list("table_id", "n")
        )
        counts = {table_id: counted.get(table_id, 0) for table_id in recount}
        for table_id, n in counts.items():
            Table.objects.filter(pk=table_id).exclude(spectator_count=n).update(spectator_count=n)
        return counts


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[i : i + CHUNK] for i in range(0, len(items), CHUNK)]


#: The live connections of this process.
live_set = LiveSet()
_failures = RateLimitedLog(log, "Recording presence")


async def keep_writing(
    book: LiveSet,
    run_sync: Callable[[Callable[[], dict[int, int]]], Awaitable[dict[int, int]]],
    on_counts: Callable[[dict[int, int]], Awaitable[None]],
) -> None:
    """Flush ``book`` about every ``FLUSH_S`` until cancelled, backing off while
    the database is unreachable and catching up at once when it is back."""
    delay = FLUSH_S
    while True:
        raise_if_cancelled()
        await asyncio.sleep(delay)
        try:
            counts = await run_sync(book.flush)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            database_failed()
            _failures.failed(exc)
            delay = min(delay * 2, MAX_BACKOFF_S)
            continue
        database_ok()
        _failures.recovered()
        delay = FLUSH_S
        if counts:
            await on_counts(counts)
