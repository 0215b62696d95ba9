"""Sending the chat to its readers.

Each room has one group per language (``chat-t<table>-<room>-<lang>``,
``chat-c<tournament>-<lang>``); a connection joins the groups of the rooms its
viewer may read, in the viewer's language, and each person's connections also
join ``chat-user-<id>`` (their mutes follow them to every open page). Every
change comes as the services announced it, after commit
(:mod:`games.services.changes`, ``chat_changed``). A new message is drawn once
per language in use and per variant (with or without the mute and report
buttons) and sent to its room's groups; each connection picks its variant and
drops the authors its viewer muted. Nothing here touches the table: a message
never bumps its version or redraws its frames, so a flood of chat (which the
rate limits stop first) cannot slow the game.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.dispatch import receiver
from django.utils import translation

from games.live.draw import chat as chat_draw
from games.live.draw import frames
from games.models import ChatMessage
from games.services import changes
from games.services.chat import Where, tournament_table_ids

log = logging.getLogger(__name__)


def room_group(where: Where, lang: str) -> str:
    if where.table_id is not None:
        return f"chat-t{where.table_id}-{where.room}-{lang}"
    return f"chat-c{where.tournament_id}-{lang}"


def user_group(user_id: int) -> str:
    return f"chat-user-{user_id}"


def languages(where: Where) -> list[str]:
    """The languages a room is drawn in: a table's languages in use (its viewers
    note theirs on connect); every language for a tournament's page."""
    if where.table_id is not None:
        return frames.languages_in_use(where.table_id)
    return [code for code, _name in settings.LANGUAGES]


def message_events(message: ChatMessage) -> list[tuple[str, dict[str, Any]]]:
    """``(group, event)`` pairs that bring ``message`` to every reader of its room."""
    where = Where.of(message)
    sends = []
    for lang in languages(where):
        with translation.override(lang):
            event = {
                "type": "chat.message",
                "author_id": message.author_id,
                "plain": str(chat_draw.new_message_fragment(message, actions=False)),
                "actions": str(chat_draw.new_message_fragment(message, actions=True)),
            }
        group = room_group(where, lang)
        sends.append((group, {**event, "group": group}))
    return sends


def _send_all(sends: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        for group, event in sends:
            await layer.group_send(group, event)

    try:
        async_to_sync(send)()
    except Exception:  # the layer is away: the readers see it on their next connect
        log.warning("could not send a chat change", exc_info=True)


def _wheres(data: dict[str, Any]) -> list[Where]:
    """The rooms a table's or a tournament's change reaches."""
    if data.get("table_id") is not None:
        table_id = int(data["table_id"])
        return [Where("players", table_id=table_id), Where("spectators", table_id=table_id)]
    return [Where("tournament", tournament_id=int(data["tournament_id"]))]


@receiver(changes.chat_changed)
def _chat_changed(sender: object, event: str, data: dict[str, Any], **kwargs: object) -> None:
    """Someone said something, a moderator deleted a message, someone muted a
    person, or free text was switched: tell the connections concerned (after
    commit)."""
    sends: list[tuple[str, dict[str, Any]]] = []
    if event == "posted":
        message = (
            ChatMessage.objects.select_related("author__player")
            .filter(pk=int(data["message_id"]))
            .first()
        )
        if message is not None:  # else deleted in the meantime: nothing to show
            sends = message_events(message)
    elif event == "removed":
        where = Where(str(data["room"]), data.get("table_id"), data.get("tournament_id"))
        html = str(chat_draw.removed_fragment(int(data["message_id"])))
        sends = [
            (room_group(where, lang), {"type": "chat.removed", "html": html})
            for lang in languages(where)
        ]
    elif event == "muted":
        sends = [(user_group(int(data["user_id"])), {"type": "chat.muted"})]
    elif event == "policy":
        wheres = _wheres(data)
        if data.get("tournament_id") is not None:
            # Its tables without a setting of their own follow it: their
            # connections redraw their controls too.
            for table_id in tournament_table_ids(int(data["tournament_id"])):
                wheres += _wheres({"table_id": table_id})
        sends = [
            (room_group(where, lang), {"type": "chat.policy"})
            for where in wheres
            for lang in languages(where)
        ]
    _send_all(sends)
