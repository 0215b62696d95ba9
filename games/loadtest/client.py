"""The load run behind ``manage.py loadtest``: simulated people and spectators on
a running site, over real WebSockets, timing every move to every viewer.

Everything here times what a browser would see: a person's client reads its
frame, waits the think time when the turn is theirs, sends one of the moves the
frame offers (the buttons' ``hx-vals``), and every viewer's client notes when
each new version reaches it. All clients run in this one process, so their
clock is shared and a move's delivery to its last viewer is a plain difference.
"""

from __future__ import annotations

import asyncio
import bisect
import csv
import functools
import html
import json
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from channels.layers import InMemoryChannelLayer

VERSION = re.compile(r'data-version="(\d+)"')
TO_ACT = re.compile(r'data-to-act="(\d*)"')
HX_VALS = re.compile(r'hx-vals="([^"]+)"')
DEAL = re.compile(r'data-deal="(\d+)"')
#: A completed trick stays this long before anyone (a bot too) leads the next.
TRICK_PAUSE = re.compile(r'data-complete[^>]*data-pause="(\d+)"')
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
#: After the run's end, how long sockets stay open for the moves already sent.
DRAIN_S = 3.0


def check_loopback(url: str) -> str:
    """The URL, if it points at this machine (the command loads nothing else)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.hostname not in LOOPBACK:
        raise ValueError(f"{url}: only http(s)://127.0.0.1, localhost or [::1] may be loaded")
    return url.rstrip("/")


def percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"n": len(ordered), "p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "max": at(1.0)}


@dataclass(frozen=True)
class CpuTimes:
    """The machine's CPU time so far, from the ``cpu`` line of Linux's /proc/stat."""

    total: int
    idle: int  # idle and waiting for I/O
    steal: int  # taken by the hypervisor for other guests

    @classmethod
    def parse(cls, proc_stat: str) -> CpuTimes:
        for line in proc_stat.splitlines():
            fields = line.split()
            if fields and fields[0] == "cpu":
                # user nice system idle iowait irq softirq steal (guest time is in user)
                ticks = [int(f) for f in fields[1:9]]
                ticks += [0] * (8 - len(ticks))
                return cls(total=sum(ticks), idle=ticks[3] + ticks[4], steal=ticks[7])
        raise ValueError("no cpu line")


def read_cpu_times(path: str = "/proc/stat") -> CpuTimes | None:
    """None where there is no /proc/stat (not Linux): the share is then not reported."""
    try:
        with open(path) as stat:
            return CpuTimes.parse(stat.read())
    except (OSError, ValueError):
        return None


def machine_share(before: CpuTimes | None, after: CpuTimes | None) -> dict[str, float] | None:
    """How busy the whole machine was between two readings, in % of all its cores,
    and how much of it the hypervisor took for other guests (steal). A run on a
    virtual machine whose neighbours were busy shows it here: its latencies are
    the neighbours' as much as the site's."""
    if before is None or after is None or after.total <= before.total:
        return None
    total = after.total - before.total
    steal = after.steal - before.steal
    busy = total - (after.idle - before.idle) - steal
    return {"busy_pct": round(100 * busy / total, 1), "steal_pct": round(100 * steal / total, 1)}


@dataclass
class Viewer:
    table: int
    seat: int | None  # None: a spectator
    url: str
    cookie: str | None
    bot_seats: frozenset[int] = frozenset()
    late: bool = False  # joins once the tables play (a spectator storm)


@dataclass
class Record:
    """What the clients saw, in ``time.perf_counter()`` seconds."""

    sent: dict[tuple[int, int], tuple[float, int]] = field(default_factory=dict)
    kinds: dict[tuple[int, int], str] = field(default_factory=dict)  # the move's type
    # (table, version reached) -> {viewer id: first arrival}
    arrivals: dict[tuple[int, int], dict[int, float]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    viewers_of: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    bot_turns: list[float] = field(default_factory=list)  # reply time beyond the pause (ms)
    frame_bytes: list[int] = field(default_factory=list)
    # Every message's bytes as decoded, and the bytes that carried them on the wire.
    message_bytes: int = 0
    wire_bytes: int = 0
    errors: list[str] = field(default_factory=list)
    refusals: int = 0
    connected: int = 0
    retried_connects: int = 0
    expected: int = 0  # viewers to connect before anyone moves
    arrived: int = 0  # viewers whose connection succeeded or finally failed
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    join_times: list[float] = field(default_factory=list)
    started_tables: set[int] = field(default_factory=set)  # tables whose first move is sent
    probe_table: int | None = None  # another person's table, reported on its own
    probe_bot_turns: list[float] = field(default_factory=list)
    late_joins: list[float] = field(default_factory=list)  # when each late viewer joined
    late_after_s: float = 0.0  # how long after the run starts the late viewers come
    late_started: float | None = None  # when they began to come


#: Offer permessage-deflate as browsers do (``loadtest --plain-sockets``: don't).
OFFER_DEFLATE = True


def _wire_counting_connection() -> type:
    from websockets.asyncio.client import ClientConnection

    class WireCountingConnection(ClientConnection):
        """Counts the bytes that arrive on the socket (frames as sent, compressed
        or not), beside the messages they decode to."""

        wire_bytes = 0

        def data_received(self, data: bytes) -> None:
            self.wire_bytes += len(data)
            super().data_received(data)

    return WireCountingConnection


async def open_socket(url: str, path: str, cookie: str | None) -> Any:
    """A WebSocket to ``path`` on the server at ``url`` (http://host:port), signed
    in with ``cookie`` when given, as a browser on that server would open it."""
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    return await connect(
        "ws" + url[4:] + path,
        origin=Origin(url),
        additional_headers={"Cookie": cookie} if cookie else {},
        open_timeout=60,
        max_size=2**22,
        ping_interval=None,
        compression="deflate" if OFFER_DEFLATE else None,
        create_connection=_wire_counting_connection(),
    )


class Client:
    """One WebSocket viewer (a person at a seat, or a spectator)."""

    def __init__(
        self,
        ident: int,
        viewer: Viewer,
        record: Record,
        think_s: float,
        bot_pause_s: float,
        rng: random.Random,
        stop: asyncio.Event,
        closing: asyncio.Event | None = None,
        start_offset_s: float = 0.0,
        think_spread: float = 0.0,
    ) -> None:
        self.ident = ident
        self.viewer = viewer
        self.record = record
        self.think_s = think_s
        self.bot_pause_s = bot_pause_s
        self.rng = rng
        self.stop = stop  # no more moves
        # The socket closes later, so that moves already sent are still seen arriving.
        self.closing = closing or stop
        # The table's first move waits this much longer, so that tables do not all
        # move in the same instant for the whole run (people do not start in step).
        self.start_offset_s = start_offset_s
        # Each think time is drawn from think_s * (1 ± think_spread), same mean:
        # with 0 every person takes exactly think_s, and tables that started
        # together end their deals together for the whole run.
        self.think_spread = think_spread
        self.version = -1
        self.acted_on = -1
        # (version, seen, deal, the trick pause the bot waits first, s)
        self.bot_turn: tuple[int, float, str | None, float] | None = None

    async def run(self, gate: asyncio.Semaphore) -> None:
        if self.viewer.late:
            await self.record.ready.wait()  # joins while the tables play
            await asyncio.sleep(self.record.late_after_s)
            if self.record.late_started is None:
                self.record.late_started = time.perf_counter()
        started = time.perf_counter()
        ws = None
        async with gate:  # a bounded number of handshakes at once, as arrivals spread out
            for attempt in range(3):
                try:
                    ws = await open_socket(
                        self.viewer.url, f"/ws/table/{self.viewer.table}/", self.viewer.cookie
                    )
                    break
                except Exception as exc:
                    self.record.retried_connects += 1
                    last = exc
                    await asyncio.sleep(0.5 * (attempt + 1))
        self.record.arrived += 1
        if self.record.arrived >= self.record.expected:
            self.record.ready.set()
        if ws is None:
            self.record.errors.append(f"connect: {type(last).__name__}: {last}")
            return
        self.record.connected += 1
        first = True
        try:
            while not self.closing.is_set():
                try:
                    # asyncio.timeout, not wait_for: Python 3.11's wait_for can
                    # swallow a cancel (Ctrl-C) that lands as a frame arrives.
                    async with asyncio.timeout(0.5):
                        frame = await ws.recv()
                except TimeoutError:
                    continue
                now = time.perf_counter()
                self.record.message_bytes += len(frame.encode())
                if first and 'id="table-root"' in frame:
                    if self.viewer.late:
                        self.record.late_joins.append(now)
                    else:
                        self.record.join_times.append(now - started)
                    first = False
                await self.on_frame(ws, frame, now)
        except Exception as exc:  # a broken client is counted, the run goes on
            if not self.closing.is_set():
                self.record.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            self.record.wire_bytes += getattr(ws, "wire_bytes", 0)
            await ws.close()

    async def on_frame(self, ws: Any, frame: str, now: float) -> None:
        if 'id="table-root"' not in frame:
            if 'id="table-error"' in frame:
                self.record.refusals += 1
            return
        match = VERSION.search(frame)
        if match is None:
            return
        version = int(match.group(1))
        self.record.frame_bytes.append(len(frame.encode()))
        if version <= self.version:
            return
        self.version = version
        self.record.arrivals[(self.viewer.table, version)].setdefault(self.ident, now)
        to_act_match = TO_ACT.search(frame)
        to_act = int(to_act_match.group(1)) if to_act_match and to_act_match.group(1) else None
        deal = DEAL.search(frame)
        deal_number = deal.group(1) if deal else None
        if self.viewer.bot_seats and self.viewer.seat is not None:
            self.note_bot_reply(version, now, deal_number)
            if to_act in self.viewer.bot_seats:
                pause = TRICK_PAUSE.search(frame)
                trick_pause_s = int(pause.group(1)) / 1000 if pause else 0.0
                self.bot_turn = (version, now, deal_number, trick_pause_s)
        if to_act is not None and to_act == self.viewer.seat and version > self.acted_on:
            self.acted_on = version
            moves = [json.loads(html.unescape(v)) for v in HX_VALS.findall(frame)]
            moves = [m for m in moves if m.get("version") == version]
            if moves:
                asyncio.get_running_loop().create_task(self.move(ws, self.rng.choice(moves)))

    def note_bot_reply(self, version: int, now: float, deal: str | None) -> None:
        turn = self.bot_turn
        self.bot_turn = None
        # Only a bot's reply within one deal (a new deal adds its own pause).
        if turn is not None and version == turn[0] + 1 and deal == turn[2]:
            probe = self.viewer.table == self.record.probe_table
            turns = self.record.probe_bot_turns if probe else self.record.bot_turns
            turns.append((now - turn[1] - self.bot_pause_s - turn[3]) * 1000)

    async def move(self, ws: Any, move: dict[str, Any]) -> None:
        await self.record.ready.wait()  # nobody moves until every viewer is in
        delay = self.think_s * self.rng.uniform(1 - self.think_spread, 1 + self.think_spread)
        if self.viewer.table not in self.record.started_tables:
            self.record.started_tables.add(self.viewer.table)
            delay += self.start_offset_s
        await asyncio.sleep(delay)
        if self.stop.is_set():
            return
        self.record.sent[(self.viewer.table, move["version"])] = (time.perf_counter(), self.ident)
        self.record.kinds[(self.viewer.table, move["version"])] = str(move.get("type"))
        try:
            await ws.send(json.dumps(move))
        except Exception as exc:
            self.record.errors.append(f"send: {type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class Delivery:
    """One person's move as the clients saw it (ms after it was sent; None: never)."""

    table: int
    version: int
    kind: str
    sent: float
    to_mover_ms: float | None
    to_last_ms: float | None


def deliveries(record: Record) -> list[Delivery]:
    """Every move sent, with when its frame reached the mover and the last viewer."""
    seen_versions: dict[int, list[int]] = defaultdict(list)
    for table, version in sorted(record.arrivals):
        seen_versions[table].append(version)
    out = []
    for (table, version), (sent, mover) in sorted(record.sent.items(), key=lambda i: i[1][0]):
        # A move's frame is the next version drawn: usually version + 1, but a move
        # that ends a deal also scores it, which takes a version of its own.
        later = seen_versions[table]
        at = bisect.bisect_right(later, version)
        arrivals = record.arrivals.get((table, later[at]), {}) if at < len(later) else {}
        viewers = record.viewers_of[table]
        out.append(
            Delivery(
                table,
                version,
                record.kinds.get((table, version), "?"),
                sent,
                (arrivals[mover] - sent) * 1000 if mover in arrivals else None,
                (max(arrivals[v] for v in viewers) - sent) * 1000
                if viewers and viewers <= set(arrivals)
                else None,
            )
        )
    return out


def write_samples(record: Record, started: float, path: str) -> None:
    """One CSV line per move (to see when in a run the slow ones happened)."""
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["sent_s", "table", "version", "kind", "to_mover_ms", "to_last_ms"])
        for d in deliveries(record):
            writer.writerow(
                [f"{d.sent - started:.3f}", d.table, d.version, d.kind,
                 "" if d.to_mover_ms is None else f"{d.to_mover_ms:.1f}",
                 "" if d.to_last_ms is None else f"{d.to_last_ms:.1f}"]
            )


def summarise(record: Record, seconds: float, until: float | None = None) -> dict[str, Any]:
    """The run's figures; moves per second count versions first seen by ``until``
    (the end of the run: what arrives while the sockets drain is not counted)."""
    moves_seen = deliveries(record)
    to_mover = [d.to_mover_ms for d in moves_seen if d.to_mover_ms is not None]
    to_last = [d.to_last_ms for d in moves_seen if d.to_last_ms is not None]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for d in moves_seen:
        if d.to_last_ms is not None:
            by_kind[d.kind].append(d.to_last_ms)
    undelivered = sum(d.to_last_ms is None for d in moves_seen)
    by_table: dict[int, list[int]] = defaultdict(list)
    for (table, version), seen in record.arrivals.items():
        if until is None or min(seen.values()) <= until:
            by_table[table].append(version)
    moves = sum(max(v) - min(v) for v in by_table.values())
    frames = record.frame_bytes
    return {
        "seconds": round(seconds, 1),
        "moves": moves,
        "moves_per_s": round(moves / seconds, 1) if seconds else 0.0,
        "people_moves": len(record.sent),
        "move_to_mover_ms": percentiles(to_mover),
        "move_to_last_viewer_ms": percentiles(to_last),
        "move_to_last_viewer_by_kind_ms": {k: percentiles(v) for k, v in sorted(by_kind.items())},
        "undelivered_moves": undelivered,
        "bot_reply_beyond_pause_ms": percentiles(record.bot_turns),
        "frames": len(frames),
        "frame_bytes": {
            "mean": round(statistics.fmean(frames)) if frames else None,
            "max": max(frames) if frames else None,
            # What a table frame cost on the wire, at the run's compression ratio.
            "wire_mean": (
                round(statistics.fmean(frames) * record.wire_bytes / record.message_bytes)
                if frames and record.message_bytes
                else None
            ),
        },
        "wire_to_message_ratio": (
            round(record.wire_bytes / record.message_bytes, 3) if record.message_bytes else None
        ),
        "connected": record.connected,
        "retried_connects": record.retried_connects,
        "join_ms": percentiles([t * 1000 for t in record.join_times]),
        "refusals": record.refusals,
        "errors": len(record.errors),
        "error_samples": record.errors[:5],
    }


def summarise_extras(record: Record, started: float, first_table: int) -> dict[str, Any]:
    """The probe table's figures, and the late spectators' (with the other
    tables' moves made while they joined)."""
    extras: dict[str, Any] = {}
    moves = deliveries(record)
    if record.probe_table is not None:
        probe = [d.to_last_ms for d in moves if d.table == record.probe_table]
        extras["probe"] = {
            "bot_reply_beyond_pause_ms": percentiles(record.probe_bot_turns),
            "bot_replies": len(record.probe_bot_turns),
            "move_to_last_viewer_ms": percentiles([ms for ms in probe if ms is not None]),
        }
    late = record.late_joins
    if late:
        joined_by = max(late)
        came = record.late_started or started
        others = [
            d.to_last_ms
            for d in moves
            if d.table != first_table and came <= d.sent <= joined_by and d.to_last_ms
        ]
        extras["late_spectators"] = {
            "joined": len(late),
            "came_after_s": round(came - started, 2),
            "all_joined_s": round(joined_by - came, 2),
            "other_tables_move_to_last_viewer_ms": percentiles(others),
            "other_tables_moves": len(others),
        }
    return extras


async def _time_rounds(
    layer: Any,
    groups: list[tuple[str, list[Callable[[], Awaitable[Any]]]]],
    frame_bytes: int,
    rounds: int,
    pause_s: float,
) -> dict[str, Any]:
    """Send a same-size message to every group per round; the time until the
    group's last listener (a ``receive`` to await) has it."""
    payload = "x" * frame_bytes
    latencies: list[float] = []

    async def one(name: str, listeners: list[Callable[[], Awaitable[Any]]], version: int) -> None:
        sent = time.perf_counter()
        await layer.group_send(name, {"type": "table.frame", "version": version, "html": payload})
        await asyncio.gather(*(receive() for receive in listeners))
        if version >= 0:
            latencies.append((time.perf_counter() - sent) * 1000)

    # Round -1 is not timed: it opens this process's connections to the layer
    # (~90 ms here), which the site's viewers did while joining, before any move
    # was timed.
    for version in range(-1, rounds):
        await asyncio.wait_for(
            asyncio.gather(*(one(name, listeners, version) for name, listeners in groups)), 30
        )
        await asyncio.sleep(pause_s)
    return {"to_last_ms": percentiles(latencies), "messages": len(latencies)}


def _yardstick_prefix() -> str:
    # (games/loadtest/yardstick.py listens only to names of this form)
    return f"loadtest-yardstick-{random.getrandbits(32):x}"


async def bare_broadcast(
    layer: Any, group_sizes: list[int], frame_bytes: int, rounds: int, pause_s: float
) -> dict[str, Any]:
    """The yardstick: the same viewers as bare channels of the same layer, in
    this process, one group per table, a same-size message to every group per
    round; the time until the group's last channel has it."""
    groups: list[tuple[str, list[str]]] = []
    prefix = _yardstick_prefix()
    for index, size in enumerate(group_sizes):
        name = f"{prefix}-{index}"
        channels = [await layer.new_channel() for _ in range(size)]
        for channel in channels:
            await layer.group_add(name, channel)
        groups.append((name, channels))
    try:
        listeners: list[tuple[str, list[Callable[[], Awaitable[Any]]]]] = [
            (name, [functools.partial(layer.receive, c) for c in channels])
            for name, channels in groups
        ]
        return await _time_rounds(layer, listeners, frame_bytes, rounds, pause_s)
    finally:
        for name, channels in groups:
            for channel in channels:
                await layer.group_discard(name, channel)


async def socket_broadcast(
    layer: Any, tables: list[list[Viewer]], frame_bytes: int, rounds: int, pause_s: float
) -> dict[str, Any]:
    """The yardstick the way frames go: the same viewers' sockets, each on the
    server its viewer used, to a bare listener there (``games/loadtest/yardstick.py``)
    that forwards a group's messages with no move behind them; the same rounds
    as :func:`bare_broadcast`, timed until the group's last socket has it.
    Reported as skipped against an embedded site (this process's in-memory layer
    reaches no server) and as an error when it fails, so the run's own figures
    are never lost to it."""
    if isinstance(layer, InMemoryChannelLayer):
        return {
            "to_last_ms": percentiles([]),
            "messages": 0,
            "skipped": "the channel layer is in this process's memory, not the servers'",
        }
    try:
        return await _socket_rounds(layer, tables, frame_bytes, rounds, pause_s)
    except Exception as exc:
        return {"to_last_ms": percentiles([]), "messages": 0, "error": repr(exc)}


async def _socket_rounds(
    layer: Any, tables: list[list[Viewer]], frame_bytes: int, rounds: int, pause_s: float
) -> dict[str, Any]:
    prefix = _yardstick_prefix()
    sockets: list[Any] = []
    groups: list[tuple[str, list[Callable[[], Awaitable[Any]]]]] = []
    try:
        for index, viewers in enumerate(tables):
            name = f"{prefix}-{index}"
            # A listener must be signed in: spectators borrow the table's first person.
            cookie = next((v.cookie for v in viewers if v.cookie), None)
            receives: list[Callable[[], Awaitable[Any]]] = []
            for viewer in viewers:
                ws = await open_socket(viewer.url, f"/ws/loadtest-yardstick/{name}/", cookie)
                sockets.append(ws)
                receives.append(ws.recv)
            groups.append((name, receives))
        return await _time_rounds(layer, groups, frame_bytes, rounds, pause_s)
    finally:
        for ws in sockets:
            await ws.close()


async def progress(stop: asyncio.Event, record: Record, seconds: float, max_moves: int) -> None:
    """A progress bar on stderr; also ends the run when its time or count is reached."""
    started = time.perf_counter()
    width = 30
    while not stop.is_set():
        elapsed = time.perf_counter() - started
        moves = len(record.arrivals)
        done = min(1.0, max(elapsed / seconds, moves / max_moves if max_moves else 0))
        bar = "#" * int(done * width)
        sys.stderr.write(
            f"\r[{bar:<{width}}] {elapsed:5.1f}/{seconds:.0f} s  moves {moves}  "
            f"connected {record.connected}  errors {len(record.errors)} "
        )
        sys.stderr.flush()
        if done >= 1.0:
            stop.set()
            break
        await asyncio.sleep(0.5)
    sys.stderr.write("\n")
