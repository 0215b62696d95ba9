"""The table's WebSocket: one per viewer, carrying moves in and views out.

The connection's user (from the session) decides the seat; a message never
does. On every change of the table each consumer renders its own viewer's table
and sends it as an out-of-band swap, so a viewer only ever receives what
``engine.observe`` gives their seat (or a spectator).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from games.i18n import scope_language
from games.live import conductor, notify, presence, render
from games.live.access import viewer_seat
from games.live.play import Refused, action_from_client, parse_client_message, submit

log = logging.getLogger(__name__)

#: Close codes: the table does not exist for this viewer.
CLOSE_NOT_FOUND = 4404


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    seat: int | None
    group: str

    async def connect(self) -> None:
        conductor.ensure_started()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        token = (query.get("invite") or [None])[0]
        user = self.scope.get("user")
        allowed, seat = await database_sync_to_async(viewer_seat)(self.table_id, user, token)
        if not allowed:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.seat = seat
        # Rendered in the viewer's language: there is no request, so no middleware.
        self.language = await database_sync_to_async(scope_language)(self.scope)
        self.group = notify.group_name(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        user_id = user.pk if user is not None and user.is_authenticated else None
        await database_sync_to_async(presence.opened)(
            self.table_id, self.channel_name, user_id, seat
        )
        self._heartbeat = asyncio.create_task(self._beat())
        await self.send_table()
        await self._tell_watchers()

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        self._heartbeat.cancel()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await database_sync_to_async(presence.closed)(self.table_id, self.channel_name)
        await self._tell_watchers()

    async def _tell_watchers(self) -> None:
        """The spectator count changed: everyone's table shows it."""
        if self.seat is None:
            await self.channel_layer.group_send(self.group, {"type": "table.changed"})

    async def _beat(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(presence.HEARTBEAT_S)
                await database_sync_to_async(presence.seen)(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        with translation.override(self.language):
            await self._receive(text_data, bytes_data)

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        try:
            data = parse_client_message(text_data if text_data is not None else bytes_data or b"")
            if data.get("type") == "refresh":
                await self.send_table()
                return
            if self.seat is None:
                raise Refused(render.SPECTATORS_CANNOT_PLAY)
            action, version = action_from_client(data, self.seat)
            await database_sync_to_async(submit)(self.table_id, action, version)
        except Refused as exc:
            await self.send(text_data=render.error_fragment(exc.message))
            await self.send_table()  # whatever the client showed, show it the truth
        except Exception:
            # The move's transaction rolled back; keep the connection and say so.
            log.exception("table %s: a move failed", self.table_id)
            await self.send(text_data=render.error_fragment(render.MOVE_FAILED))
            await self.send_table()

    async def table_changed(self, event: dict) -> None:
        await self.send_table()

    async def send_table(self) -> None:
        # The override is context-local, so it reaches the thread that renders.
        with translation.override(self.language):
            html = await database_sync_to_async(render.table_fragment)(self.table_id, self.seat)
        await self.send(text_data=html)
