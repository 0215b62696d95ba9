"""The chat's side of a socket: the table's consumer mixes it in, and
a tournament page has a small socket of its own (:class:`TournamentChatConsumer`).

A connection reads the rooms its viewer may read (a player: the players' room
only; anyone else at a table: both rooms; a tournament page: its room) and takes
the chat's messages: ``{"type": "chat", "room": ..., "phrase": id}`` or
``{..., "text": ...}``, ``chat-mute`` / ``chat-unmute`` (``author``),
``chat-report`` (``message``) and ``chat-free-text`` (``on``). The rules are the
service's (:mod:`games.services.chat`); a refusal goes to the sender alone, in
``[data-chat-refusal]``, and nothing else happens.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from games.i18n import scope_language
from games.live.deliver import chat as chat_deliver
from games.live.draw import chat as chat_draw
from games.live.submit.play import Refused, parse_client_message
from games.models import Room, Tournament
from games.runtime import metrics
from games.services import chat as chat_service
from games.services.errors import ServiceError

log = logging.getLogger(__name__)

#: The message types this module takes (everything else is the table's).
TYPES = frozenset(
    {"chat", "chat-sync", "chat-mute", "chat-unmute", "chat-report", "chat-free-text"}
)


class ChatMixin(AsyncWebsocketConsumer):
    """A consumer's chat: the consumer sets ``language`` and may give its own
    database runner (the table consumer's threads)."""

    chat_wheres: list[chat_service.Where]
    chat_viewer: chat_draw.Viewer
    chat_groups: list[str]
    chat_next_url: str = "/"

    language: str

    def chat_in_db(self, fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        return database_sync_to_async(fn)

    async def chat_join(self, wheres: list[chat_service.Where], viewer: chat_draw.Viewer) -> None:
        """Join the rooms' groups. The page asks for the recent messages once its
        socket is open (``chat-sync``: the page may have been drawn a while ago,
        or this is a reconnect), so the table's first frame stays the first
        message on every connect."""
        self.chat_wheres = wheres
        self.chat_viewer = viewer
        self.chat_groups = [chat_deliver.room_group(w, self.language) for w in wheres]
        if viewer.user_id is not None:
            self.chat_groups.append(chat_deliver.user_group(viewer.user_id))
        layer = self.channel_layer
        for group in self.chat_groups:
            await layer.group_add(group, self.channel_name)

    async def chat_leave(self) -> None:
        layer = self.channel_layer
        for group in getattr(self, "chat_groups", []):
            try:
                await layer.group_discard(group, self.channel_name)
            except Exception:  # the layer is away: the subscription dies with the socket
                log.debug("could not leave %s", group, exc_info=True)

    async def chat_resend(self, *, logs: bool = True) -> None:
        """Send each room's recent messages (``logs``) and controls afresh."""
        html = await self.chat_in_db(self._chat_rooms_html)(logs)
        await self.send(text_data=html)

    def _chat_rooms_html(self, logs: bool) -> str:
        with translation.override(self.language):
            viewer = self.chat_viewer
            free_text = chat_service.free_text_on(self.chat_wheres[0])
            parts = []
            for where in self.chat_wheres:
                if logs:
                    messages = chat_service.recent(where)
                    parts.append(chat_draw.log_html(where.room, messages, viewer, oob=True))
                parts.append(
                    chat_draw.controls_html(
                        where, viewer, free_text=free_text, next_url=self.chat_next_url, oob=True
                    )
                )
            if logs:
                parts.append(chat_draw.muted_html(self.scope.get("user"), oob=True))
            return "".join(parts)

    async def chat_receive(self, data: dict[str, Any]) -> bool:
        """Handle ``data`` if it is the chat's (True), else leave it (False)."""
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in TYPES or not hasattr(self, "chat_wheres"):
            return False
        if kind == "chat-sync":
            await self.chat_resend()
            return True
        if self._chat_flooding():
            metrics.chat_refusals.inc()
            # Refused here, in the event loop: a flood from one socket costs no
            # database or cache trip (the service's limits hold across sockets).
            with translation.override(self.language):
                refused = translation.gettext(
                    "You are sending messages too fast. Wait a few seconds."
                )
            await self.send(text_data=str(chat_draw.refusal_fragment(refused)))
            return True
        user = self.scope.get("user")
        try:
            notice = await self.chat_in_db(self._chat_act)(kind, data, user)
        except ServiceError as exc:
            metrics.chat_refusals.inc()
            await self.send(text_data=str(chat_draw.refusal_fragment(exc.message)))
            return True
        except Exception:
            log.exception("a chat message failed")
            with translation.override(self.language):
                failed = translation.gettext("The message could not be sent. Try again.")
            await self.send(text_data=str(chat_draw.refusal_fragment(failed)))
            return True
        await self.send(text_data=notice)
        return True

    def _chat_flooding(self) -> bool:
        """Whether this connection has used up the burst limit (one more would
        go over it); each chat action counts."""
        burst, _sustained = chat_service.limits()
        now = time.monotonic()
        sent = self.__dict__.setdefault("_chat_sent", deque())
        while sent and now - sent[0] >= burst.seconds:
            sent.popleft()
        if len(sent) >= burst.count:
            return True
        sent.append(now)
        return False

    def _chat_act(self, kind: str, data: dict[str, Any], user: Any) -> str:
        """Do what the message asks (in a database thread); the sender's answer."""
        with translation.override(self.language):
            if kind == "chat":
                where = self._chat_where(data.get("room"))
                text = data.get("text")
                chat_service.post(where, user, phrase=data.get("phrase"), text=text)
                return str(chat_draw.cleared_refusal())
            if kind in ("chat-mute", "chat-unmute"):
                act = chat_service.mute if kind == "chat-mute" else chat_service.unmute
                act(user, data.get("author"))
                return str(chat_draw.cleared_refusal())
            if kind == "chat-report":
                chat_service.report(user, data.get("message"), self.chat_wheres)
                return str(
                    chat_draw.notice_fragment(
                        translation.gettext(
                            "Thank you. The moderators will read the message and what came "
                            "before it."
                        )
                    )
                )
            raw = data.get("on")
            if raw not in ("1", "0", 1, 0, True, False):
                raise ServiceError(translation.gettext("That is not a chat setting."))
            on = raw in ("1", 1, True)
            chat_service.set_free_text(self.chat_wheres[0], user, on)
            return str(chat_draw.cleared_refusal())

    def _chat_where(self, room: object) -> chat_service.Where:
        for where in self.chat_wheres:
            if where.room == room:
                return where
        # A room this viewer does not read (a player naming the spectators' room).
        if room == Room.SPECTATORS:
            raise ServiceError(translation.gettext("Players do not write in the spectators' room."))
        raise ServiceError(translation.gettext("There is no such room here."))

    # Group events.

    async def chat_message(self, event: dict[str, Any]) -> None:
        group = event.get("group")
        if group is not None and group not in self.chat_groups:
            return  # a room this connection left (queued before it left)
        viewer = self.chat_viewer
        if event["author_id"] in viewer.muted:
            return
        mine = event["author_id"] == viewer.user_id
        variant = "actions" if viewer.user_id is not None and not mine else "plain"
        await self.send(text_data=event[variant])

    async def chat_removed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])

    async def chat_muted(self, event: dict[str, Any]) -> None:
        """The viewer muted or unmuted someone (here or on another page)."""
        user = self.scope.get("user")
        self.chat_viewer.muted = await self.chat_in_db(chat_service.muted_ids)(user)
        await self.chat_resend()

    async def chat_policy(self, event: dict[str, Any]) -> None:
        await self.chat_resend(logs=False)


def tournament_viewer(tournament_id: int, user: Any) -> chat_draw.Viewer | None:
    """Who reads a tournament's room (None: the page is not theirs to see)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    organiser = (
        user is not None
        and user.is_authenticated
        and (user.is_staff or tournament.created_by_id == user.pk)
    )
    if tournament.status == "draft" and not organiser:
        return None
    return chat_draw.Viewer.of(user, may_switch=bool(organiser))


class TournamentChatConsumer(ChatMixin):
    """``/ws/chat/tournament/<id>/``: a tournament page's room, nothing else."""

    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        viewer = await self.chat_in_db(tournament_viewer)(tournament_id, user)
        if viewer is None:
            await self.close(code=4404)
            return
        self.language = await self.chat_in_db(scope_language)(self.scope)
        self.chat_next_url = f"/tournaments/{tournament_id}/"
        await self.accept()
        self.chat_counted = True
        metrics.open_sockets.labels(kind="chat").inc()
        await self.chat_join(
            [chat_service.Where(Room.TOURNAMENT, tournament_id=tournament_id)], viewer
        )

    #: Counted in ``blot_open_sockets`` (kind "chat") while open.
    chat_counted = False

    async def disconnect(self, code: int) -> None:
        if self.chat_counted:
            self.chat_counted = False
            metrics.open_sockets.labels(kind="chat").dec()
        await self.chat_leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        with translation.override(self.language):
            try:
                data = parse_client_message(
                    text_data if text_data is not None else bytes_data or b""
                )
            except Refused as exc:
                await self.send(text_data=str(chat_draw.refusal_fragment(str(exc.message))))
                return
            if not await self.chat_receive(data):
                await self.send(
                    text_data=str(
                        chat_draw.refusal_fragment(
                            translation.gettext("There is no such room here.")
                        )
                    )
                )
