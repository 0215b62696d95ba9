"""A signed-in person's own WebSocket, one per open page (``/ws/person/``).

It carries what services announce to that person
(``games.services.changes.announce_to_user``), and nothing else: the
connection joins only the group of the user its session names
(:func:`games.live.deliver.person.person_group`), so nobody hears another
person's events, and a signed-out visitor gets no socket at all.

- ``paired`` and ``challenge-accepted`` (data ``{"url": ...}``): the page goes to
  that table by itself (static/js/person.js).
- anything else (``challenge``, ``match-ready``): the person's notices are drawn
  again from the database, in their language, and replace what the page shows.
  The same happens on connecting, so a page never keeps a stale notice, and when
  a shown challenge expires.

The connection also counts as the person being online (a ``Presence`` row
without a table).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import TYPE_CHECKING, cast

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from games.i18n import scope_language
from games.live.deliver.person import NAVIGATING_EVENTS, person_group
from games.live.draw import notices
from games.live.receive.consumers import ensure_process_tasks, in_db
from games.live.store import presence
from games.runtime import metrics

if TYPE_CHECKING:
    from django.contrib.auth.models import User

log = logging.getLogger(__name__)

#: Close code: only a signed-in person has a socket of their own.
CLOSE_SIGNED_OUT = 4403


class PersonConsumer(AsyncWebsocketConsumer):
    user_id: int
    group: str
    language: str
    _expiry: asyncio.Task[None] | None = None
    #: Counted in ``blot_open_sockets`` (kind "person") while open.
    counted = False

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        ensure_process_tasks()
        self.user_id = user.pk
        self.language = await in_db(scope_language)(self.scope)
        self.group = person_group(self.user_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.counted = True
        metrics.open_sockets.labels(kind="person").inc()
        presence.live_set.open(self.channel_name, None, self.user_id, None)
        await self.send_notices()

    async def disconnect(self, code: int) -> None:
        if self.counted:
            self.counted = False
            metrics.open_sockets.labels(kind="person").dec()
        if not hasattr(self, "group"):
            return
        if self._expiry is not None:
            self._expiry.cancel()
        presence.live_set.close(self.channel_name)
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except Exception:  # Redis away: the subscription dies with the connection
            log.debug("person %s: could not leave the group", self.user_id, exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page says nothing over this socket (answers are plain requests)."""

    async def person_event(self, event: dict) -> None:
        """Something was announced to this person."""
        if event.get("event") in NAVIGATING_EVENTS:
            url = str((event.get("data") or {}).get("url") or "")
            if url.startswith("/"):  # only ever a page of this site
                await self.send(text_data=notices.go_html(url))
            return
        await self.send_notices()

    async def table_resync(self, event: dict) -> None:
        """This process hears the channel layer again after an outage: what was
        announced meanwhile may have missed this page."""
        await self.send_notices()

    async def send_notices(self) -> None:
        try:
            html, next_change = await in_db(self._draw)()
        except Exception:  # the database is away: the next push or reconnect redraws
            log.warning("person %s: could not draw the notices", self.user_id, exc_info=True)
            return
        await self.send(text_data=html)
        self._redraw_at(next_change)

    def _draw(self) -> tuple[str, datetime | None]:
        # connect() closed every socket without a signed-in user.
        user = cast("User", self.scope["user"])
        return notices.everything(user, self.language)

    def _redraw_at(self, when: datetime | None) -> None:
        """Draw again when a shown challenge expires (nothing announces that)."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        if when is None:
            return
        delay = max(0.0, (when - timezone.now()).total_seconds()) + 0.5
        self._expiry = asyncio.get_running_loop().create_task(self._redraw_after(delay))

    async def _redraw_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._expiry = None
        with contextlib.suppress(Exception):
            await self.send_notices()
