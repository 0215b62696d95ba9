"""Telling a table's viewers that it changed (sent after commit, never before).

After a move commits, :func:`table_changed` renders the table once per viewpoint
(:mod:`games.live.frames`) and sends each frame to its viewpoint's group; the
consumers only forward them. It never raises: the move is stored, so the mover
must hear it was accepted even if the channel layer (Redis) or the database is
briefly away. A failed publication is retried in the background with backoff
until it goes through (each attempt renders the table as it is then, so the
newest version is what arrives), and logged once per interval, not per attempt.

It also hands the table to the conductor at once (a message on
:data:`CONDUCTOR_CHANNEL`), so a bot's reply to a person does not wait for a poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections

from games.live import frames
from games.live.lograte import RateLimitedLog

log = logging.getLogger(__name__)

#: Where the conductor (worker or in-process) hears that a table may be due.
CONDUCTOR_CHANNEL = "blot-conductor"
RETRY_FIRST_S = 0.25
RETRY_MAX_S = 2.0


def group_name(table_id: int) -> str:
    """Every viewer of the table (for what all viewpoints share: the watcher count)."""
    return f"table-{table_id}"


async def publish_async(table_id: int, version: int, html: dict[frames.Viewpoint, str]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    sends = frames.messages(table_id, version, html)
    await asyncio.gather(*(layer.group_send(group, message) for group, message in sends))


def publish(table_id: int) -> int:
    """Render the table once per viewpoint and send every viewpoint its frame."""
    version, html = frames.render_all(table_id)
    async_to_sync(publish_async)(table_id, version, html)
    return version


async def wake_conductor(table_id: int) -> None:
    if getattr(settings, "BLOT_CONDUCTOR", "inprocess") == "off":
        return
    layer = get_channel_layer()
    if layer is None:
        return
    # Nobody listening (yet) fills the channel: the conductor's poll finds the table anyway.
    with contextlib.suppress(ChannelFull):
        await layer.send(CONDUCTOR_CHANNEL, {"type": "table.due", "table": table_id})


def table_changed(table_id: int, version: int, events: list[dict[str, Any]] | None = None) -> None:
    """After commit: every viewpoint gets its frame, the conductor its wake-up.
    Never raises; failures are retried in the background."""
    try:
        publish(table_id)
    except Exception as exc:
        _failures.failed(exc)
        retrier.add(table_id)
    else:
        _failures.recovered()
    try:
        async_to_sync(wake_conductor)(table_id)
    except Exception as exc:
        _wake_failures.failed(exc)  # the conductor still polls: late, not lost


_failures = RateLimitedLog(log, "Sending a table's new frames")
_wake_failures = RateLimitedLog(log, "Waking the conductor")


class Retrier:
    """Re-publishes tables whose frames could not be sent, with backoff, on its
    own thread and event loop (so the channel layer keeps one connection)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: set[int] = set()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, table_id: int) -> None:
        with self._lock:
            self._pending.add(table_id)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="notify-retry", daemon=True)
                self._thread.start()
        self._wake.set()

    def pending(self) -> set[int]:
        with self._lock:
            return set(self._pending)

    def _run(self) -> None:
        asyncio.run(self._loop())

    async def _loop(self) -> None:
        delay = RETRY_FIRST_S
        while True:
            await asyncio.sleep(delay)
            with self._lock:
                tables, self._pending = self._pending, set()
            if not tables:
                delay = RETRY_FIRST_S
                await asyncio.to_thread(self._wake.wait, 5.0)
                self._wake.clear()
                continue
            failed: set[int] = set()
            for table_id in tables:
                try:
                    version, html = await asyncio.to_thread(_render_closing, table_id)
                    await publish_async(table_id, version, html)
                except Exception as exc:
                    _failures.failed(exc)
                    failed.add(table_id)
            if failed:
                with self._lock:
                    self._pending |= failed
                delay = min(delay * 2, RETRY_MAX_S)
            else:
                _failures.recovered()
                delay = RETRY_FIRST_S


def _render_closing(table_id: int) -> tuple[int, dict[frames.Viewpoint, str]]:
    close_old_connections()
    try:
        return frames.render_all(table_id)
    finally:
        close_old_connections()


retrier = Retrier()
