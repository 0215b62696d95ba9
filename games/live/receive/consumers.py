"""The table's WebSocket: one per viewer, carrying moves in and views out.

The connection's user (from the session) decides the seat; a message never
does. A player's connection joins the group of its seat's viewpoint and forwards
the frames published there; a spectator's is handed the spectators' frames by
its server process's relay (:mod:`games.live.deliver.spectators`), the one
member of the spectators' group in that process. After a change the table is
rendered once per viewpoint (:mod:`games.live.deliver.notify`), so a viewer only
ever receives what ``engine.observe`` gives their seat (or a spectator), and the
work per viewer is sending. Presence is recorded in per-process batches
(:class:`games.live.store.presence.LiveSet`); a spectator arriving or leaving changes
only the watcher count, sent as a small fragment at most about once a second.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import DatabaseError, InterfaceError
from django.utils import translation

from games.i18n import scope_language
from games.live.conduct import conductor
from games.live.deliver import notify, spectators
from games.live.deliver.layerwatch import LayerWatch
from games.live.draw import chat as chat_draw
from games.live.draw import frames, render
from games.live.receive.access import viewer_seat
from games.live.receive.chat import ChatMixin
from games.live.store import presence
from games.live.submit.play import (
    NotYourSeat,
    Refused,
    action_from_client,
    parse_client_message,
    submit,
)
from games.runtime import metrics
from games.runtime.lograte import RateLimitedLog
from games.runtime.structlog import event as log_event
from games.services.chat import Where

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Close codes: the table does not exist for this viewer.
CLOSE_NOT_FOUND = 4404

#: Threads for the consumers' database work. Not the one thread Channels shares by
#: default: moves at different tables, joins and resends then wait on the database
#: side by side instead of in one queue (a move's row lock still serialises each
#: table). Each thread takes a connection from the process's pool. Two, not
#: more: moves are mostly Python under one GIL, and more threads only time-slice
#: it, delaying every move and the event loop's forwarding (50 busy tables, move
#: to last viewer p99 on the development machine: 2 threads 44-57 ms, 4 threads
#: 61-78 ms; a slower machine showed the same order, more strongly).
DB_THREADS = 2
#: Moves refused because the database is away (every move during an outage).
_move_failures = RateLimitedLog(log, "Storing a move")
_db_pool = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="consumer-db")


def in_db(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    return DatabaseSyncToAsync(fn, thread_sensitive=False, executor=_db_pool)


class TableConsumer(ChatMixin):
    table_id: int
    seat: int | None
    user_id: int | None
    token: str | None  # the invite the connection came with (a private table)
    group: str  # a player's: where they hear the watcher count
    viewpoint: str
    #: Every connection of this person at this table: told when their place changes.
    place_group: str | None = None
    sent_version: int = -1
    closed: bool = False

    def chat_in_db(self, fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        return in_db(fn)

    async def dispatch(self, message: dict) -> None:
        """Run the message's handler. Channels would first close stale database
        connections through a hop to its one shared sync thread, for every
        message — every frame to every viewer, queued one after another. This
        consumer reaches the database only through :func:`in_db` (and the session
        middleware's own database calls), which close stale connections in the
        thread that uses them, so forwarding a frame is only sending it."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        conductor.ensure_started()
        ensure_process_tasks()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        invites = query.get("invite")
        self.token = invites[0] if invites else None
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        if self.user_id is not None:
            # Joined before the seat is read: a seat change committed from now on
            # reaches this connection (after its connect, in order).
            self.place_group = frames.person_group(self.table_id, self.user_id)
            await self.channel_layer.group_add(self.place_group, self.channel_name)
        # One trip to the database threads for what a join reads before it joins
        # its groups (a storm of joins must not queue moves behind it).
        admitted = await in_db(_admit)(self.table_id, self.scope, self.token)
        if admitted is None:
            await self._leave_place_group()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        seat, self.language, chat = admitted
        await self._take_place(seat)
        await self.accept()
        self._opened(seat)
        presence.live_set.open(self.channel_name, self.table_id, self.user_id, seat)
        await self._send_first_frame()
        # The chat beside the table: its own groups, never in a frame.
        self.chat_next_url = f"/tables/{self.table_id}/"
        await self.chat_join(*chat)

    async def _take_place(self, seat: int | None) -> None:
        """Join the groups of ``seat``'s viewpoint (None: the spectators')."""
        self.seat = seat
        self.viewpoint = frames.viewpoint_group(self.table_id, seat, self.language, self.user_id)
        if seat is None:
            # Frames and the watcher count: one member per process for all its
            # spectators of the table.
            await spectators.relay.join(self.viewpoint, self.channel_name, self)
        else:
            self.group = frames.watchers_group(self.table_id, self.language)
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.channel_layer.group_add(self.viewpoint, self.channel_name)

    async def _leave_place(self) -> None:
        try:
            if self.seat is None:
                await spectators.relay.leave(self.viewpoint, self.channel_name)
            else:
                for group in (self.group, self.viewpoint):
                    await self.channel_layer.group_discard(group, self.channel_name)
        except Exception:  # Redis away: the subscription dies with the connection
            log.debug("table %s: could not leave its groups", self.table_id, exc_info=True)

    async def _leave_place_group(self) -> None:
        if self.place_group is None:
            return
        try:
            await self.channel_layer.group_discard(self.place_group, self.channel_name)
        except Exception:  # Redis away: the subscription dies with the connection
            log.debug("table %s: could not leave its person group", self.table_id, exc_info=True)

    #: What this socket counts as in ``blot_open_sockets`` (its place when it opened).
    socket_kind: str | None = None

    def _opened(self, seat: int | None) -> None:
        self.socket_kind = "spectator" if seat is None else "table"
        metrics.open_sockets.labels(kind=self.socket_kind).inc()
        log_event(
            "socket_open", kind=self.socket_kind, table_id=self.table_id,
            seat=seat, user_id=self.user_id,
        )

    def _closed(self, code: int) -> None:
        if self.socket_kind is None:
            return
        metrics.open_sockets.labels(kind=self.socket_kind).dec()
        log_event(
            "socket_close", kind=self.socket_kind, table_id=self.table_id,
            seat=self.seat, user_id=self.user_id, code=code,
        )
        self.socket_kind = None

    async def disconnect(self, code: int) -> None:
        self._closed(code)
        await self._leave_place_group()
        if not hasattr(self, "viewpoint") or self.closed:
            return
        self.closed = True
        presence.live_set.close(self.channel_name)
        await self.chat_leave()
        await self._leave_place()

    async def table_seat(self, event: dict) -> None:
        """This person's place at the table changed (a service announced it):
        take the new one."""
        await self._readmit()

    async def _readmit(self, force: bool = False) -> None:
        """Admit this connection again as what its user is now: moved to their
        new seat's viewpoint or to the spectators' (with the chat rooms that
        go with it), or closed when they may no longer view the table. The
        connection is then sent the table from its new place (if it moved or
        ``force``; else only if it is behind)."""
        if self.closed or not hasattr(self, "viewpoint"):
            return
        try:
            admitted = await in_db(_admit)(self.table_id, self.scope, self.token)
        except Exception:
            # The database is away: this connection may act for nobody meanwhile
            # (every move checks its seat) and takes its place at the next change.
            log.warning("table %s: could not re-admit a connection", self.table_id)
            return
        if admitted is None:
            self.closed = True
            presence.live_set.close(self.channel_name)
            await self.chat_leave()
            await self._leave_place()
            await self._leave_place_group()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        seat, _language, chat = admitted
        moved = seat != self.seat
        if moved:
            await self._leave_place()
            await self._take_place(seat)
            presence.live_set.move(self.channel_name, seat)
            await self.chat_leave()
            await self.chat_join(*chat)
            await self.chat_resend()
        await self.send_table(force=force or moved, readmit=False)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Refusals are worded in the viewer's language (the override is
        # context-local, so it reaches the database threads too).
        with translation.override(self.language):
            await self._receive(text_data, bytes_data)

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        try:
            data = parse_client_message(text_data if text_data is not None else bytes_data or b"")
            if data.get("type") == "refresh":
                await self._show_truth()
                return
            if await self.chat_receive(data):
                return
            if self.seat is None:
                raise Refused(render.SPECTATORS_CANNOT_PLAY)
            action, version = action_from_client(data, self.seat)
            # submit() never fails for want of telling the viewers: once the move
            # is stored it is accepted, and notify retries the frames itself.
            stored = await in_db(submit)(self.table_id, action, version, user_id=self.user_id)
        except NotYourSeat as exc:
            # This connection has not heard yet that its seat changed hands.
            await self.send(text_data=render.error_fragment(exc.message))
            await self._readmit(force=True)
            return
        except Refused as exc:
            await self.send(text_data=render.error_fragment(exc.message))
            await self._show_truth()
            return
        except Exception as exc:
            # The move's transaction rolled back; keep the connection and say so.
            if isinstance(exc, DatabaseError | InterfaceError):
                _move_failures.failed(exc)  # an outage: one traceback, then a count
            else:
                log.exception("table %s: a move failed", self.table_id)
            await self.send(text_data=render.error_fragment(render.MOVE_FAILED))
            await self._show_truth()
            return
        _move_failures.recovered()
        # The move is stored. The mover sees it taken at once, from this process
        # (the frame was cached when it was rendered), even while the channel
        # layer is slow or away.
        cached = frames.cache.get(self.table_id, self.seat, stored, self.language)
        if cached is not None:
            if stored > self.sent_version:
                self.sent_version = stored
                await self.send(text_data=cached)
                metrics.frame_sends.sent(
                    self.table_id, stored, notify.moved_at(self.table_id, stored),
                    len(cached.encode()),
                )
            return
        try:
            await self.send_table()
        except Exception:  # the published frame follows; the move is not in doubt
            log.warning("table %s: could not show the mover their move", self.table_id)

    async def _show_truth(self) -> None:
        """Whatever the client showed, show it the stored table (if the database
        answers: during an outage the connection stays, the next frame comes later)."""
        try:
            await self.send_table(force=True)
        except Exception:
            log.warning("table %s: could not resend the table", self.table_id)

    async def table_frame(self, event: dict) -> None:
        """A frame rendered once for this connection's viewpoint: forward it
        unless this viewer already has that version or a newer one. A frame of
        a place the connection has just left (queued before it left) is not
        forwarded."""
        if event.get("group", self.viewpoint) != self.viewpoint:
            return
        if event["version"] > self.sent_version:
            self.sent_version = event["version"]
            await self.send(text_data=event["html"])
            metrics.frame_sends.sent(
                self.table_id, event["version"], event.get("moved_at"), len(event["html"].encode())
            )

    async def table_watchers(self, event: dict) -> None:
        # Only the count: a spectator who may have missed a version meanwhile is
        # brought up to date by the spectators' frame sent with it, once for all
        # (send_watcher_counts), not by each spectator reading the table: that
        # cost every join a query per spectator already watching.
        await self.send(text_data=event["html"])

    async def table_resync(self, event: dict) -> None:
        """This process hears the channel layer again after an outage: frames
        published meanwhile may have missed it, and so may a change of this
        person's seat, so take the place they have now and send what is stored."""
        try:
            await self._readmit()
        except Exception:
            log.warning("table %s: could not resend the table", self.table_id)

    async def _send_first_frame(self) -> None:
        """A spectator joining where others of this process watch is sent their
        newest frame, without reading the table; the others read it (and a
        spectator's reading is kept for the next joiner)."""
        if self.seat is not None:
            await self.send_table()
            return
        latest = spectators.relay.latest(self.viewpoint)
        if latest is None:
            await self.send_table()
            return
        self.sent_version, html = latest
        await self.send(text_data=html)

    async def send_table(self, force: bool = False, readmit: bool = True) -> None:
        """Send the stored table from this connection's place. If its seat is
        no longer its user's, take their new place first (``readmit``)."""
        try:
            version, html = await in_db(frames.frame_for)(
                self.table_id, self.seat, self.language, self.user_id
            )
        except frames.NotHolder:
            if readmit:
                await self._readmit()
            return
        if self.seat is None:
            spectators.relay.note(self.viewpoint, version, html)
        if force or version > self.sent_version:
            self.sent_version = max(self.sent_version, version)
            await self.send(text_data=html)


def _admit(
    table_id: int, scope: dict, token: str | None
) -> tuple[int | None, str, tuple[list[Where], chat_draw.Viewer]] | None:
    """The connection's seat (None: watching), its language and its chat rooms,
    or None if it may not view the table. Drawn in the viewer's language (there
    is no request, so no middleware): the table learns the language before the
    viewer joins its groups, so no frame published from then on misses it."""
    user = scope.get("user")
    allowed, seat = viewer_seat(table_id, user, token)
    if not allowed:
        return None
    language = scope_language(scope)
    frames.note_language(table_id, language)
    return seat, language, chat_draw.table_chat(table_id, user, seat)


async def send_watcher_counts(counts: dict[int, int]) -> None:
    """Every viewer of each table hears its new spectator count (one small
    fragment), and its spectators the table's current frame: frames for
    spectators are drawn only while the table counts some, so one who arrived
    just before the count rose may have missed a version. Both are one message
    per language, however many watch (at most about once a second per process:
    the counts come from the presence batch)."""
    layer = get_channel_layer()
    if layer is None:  # no channel layer configured: nobody else to tell
        return
    for table_id, count in counts.items():
        try:
            languages = await in_db(frames.languages_in_use)(table_id)
            for lang in languages:
                fragment = frames.watchers_fragment(count, lang)
                message = {"type": "table.watchers", "html": fragment}
                await layer.group_send(frames.watchers_group(table_id, lang), message)
                group = frames.viewpoint_group(table_id, None, lang)
                await layer.group_send(group, {**message, spectators.GROUP_KEY: group})
            for lang in languages if count else []:
                version, html = await in_db(frames.frame_for)(table_id, None, lang)
                group = frames.viewpoint_group(table_id, None, lang)
                await layer.group_send(group, frames.frame_message(group, version, html))
        except Exception:
            log.warning("table %s: could not send the watcher count", table_id, exc_info=True)


_writer: asyncio.Task[None] | None = None
_watch: asyncio.Task[None] | None = None


def ensure_process_tasks() -> None:
    """Start this process's batched presence writer and its channel layer watch
    on the running loop, once."""
    global _writer, _watch
    loop = asyncio.get_running_loop()
    notify.attach(loop)
    if _writer is None or _writer.done() or _writer.get_loop() is not loop:
        _writer = loop.create_task(
            presence.keep_writing(
                presence.live_set, lambda fn: database_sync_to_async(fn)(), send_watcher_counts
            )
        )
    # One process's in-memory layer cannot go away; a Redis one can.
    layer = get_channel_layer()
    remote = layer is not None and not isinstance(layer, InMemoryChannelLayer)
    if remote and (_watch is None or _watch.done() or _watch.get_loop() is not loop):
        _watch = loop.create_task(LayerWatch(layer, resync_live_connections).run())


async def resync_live_connections() -> None:
    """Every connection of this process resends its table if it is behind."""
    frames.forget_noted_languages()
    spectators.relay.forget_frames()
    layer = get_channel_layer()
    if layer is None:  # no channel layer configured: nobody else to tell
        return
    for channel in presence.live_set.channels():
        try:
            await layer.send(channel, {"type": "table.resync"})
        except Exception:
            log.warning("could not ask a connection to resend its table", exc_info=True)
            return
