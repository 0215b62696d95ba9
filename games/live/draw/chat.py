"""Drawing the chat: a room's messages, its controls, the panel.

Everything is drawn in the current language (the caller overrides it): a quick
phrase is stored by its id and drawn as the reader's words, free text is drawn
as written, escaped by the templates (never a link). A new message is drawn
once per language and per *variant* — with the mute and report buttons (for
signed-in readers other than its author) or without — never once per reader.

The chat lives beside the table's root, not in it: the table's frames never
carry it, and a message is one small fragment appended to its room's log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.labels import is_bot_account
from games.live.draw import drawing
from games.models import ChatMessage, Phrase, Room
from games.services import chat as chat_service
from games.services.chat import Where


@dataclass
class Viewer:
    """Who reads a chat: what they may do decides the controls drawn for them."""

    user_id: int | None = None
    username: str = ""
    player: bool = False  # seated at the table
    may_switch: bool = False  # may switch free text on and off
    muted: set[int] = field(default_factory=set)

    @property
    def signed_in(self) -> bool:
        return self.user_id is not None

    @classmethod
    def of(cls, user: Any, *, player: bool = False, may_switch: bool = False) -> Viewer:
        if user is None or not user.is_authenticated:
            return cls()
        return cls(
            user_id=user.pk,
            username=user.get_username(),
            player=player,
            may_switch=may_switch,
            muted=chat_service.muted_ids(user),
        )


def table_rooms(viewer: Viewer) -> list[str]:
    """The rooms a viewer of a table reads: players only their own room."""
    return [Room.PLAYERS] if viewer.player else [Room.PLAYERS, Room.SPECTATORS]


def _vals(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def _name(message: ChatMessage) -> str:
    player = getattr(message.author, "player", None)
    return player.display_name if player is not None else message.author.get_username()


def said(message: ChatMessage) -> str:
    """What the message says, in the current language."""
    if message.phrase:
        return gettext(str(Phrase(message.phrase).label))
    return message.text


def message_view(message: ChatMessage) -> dict[str, Any]:
    when = timezone.localtime(message.created_at)
    author = message.author.get_username()
    name = _name(message)
    return {
        "id": message.pk,
        "author": author,
        "name": name,
        "bot": is_bot_account(message.author),
        "said": said(message),
        "phrase": message.phrase,
        "iso": when.isoformat(timespec="seconds"),
        "time": when.strftime("%H:%M"),
        "mute_vals": _vals({"type": "chat-mute", "author": author}),
        "report_vals": _vals({"type": "chat-report", "message": message.pk}),
        "mute_label": gettext("Mute %(name)s") % {"name": name},
        "report_label": gettext("Report this message by %(name)s") % {"name": name},
    }


def message_html(message: ChatMessage, *, actions: bool) -> SafeString:
    return drawing.draw("live/chat/_message.html", {"m": message_view(message), "actions": actions})


def log_items(messages: list[ChatMessage], viewer: Viewer) -> SafeString:
    return mark_safe(
        "".join(
            message_html(m, actions=viewer.signed_in and m.author_id != viewer.user_id)
            for m in messages
            if m.author_id not in viewer.muted
        )
    )


def log_html(room: str, messages: list[ChatMessage], viewer: Viewer, *, oob: bool) -> SafeString:
    return drawing.draw(
        "live/chat/_log.html",
        {"room": room, "items": log_items(messages, viewer), "oob": oob},
    )


def _login_url(next_url: str) -> str:
    return f"{reverse('login')}?next={next_url}"


def controls_html(
    where: Where, viewer: Viewer, *, free_text: bool, next_url: str, oob: bool
) -> SafeString:
    """The phrase buttons and the free-text form of one room, as ``viewer`` may
    use them (or the sentence that says why they cannot)."""
    room = where.room
    can_post = viewer.signed_in and (
        room == Room.TOURNAMENT
        or (room == Room.PLAYERS and viewer.player)
        or (room == Room.SPECTATORS and not viewer.player)
    )
    note = ""
    if not viewer.signed_in:
        note = ""  # the template offers to log in
    elif not can_post and room == Room.PLAYERS:
        note = gettext("Only the players write here.")
    phrases = [
        {
            "id": value,
            "label": gettext(str(label)),
            "vals": _vals({"type": "chat", "room": room, "phrase": value}),
        }
        for value, label in Phrase.choices
    ]
    context = {
        "room": room,
        "oob": oob,
        "can_post": can_post,
        "signed_in": viewer.signed_in,
        "login_url": _login_url(next_url),
        "note": note,
        "phrases": phrases,
        "free_text": free_text,
        # Players' free text waits for the end of the deal (the page hides the
        # form while a deal is played; the server refuses it anyway).
        "deal_rule": room == Room.PLAYERS,
        "form_vals": _vals({"type": "chat", "room": room}),
        "max_text": chat_service.MAX_TEXT,
        "may_switch": viewer.may_switch,
        "switch_vals": _vals({"type": "chat-free-text", "on": "0" if free_text else "1"}),
    }
    return drawing.draw("live/chat/_controls.html", context)


def panel_html(
    wheres: list[Where], viewer: Viewer, *, next_url: str, user: Any = None
) -> SafeString:
    """The whole chat: each room's recent messages and controls (page load)."""
    free_text = chat_service.free_text_on(wheres[0])
    rooms = []
    for where in wheres:
        messages = chat_service.recent(where)
        rooms.append(
            {
                "room": where.room,
                "label": _room_label(where.room),
                "log": log_html(where.room, messages, viewer, oob=False),
                "controls": controls_html(
                    where, viewer, free_text=free_text, next_url=next_url, oob=False
                ),
            }
        )
    # A spectator starts in their own room (the one they may write in).
    shown = Room.SPECTATORS if len(rooms) > 1 else rooms[0]["room"]
    muted = muted_html(user, oob=False)
    return drawing.draw("live/chat/_panel.html", {"rooms": rooms, "shown": shown, "muted": muted})


def muted_html(user: Any, *, oob: bool) -> SafeString:
    """Buttons to unmute each person the reader muted (none for a visitor)."""
    people = [
        {"name": name, "vals": _vals({"type": "chat-unmute", "author": username})}
        for username, name in chat_service.muted_people(user)
    ]
    return drawing.draw("live/chat/_muted.html", {"people": people, "oob": oob})


def _room_label(room: str) -> str:
    return {
        Room.PLAYERS: gettext("Players"),
        Room.SPECTATORS: gettext("Spectators"),
        Room.TOURNAMENT: gettext("Chat"),
    }[Room(room)]


def new_message_fragment(message: ChatMessage, *, actions: bool) -> SafeString:
    """A message appended to its room's log, and said once to screen readers."""
    view = message_view(message)
    return drawing.draw(
        "live/chat/_new.html",
        {
            "room": message.room,
            "item": message_html(message, actions=actions),
            "announce": gettext("%(name)s: %(said)s")
            % {"name": view["name"], "said": view["said"]},
        },
    )


def removed_fragment(message_id: int) -> SafeString:
    return drawing.draw("live/chat/_removed.html", {"id": message_id})


def refusal_fragment(message: str) -> SafeString:
    return drawing.draw("live/chat/_refusal.html", {"message": message})


def notice_fragment(message: str) -> SafeString:
    """A quiet confirmation (a report was received) where refusals appear."""
    return drawing.draw("live/chat/_refusal.html", {"message": message, "notice": True})


def cleared_refusal() -> SafeString:
    return drawing.draw("live/chat/_refusal.html", {"message": ""})


def table_chat(table_id: int, user: Any, seat: int | None) -> tuple[list[Where], Viewer]:
    """The rooms a table's viewer reads, and who they are to the chat."""
    where = Where(Room.PLAYERS, table_id=table_id)
    viewer = Viewer.of(
        user,
        player=seat is not None,
        may_switch=chat_service.may_set_free_text(where, user),
    )
    return [Where(room, table_id=table_id) for room in table_rooms(viewer)], viewer


def table_panel(table_id: int, user: Any, seat: int | None, next_url: str) -> SafeString:
    """The chat beside a table's page, for ``user`` at ``seat`` (None: watching)."""
    wheres, viewer = table_chat(table_id, user, seat)
    return panel_html(wheres, viewer, next_url=next_url, user=user)


def tournament_panel(tournament_id: int, user: Any, organiser: bool, next_url: str) -> SafeString:
    viewer = Viewer.of(user, may_switch=organiser)
    where = Where(Room.TOURNAMENT, tournament_id=tournament_id)
    return panel_html([where], viewer, next_url=next_url, user=user)


def match_chat_html(match_id: int, user: Any) -> SafeString:
    """A finished match's players' room, kept with its record (the match page)."""
    messages = chat_service.match_messages(match_id, user)
    items = mark_safe("".join(message_html(m, actions=False) for m in messages))
    return drawing.draw("live/chat/_archive.html", {"items": items, "empty": not messages})
