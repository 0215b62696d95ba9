"""Telling a table's viewers that it changed (sent after commit, never before).

After a move commits, :func:`table_changed` renders the table once per viewpoint
(:mod:`games.live.draw.frames`) and sends each frame to its viewpoint's group; the
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
import time
from collections import OrderedDict
from typing import Any

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections
from django.dispatch import receiver

from games.live.draw import frames
from games.runtime.lograte import RateLimitedLog
from games.services import changes

log = logging.getLogger(__name__)

#: Where the conductor (worker or in-process) hears that a table may be due.
CONDUCTOR_CHANNEL = "blot-conductor"
RETRY_FIRST_S = 0.25
RETRY_MAX_S = 2.0
#: A publication that takes longer has failed (Redis away can leave a send waiting
#: on a connection that never comes): the move's thread must not wait on it. The
#: sends are awaited under ``asyncio.timeout``, not ``wait_for``: Python 3.11's
#: ``wait_for``, cancelled (the process stopping), leaves a gather's error unread,
#: and the garbage collector then logs it as a traceback.
SEND_TIMEOUT_S = 2.0


async def publish_async(
    table_id: int, version: int, html: frames.Frames, moved_at: float | None = None
) -> None:
    """``moved_at``: when the move was committed (``time.time()``), carried in
    each frame so the process that hands it to a viewer measures the whole way
    (``blot_move_to_viewer_send_seconds``); left out of a retry's frames."""
    layer = get_channel_layer()
    if layer is None:
        return
    sends = frames.messages(table_id, version, html)
    if moved_at is not None:
        for _, message in sends:
            message["moved_at"] = moved_at
    await _send_to_groups(layer, sends)


async def _send_to_groups(layer: Any, sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Each ``(group, message)`` sent, all within :data:`SEND_TIMEOUT_S`."""
    async with asyncio.timeout(SEND_TIMEOUT_S):
        await asyncio.gather(*(layer.group_send(group, message) for group, message in sends))


async def wake_conductor(table_id: int) -> None:
    if settings.BLOT_CONDUCTOR == "off":
        return
    layer = get_channel_layer()
    if layer is None:
        return
    # Nobody listening (yet) fills the channel: the conductor's poll finds the table anyway.
    with contextlib.suppress(ChannelFull):
        message = {"type": "table.due", "table": table_id}
        await asyncio.wait_for(layer.send(CONDUCTOR_CHANNEL, message), SEND_TIMEOUT_S)


@receiver(changes.table_changed)
def _service_changed_table(sender: object, table_id: int, version: int, **kwargs: object) -> None:
    """A service changed a table (leaving, returning, a rematch): draw and send."""
    table_changed(table_id, version)


@receiver(changes.seats_changed)
def _service_moved_people(
    sender: object, table_id: int, user_ids: list[int], **kwargs: object
) -> None:
    """A seat changed hands: every socket of these people at the table is told
    to find its place again (``TableConsumer.table_seat``), in whichever server
    process it lives. Never raises: a socket that misses it still acts only as
    its user is now (the move path checks every move), is sent no frame drawn
    for someone else (a seat's group names its holder), and finds its place
    when its process hears the channel layer again."""
    try:
        async_to_sync(_tell_people)(table_id, user_ids)
    except Exception as exc:
        _seat_failures.failed(exc)
    else:
        _seat_failures.recovered()


async def _tell_people(table_id: int, user_ids: list[int]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.seat"}
    await _send_to_groups(layer, [(frames.person_group(table_id, u), message) for u in user_ids])


def table_changed(
    table_id: int,
    version: int,
    events: list[dict[str, Any]] | None = None,
    *,
    wake_conductor: bool = True,
    known: frames.Known | None = None,
) -> None:
    """After commit: every viewpoint gets its frame, and the conductor its wake-up
    unless the mover planned the next turn already (a person's: nothing to do
    until their clock runs out). ``known``: the move's rows, drawn without reading
    them again. Never raises; failures are retried in the background."""
    moved_at = time.time()  # called on commit: the move's latency starts here
    _note_stamp(table_id, version, moved_at)
    try:
        rendered_version, html = frames.render_all(table_id, known)
    except Exception as exc:  # the database went away after the commit
        _failures.failed(exc)
        retrier.add(table_id)
        return
    try:
        # One trip to the event loop for both sends (each trip is a thread switch).
        async_to_sync(_send_and_wake)(
            table_id, rendered_version, html, wake_conductor, moved_at
        )
    except Exception as exc:
        _failures.failed(exc)
        retrier.add(table_id)
    else:
        _failures.recovered()


async def _send_and_wake(
    table_id: int,
    version: int,
    html: frames.Frames,
    wake: bool = True,
    moved_at: float | None = None,
) -> None:
    await publish_async(table_id, version, html, moved_at)
    if not wake:
        return
    try:
        await wake_conductor(table_id)
    except Exception as exc:  # the conductor still polls: late, not lost
        _wake_failures.failed(exc)


#: When each recent move of this process was committed, by (table, version): the
#: mover's socket, which shows the move from this process, times it from there.
_stamps: OrderedDict[tuple[int, int], float] = OrderedDict()
_STAMPS_KEPT = 4096


def _note_stamp(table_id: int, version: int, moved_at: float) -> None:
    _stamps[(table_id, version)] = moved_at
    while len(_stamps) > _STAMPS_KEPT:
        with contextlib.suppress(KeyError):
            _stamps.popitem(last=False)


def moved_at(table_id: int, version: int) -> float | None:
    """When this process committed the move that made ``version``, if it did."""
    return _stamps.pop((table_id, version), None)


_failures = RateLimitedLog(log, "Sending a table's new frames")
_wake_failures = RateLimitedLog(log, "Waking the conductor")
_seat_failures = RateLimitedLog(log, "Telling sockets their seat changed")


class Retrier:
    """Re-publishes tables whose frames could not be sent, with backoff.

    The retries run on the process's own event loop when it has one (Daphne's,
    the worker's: :func:`attach`), where the channel layer already lives; in a
    process without one, on a loop of its own in a background thread.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: set[int] = set()
        self._active = False
        self._on: asyncio.AbstractEventLoop | None = None  # where the retry task runs
        self.loop: asyncio.AbstractEventLoop | None = None
        self._own_loop: asyncio.AbstractEventLoop | None = None

    def add(self, table_id: int) -> None:
        with self._lock:
            self._pending.add(table_id)
            on = self._on
            if self._active and on is not None and on.is_running() and not on.is_closed():
                return  # a retry task is at work and will see this table
            self._active = True
            self._on = self._target_loop()
        asyncio.run_coroutine_threadsafe(self._retry(), self._on)

    def pending(self) -> set[int]:
        with self._lock:
            return set(self._pending)

    def _target_loop(self) -> asyncio.AbstractEventLoop:
        loop = self.loop
        if loop is not None and loop.is_running() and not loop.is_closed():
            return loop
        if self._own_loop is None:
            self._own_loop = asyncio.new_event_loop()
            threading.Thread(
                target=self._own_loop.run_forever, name="notify-retry", daemon=True
            ).start()
        return self._own_loop

    async def _retry(self) -> None:
        delay = RETRY_FIRST_S
        while True:
            await asyncio.sleep(delay)
            with self._lock:
                tables, self._pending = self._pending, set()
                if not tables:
                    self._active = False
                    return
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


def attach(loop: asyncio.AbstractEventLoop) -> None:
    """Retry failed notifications on ``loop`` (the process's main event loop)."""
    retrier.loop = loop


def _render_closing(table_id: int) -> tuple[int, frames.Frames]:
    close_old_connections()
    try:
        return frames.render_all(table_id)
    finally:
        close_old_connections()


retrier = Retrier()
