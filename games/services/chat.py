"""Talk at a table and on a tournament's page: who may say what, where, how often.

The rules (docs/site.md#table-chat):

- A table has two rooms. The players' room is read by everyone at the table and
  written by its players only; the spectators' room is read and written by the
  spectators only (players never read it: no kibitzing to a player).
- During a deal a player may send only a quick phrase (:class:`Phrase`); free
  text is open between deals and after the match, unless the table's organiser
  (or the tournament's) switched free text off (:class:`ChatPolicy`).
- Text only: cleaned of control characters, at most :data:`MAX_TEXT` characters;
  it is escaped wherever it is drawn and never made into a link.
- Each person has a burst and a sustained limit (:func:`limits`; every attempt
  within them counts, and they are taken, one atomic count each across every
  process, before anything else is checked); a silenced
  person (:class:`ChatSilence`) cannot post; a signed-out visitor never posts.
- The players' room belongs to the match record; the spectators' and tournament
  rooms are kept :data:`KEEP_ROOMS` (:func:`purge_expired` deletes them).

Every refusal is a :class:`ServiceError` with a sentence for the person, raised
before anything is written. What the live layer must hear (a new message, a
message deleted, a mute, the free-text switch) is announced through
:mod:`games.services.changes`, once committed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from games import ratelimit
from games.models import (
    ChatMessage,
    ChatMute,
    ChatPolicy,
    ChatReport,
    ChatSilence,
    Deal,
    Pairing,
    Phrase,
    Room,
    Seat,
    Table,
    Tournament,
)
from games.services import bots, changes
from games.services.errors import ServiceError

#: The longest free-text message, in characters (after cleaning).
MAX_TEXT = 200
#: How many messages a room shows on arrival (and after a reconnect).
RECENT = 50
#: How long the spectators' rooms and tournament rooms are kept.
KEEP_ROOMS = timedelta(hours=48)
#: How many messages before a reported one are copied into the report.
REPORT_CONTEXT = 10


@dataclass(frozen=True)
class Where:
    """A room: at a table (players' or spectators') or on a tournament's page."""

    room: str
    table_id: int | None = None
    tournament_id: int | None = None

    @classmethod
    def of(cls, message: ChatMessage) -> Where:
        return cls(message.room, message.table_id, message.tournament_id)


def limits() -> tuple[ratelimit.Limit, ratelimit.Limit]:
    """(burst, sustained) messages per person: by default 5 in 10 seconds and 30
    in 10 minutes, across every room (settings ``BLOT_CHAT_BURST``,
    ``BLOT_CHAT_SUSTAINED``: ``(count, seconds)``)."""
    burst = ratelimit.Limit.parse(settings.BLOT_CHAT_BURST)
    sustained = ratelimit.Limit.parse(settings.BLOT_CHAT_SUSTAINED)
    return burst, sustained


def clean_text(raw: object) -> str:
    """Free text as it will be kept: NFC, control and invisible formatting
    characters removed (line breaks become spaces), runs of spaces folded.
    Refuses what is empty or too long."""
    if not isinstance(raw, str):
        raise ServiceError(_("Write a message first."))
    kept = []
    for ch in unicodedata.normalize("NFC", raw):
        category = unicodedata.category(ch)
        if ch in "\n\r\t":
            kept.append(" ")
        elif category not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            kept.append(ch)
    text = " ".join("".join(kept).split())
    if not text:
        raise ServiceError(_("Write a message first."))
    if len(text) > MAX_TEXT:
        raise ServiceError(_("A message can be at most %(n)s characters long.") % {"n": MAX_TEXT})
    return text


def _phrase(raw: object) -> str:
    if not isinstance(raw, str) or raw not in Phrase.values:
        raise ServiceError(_("That is not one of the quick phrases."))
    return raw


def _check_may_post(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError(_("Log in to chat."))
    silence = (
        ChatSilence.objects.filter(user=user, until__gt=timezone.now()).order_by("-until").first()
    )
    if silence is not None:
        until = formats.date_format(timezone.localtime(silence.until), "DATETIME_FORMAT")
        raise ServiceError(
            _("A moderator has silenced you in the chat until %(until)s.") % {"until": until}
        )


def _take_rate(user: Any) -> None:
    """Count this attempt against both limits, or refuse it (uncounted). Each
    count is one atomic increment in the shared cache, checked by its result:
    of many messages sent at once on many sockets and server processes, exactly
    as many as the limit allows go through (reading the count and then adding
    to it let several read the same count)."""
    burst, sustained = limits()
    who = str(user.pk)
    in_burst = ratelimit.take("chat-burst", who, burst)
    if in_burst is None:
        raise ServiceError(_("You are sending messages too fast. Wait a few seconds."))
    if ratelimit.take("chat-sustained", who, sustained) is None:
        in_burst.give_back()
        raise ServiceError(
            _("You have sent a lot of messages in the last few minutes. Wait a little.")
        )


def table_tournament_id(table_id: int) -> int | None:
    return Pairing.objects.filter(table_id=table_id).values_list("tournament_id", flat=True).first()


def free_text_on(where: Where) -> bool:
    """Whether free text is allowed in ``where`` (a tournament's table follows its
    tournament unless the table has a setting of its own)."""
    if where.table_id is not None:
        own = ChatPolicy.objects.filter(table_id=where.table_id).first()
        if own is not None:
            return own.free_text
        tournament_id = table_tournament_id(where.table_id)
    else:
        tournament_id = where.tournament_id
    if tournament_id is None:
        return True
    policy = ChatPolicy.objects.filter(tournament_id=tournament_id).first()
    return True if policy is None else policy.free_text


def deal_in_progress(table_id: int) -> bool:
    return Deal.objects.filter(match__table_id=table_id, status=Deal.Status.PLAYING).exists()


def is_player(table_id: int, user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Seat.objects.filter(table_id=table_id, user=user).exists()


def post(where: Where, user: Any, *, phrase: object = None, text: object = None) -> ChatMessage:
    """Say a quick phrase (its id) or free text in ``where``; refuses with a
    :class:`ServiceError` (nothing stored) when the rules above say no."""
    if user is None or not user.is_authenticated:
        raise ServiceError(_("Log in to chat."))
    # The limits first, from the cache alone: a flood is refused before any
    # database read. Every attempt within them counts, refused later or not.
    _take_rate(user)
    _check_may_post(user)
    chosen = phrase not in (None, "")
    said = {"phrase": _phrase(phrase)} if chosen else {"text": clean_text(text)}
    match_id = None
    if where.table_id is not None:
        table = Table.objects.filter(pk=where.table_id).first()
        if table is None:
            raise ServiceError(_("This table no longer exists."))
        player = is_player(table.pk, user)
        if where.room == Room.PLAYERS and not player:
            raise ServiceError(_("Only the players write in the players' room."))
        if where.room == Room.SPECTATORS and player:
            raise ServiceError(_("Players do not write in the spectators' room."))
        if where.room not in (Room.PLAYERS, Room.SPECTATORS):
            raise ServiceError(_("There is no such room here."))
        match_id = table.matches.order_by("-id").values_list("id", flat=True).first()
    elif where.tournament_id is not None:
        if not Tournament.objects.filter(pk=where.tournament_id).exists():
            raise ServiceError(_("This tournament no longer exists."))
    else:
        raise ServiceError(_("There is no such room here."))
    if "text" in said:
        if bots.is_bot(user):
            raise ServiceError(_("A bot account can send only the quick phrases."))
        if not free_text_on(where):
            raise ServiceError(_("Free text is switched off here; use the quick phrases."))
        if (
            where.room == Room.PLAYERS
            and where.table_id is not None
            and deal_in_progress(where.table_id)
        ):
            raise ServiceError(
                _(
                    "During a deal, players can send only quick phrases. "
                    "Free text opens between deals."
                )
            )
    message = ChatMessage.objects.create(
        room=where.room,
        table_id=where.table_id,
        match_id=match_id,
        tournament_id=where.tournament_id,
        author=user,
        **said,
    )
    changes.announce_chat("posted", {"message_id": message.pk})
    return message


def _room_messages(where: Where) -> QuerySet[ChatMessage]:
    found = ChatMessage.objects.filter(room=where.room, deleted_at__isnull=True)
    if where.table_id is not None:
        found = found.filter(table_id=where.table_id)
        if where.room == Room.PLAYERS:
            # The players' room of the table's current match (a rematch starts afresh).
            match_id = (
                Table.objects.get(pk=where.table_id)
                .matches.order_by("-id")
                .values_list("id", flat=True)
                .first()
            )
            found = found.filter(match__pk=match_id) if match_id else found.none()
    else:
        found = found.filter(tournament__pk=where.tournament_id or 0)
    if where.room != Room.PLAYERS:
        found = found.filter(created_at__gte=timezone.now() - KEEP_ROOMS)
    return found


def recent(where: Where, viewer: Any = None) -> list[ChatMessage]:
    """The room's last :data:`RECENT` messages, oldest first, without those of
    people ``viewer`` muted."""
    found = _room_messages(where)
    muted = muted_ids(viewer)
    if muted:
        found = found.exclude(author_id__in=muted)
    latest = found.select_related("author__player").order_by("-created_at", "-id")[:RECENT]
    return list(reversed(latest))


def match_messages(match_id: int, viewer: Any = None) -> list[ChatMessage]:
    """A match's players' room, whole, for its match page."""
    found = ChatMessage.objects.filter(
        match_id=match_id, room=Room.PLAYERS, deleted_at__isnull=True
    )
    muted = muted_ids(viewer)
    if muted:
        found = found.exclude(author_id__in=muted)
    return list(found.select_related("author__player").order_by("created_at", "id"))


def muted_ids(user: Any) -> set[int]:
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    return set(ChatMute.objects.filter(muter=user).values_list("muted_id", flat=True))


def _author(user: Any, username: object) -> Any:
    from django.contrib.auth import get_user_model

    if user is None or not user.is_authenticated:
        raise ServiceError(_("Log in to chat."))
    if not isinstance(username, str):
        raise ServiceError(_("There is no such person."))
    other = get_user_model().objects.filter(username=username).first()
    if other is None:
        raise ServiceError(_("There is no such person."))
    if other.pk == user.pk:
        raise ServiceError(_("You cannot mute yourself."))
    return other


def mute(user: Any, username: object) -> int:
    """``user`` stops seeing ``username``'s messages everywhere; their open pages
    drop them at once. Returns the muted person's id."""
    other = _author(user, username)
    with transaction.atomic():
        ChatMute.objects.get_or_create(muter=user, muted=other)
        changes.announce_chat("muted", {"user_id": user.pk, "muted_id": other.pk})
    return int(other.pk)


def unmute(user: Any, username: object) -> int:
    other = _author(user, username)
    with transaction.atomic():
        ChatMute.objects.filter(muter=user, muted=other).delete()
        changes.announce_chat("muted", {"user_id": user.pk, "muted_id": other.pk})
    return int(other.pk)


def readable_by(message: ChatMessage, user: Any) -> bool:
    """Whether ``user`` could read ``message`` where it was said."""
    if message.room == Room.SPECTATORS:
        return message.table_id is not None and not is_player(message.table_id, user)
    return True


def _said(message: ChatMessage) -> str:
    """A message as a moderator reads it (a phrase in the site's language)."""
    if message.phrase:
        return f"[{message.phrase}] {Phrase(message.phrase).label}"
    return message.text


def report(user: Any, message_id: object, rooms: Iterable[Where]) -> ChatReport:
    """``user`` reports a message of one of ``rooms``, those the page they
    report from reads (a message it shows); the report copies it and the
    :data:`REPORT_CONTEXT` messages said before it in its room. A message that
    is missing, deleted, elsewhere or not theirs to read is refused with the
    same words: the answer tells nothing of other rooms."""
    if user is None or not user.is_authenticated:
        raise ServiceError(_("Log in to report a message."))
    raw = str(message_id)
    pk = int(raw) if raw.isascii() and raw.isdigit() and 0 < len(raw) <= 18 else None
    message = None
    if pk is not None:
        for room in rooms:
            message = _room_messages(room).filter(pk=pk).first()
            if message is not None:
                break
    if message is None or not readable_by(message, user):
        raise ServiceError(_("There is no such message."))
    if message.author_id == user.pk:
        raise ServiceError(_("You cannot report your own message."))
    before = (
        _room_messages(Where.of(message))
        .filter(Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, id__lt=pk))
        .select_related("author")
        .order_by("-created_at", "-id")[:REPORT_CONTEXT]
    )
    context = [
        {"author": m.author.get_username(), "said": _said(m), "at": m.created_at.isoformat()}
        for m in [*reversed(before), message]
    ]
    if message.table_id is not None:
        where = f"table {message.table_id}, {message.room}"
    else:
        where = f"tournament {message.tournament_id}"
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                message=message,
                reporter=user,
                reported_user_id=message.author_id,
                reported_text=_said(message)[:400],
                context=context,
                where=where,
            )
    except IntegrityError:
        raise ServiceError(_("You have already reported this message.")) from None


def delete_messages(message_ids: list[int], staff: Any) -> int:
    """Staff delete messages: kept for the record, shown to nobody, and taken off
    every open page at once."""
    if not getattr(staff, "is_staff", False):
        raise ServiceError(_("Only moderators can delete messages."))
    with transaction.atomic():
        found = list(ChatMessage.objects.filter(pk__in=message_ids, deleted_at__isnull=True))
        ChatMessage.objects.filter(pk__in=[m.pk for m in found]).update(
            deleted_at=timezone.now(), deleted_by=staff
        )
        for message in found:
            changes.announce_chat(
                "removed",
                {
                    "message_id": message.pk,
                    "room": message.room,
                    "table_id": message.table_id,
                    "tournament_id": message.tournament_id,
                },
            )
    return len(found)


def silence(user_id: int, until: datetime, staff: Any, reason: str = "") -> ChatSilence:
    """Staff silence a person until ``until``: they read, but cannot post."""
    if not getattr(staff, "is_staff", False):
        raise ServiceError(_("Only moderators can silence people."))
    return ChatSilence.objects.create(
        user_id=user_id, until=until, reason=reason[:200], created_by=staff
    )


def may_set_free_text(where: Where, user: Any) -> bool:
    """The table's creator, the tournament's organiser, or staff."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if where.table_id is not None:
        return Table.objects.filter(pk=where.table_id, created_by=user).exists()
    return Tournament.objects.filter(pk=where.tournament_id or 0, created_by=user).exists()


def set_free_text(where: Where, user: Any, on: bool) -> bool:
    """Switch free text on or off for a table (both its rooms) or a tournament
    (its room and its tables without a setting of their own)."""
    if not may_set_free_text(where, user):
        raise ServiceError(_("Only the organiser can change the chat settings."))
    owner: dict[str, Any] = (
        {"table_id": where.table_id} if where.table_id else {"tournament_id": where.tournament_id}
    )
    with transaction.atomic():
        ChatPolicy.objects.update_or_create(defaults={"free_text": on}, **owner)
        changes.announce_chat("policy", {**owner, "free_text": on})
    return on


def purge_expired(now: datetime | None = None) -> int:
    """Delete the spectators' and tournament rooms' messages older than
    :data:`KEEP_ROOMS` (a report keeps its own copy). The players' room stays
    with its match. Run by the conductor every few minutes and by
    ``manage.py purge_chat``."""
    cutoff = (now or timezone.now()) - KEEP_ROOMS
    _total, by_model = ChatMessage.objects.filter(
        room__in=[Room.SPECTATORS, Room.TOURNAMENT], created_at__lt=cutoff
    ).delete()
    return by_model.get(ChatMessage._meta.label, 0)


def tournament_table_ids(tournament_id: int) -> list[int]:
    return list(
        Pairing.objects.filter(tournament_id=tournament_id, table__isnull=False).values_list(
            "table_id", flat=True
        )
    )


def muted_people(user: Any) -> list[tuple[str, str]]:
    """``(username, display name)`` of everyone ``user`` muted, by name."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    rows = (
        ChatMute.objects.filter(muter=user)
        .select_related("muted__player")
        .order_by("muted__player__display_name")
    )
    return [(m.muted.get_username(), _shown_name(m.muted)) for m in rows]


def _shown_name(user: Any) -> str:
    player = getattr(user, "player", None)
    return player.display_name if player is not None else user.get_username()
