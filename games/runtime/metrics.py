"""The site's Prometheus series, declared once (prometheus-client).

Any layer may count here: this module imports nothing of the site. Each
process keeps its own values; with ``PROMETHEUS_MULTIPROC_DIR`` set (the
production layout, docs/operations.md "Metrics") every process of a machine
writes them to files in that directory and any web process's ``/metrics``
answers for all of them (prometheus-client's multiprocess mode). Gauges then add
up the live processes' values (``livesum``).

Never a label that names a person, a card or a secret: views by their URL
name, tables and matches not at all (their ids belong in the logs).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import Counter, Gauge, Histogram

#: Seconds: from a move's commit to its frame handed to a viewer's socket.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)
#: Bytes of one frame sent to one viewer.
FRAME_BUCKETS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536)
#: Seconds a bot took to decide.
DECISION_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0)
#: Seconds a person waited in a Play now pool before their match.
WAIT_BUCKETS = (1, 5, 10, 30, 60, 120, 300, 600, 1800)

requests = Counter(
    "blot_http_requests",
    "HTTP requests answered, by view (URL name) and status code.",
    ["view", "status"],
)
request_seconds = Histogram(
    "blot_http_request_seconds",
    "Time to answer an HTTP request, by view (URL name).",
    ["view"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
open_sockets = Gauge(
    "blot_open_sockets",
    "WebSocket connections open now, by kind (table, spectator, person, chat).",
    ["kind"],
    multiprocess_mode="livesum",
)
moves = Counter(
    "blot_moves",
    "Moves stored, by who made them (person, bot, stand_in); rate() gives moves per second.",
    ["by"],
)
move_to_viewer = Histogram(
    "blot_move_to_viewer_send_seconds",
    "From a move's commit to its frame handed to each viewer's socket, in the server.",
    buckets=LATENCY_BUCKETS,
)
move_to_last_viewer = Histogram(
    "blot_move_to_last_viewer_send_seconds",
    "From a move's commit to its frame handed to the last of a process's viewers of the table.",
    buckets=LATENCY_BUCKETS,
)
frame_bytes = Histogram(
    "blot_frame_bytes",
    "Bytes of one table frame sent to one viewer.",
    buckets=FRAME_BUCKETS,
)
bot_decision_seconds = Histogram(
    "blot_bot_decision_seconds",
    "Time a bot took to decide a move, by level (queueing for a decision process included).",
    ["level"],
    buckets=DECISION_BUCKETS,
)
turn_timeouts = Counter(
    "blot_turn_timeouts",
    "A person's turn taken over by a stand-in: their clock ran out or they were away past grace.",
)
stand_in_moves = Counter(
    "blot_stand_in_moves",
    "Moves a stand-in played for a person (timed out, away or gone from the table).",
)
pool_waits = Histogram(
    "blot_play_now_wait_seconds",
    "How long a person waited in a Play now pool before being matched, by pool.",
    ["pool"],
    buckets=WAIT_BUCKETS,
)
chat_refusals = Counter(
    "blot_chat_refusals",
    "Chat messages refused (too fast, too long, silenced, closed room).",
)
outages = Counter(
    "blot_outage_events",
    "Runs of failures of one kind that started (the database, Redis, a publication).",
    ["what"],
)


@contextmanager
def timed(histogram: Histogram, **labels: str) -> Iterator[None]:
    """Observe the seconds the ``with`` block took into ``histogram``."""
    start = time.perf_counter()
    try:
        yield
    finally:
        target = histogram.labels(**labels) if labels else histogram
        target.observe(time.perf_counter() - start)


#: A move's frames reach a process's viewers within this (else they are late
#: and counted as that move's last send at the next look).
LAST_VIEWER_WINDOW_S = 2.0


class FrameSends:
    """Frames handed to this process's viewers: each send's latency and size,
    and per move (table and version) the latency of its last send here.

    The last send of a move is known only once no more can come: a move's entry
    is closed :data:`LAST_VIEWER_WINDOW_S` after its first send, at the next
    send of any frame of the process, and observed then. Used from the event
    loop's thread only (consumers' handlers), so it needs no lock.
    """

    def __init__(self) -> None:
        self._open: dict[tuple[int, int], tuple[float, float]] = {}  # -> (first seen, max)
        self._closed: dict[tuple[int, int], None] = {}  # recently closed, oldest first

    def sent(self, table_id: int, version: int, moved_at: float | None, size: int) -> None:
        frame_bytes.observe(size)
        if moved_at is None:  # a frame not drawn for a move (a resend, a retry)
            return
        now = time.time()
        latency = max(0.0, now - moved_at)
        move_to_viewer.observe(latency)
        key = (table_id, version)
        if key not in self._closed:
            first, slowest = self._open.get(key, (now, 0.0))
            self._open[key] = (first, max(slowest, latency))
        self.close_older_than(now - LAST_VIEWER_WINDOW_S)

    def close_older_than(self, moment: float) -> None:
        # Moves are kept in the order of their first send, so the ones to close
        # are at the front: a send costs the moves it closes, not every open one
        # (a hundred busy tables keep a few hundred open).
        while self._open:
            key = next(iter(self._open))
            first, slowest = self._open[key]
            if first > moment:
                break
            del self._open[key]
            move_to_last_viewer.observe(slowest)
            self._closed[key] = None
        while len(self._closed) > 4096:
            del self._closed[next(iter(self._closed))]


frame_sends = FrameSends()
