"""The Bot API's two streams: newline-delimited JSON over one long response.

Each stream listens on the channel layer, the way a page's socket does, so with
several Daphnes on Redis it hears every change whichever process made it:

- a bot's **match stream** joins the groups its seat's frames are published to
  (``frames.viewpoint_group``, in every language, since the table renders only
  the languages its viewers read). Each frame's version tells it the table
  moved; it then reads the seat's view once and sends it as a line. While it is
  open the bot counts as connected to its seat (a presence, as a socket is): when
  it closes, the table's grace and stand-in rules apply as to a person who lost
  their connection.
- a bot's **event stream** joins the bot's own group (``person-<id>``, where
  services announce challenges and a bot's matches starting and ending) and
  counts as the bot being online. It also looks every ``BLOT_API_EVENT_POLL_S``
  seconds, which catches anything announced while the channel layer was away.

An idle stream sends an empty line every ``BLOT_API_KEEPALIVE_S`` seconds, and
checks then that its token is still good: a revoked token ends its streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games.api import state
from games.api.auth import ApiError, Caller
from games.live.deliver.person import person_group
from games.live.draw import frames
from games.live.receive.consumers import ensure_process_tasks, in_db
from games.live.store import presence
from games.services import bots

log = logging.getLogger(__name__)

#: Open streams per token in this process.
_open: dict[int, int] = {}


def line(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


class Listener:
    """A channel of this process's channel layer, joined to some groups. It only
    notes that something arrived (and the newest table version heard): the
    stream then reads what is stored, so nothing depends on every message
    arriving."""

    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.channel = ""
        #: The presence's name: the channel's (a resync after an outage reaches it).
        self.name = f"api.{id(self)}"
        self.groups: list[str] = []
        self.newest = -1
        self.unversioned = False
        self._arrived = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None

    async def open(self, groups: list[str]) -> None:
        """Join ``groups``; without a channel layer (Redis away) the stream looks
        again at every keep-alive instead."""
        if self.layer is None:
            return
        try:
            self.channel = self.name = await self.layer.new_channel()
            for group in groups:
                await self.layer.group_add(group, self.channel)
                self.groups.append(group)
        except Exception:
            log.warning("api stream: no channel layer; looking at every keep-alive")
            await self.close()
            self.layer = None
            return
        self._pump = asyncio.get_running_loop().create_task(self._receive())

    async def _receive(self) -> None:
        assert self.layer is not None
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away: the stream's own looks carry on
                log.debug("api stream: no messages for now", exc_info=True)
                await asyncio.sleep(1.0)
                continue
            version = message.get("version")
            if isinstance(version, int):
                self.newest = max(self.newest, version)
            else:
                self.unversioned = True
            self._arrived.set()

    async def wait(self, timeout: float) -> bool:
        """Whether something arrived within ``timeout`` seconds."""
        try:
            async with asyncio.timeout(timeout):
                await self._arrived.wait()
        except TimeoutError:
            return False
        self._arrived.clear()
        return True

    async def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(BaseException):
                await self._pump
        if self.layer is None:
            return
        for group in self.groups:
            try:
                await self.layer.group_discard(group, self.channel)
            except Exception:  # Redis away: the subscription dies with the channel
                log.debug("api stream: could not leave %s", group, exc_info=True)


def check_room(caller: Caller) -> None:
    """429 when the token holds ``BLOT_API_STREAMS_PER_TOKEN`` streams open here
    already. The stream counts itself once it runs (:func:`take_stream`): a
    response never started, its client gone first, holds no place."""
    most = settings.BLOT_API_STREAMS_PER_TOKEN
    if _open.get(caller.token_id, 0) >= most:
        raise ApiError(
            429,
            "too_many_streams",
            _("This token has as many streams open as it may (%(count)d). Close one first.")
            % {"count": most},
            {"Retry-After": str(settings.BLOT_API_KEEPALIVE_S)},
        )


def take_stream(caller: Caller) -> None:
    _open[caller.token_id] = _open.get(caller.token_id, 0) + 1


def give_back_stream(caller: Caller) -> None:
    left = _open.get(caller.token_id, 1) - 1
    if left > 0:
        _open[caller.token_id] = left
    else:
        _open.pop(caller.token_id, None)


class TokenWatch:
    """Asks now and then (every keep-alive) whether the stream's token still holds."""

    def __init__(self, caller: Caller) -> None:
        self.caller = caller
        self.next_check = time.monotonic() + settings.BLOT_API_KEEPALIVE_S

    async def revoked(self) -> bool:
        if time.monotonic() < self.next_check:
            return False
        self.next_check = time.monotonic() + settings.BLOT_API_KEEPALIVE_S
        try:
            return not await in_db(bots.still_active)(self.caller.token_id)
        except Exception:  # the database is away: keep the stream, ask again later
            return False


def revoked_line(language: str) -> bytes:
    with translation.override(language):
        message = _("This token has been revoked.")
    return line({"type": "error", "error": {"code": "unauthorized", "message": message}})


async def match_stream(
    caller: Caller, where: state.BotSeat, language: str
) -> AsyncIterator[bytes]:
    """One line per change of the bot seat's view, until the match is over."""
    listener = Listener()
    watch = TokenWatch(caller)
    ensure_process_tasks()
    groups = [
        frames.viewpoint_group(where.table_id, where.seat, code, holder=caller.user_id)
        for code, _name in settings.LANGUAGES
    ]
    opened = False
    take_stream(caller)
    try:
        await listener.open(groups)
        # The seat's player is connected while the stream is open (its channel is
        # the presence's name: a resync after an outage reaches it as a wake-up).
        presence.live_set.open(
            listener.name, where.table_id, caller.user_id, where.seat
        )
        opened = True
        sent = -1
        read_for: int | None = None  # the deal whose result the bot has had
        keepalive = settings.BLOT_API_KEEPALIVE_S
        while True:
            now = await in_db(state.read_state)(where)
            if now["version"] != sent:
                sent = now["version"]
                yield line(now)
            if now["over"]:
                return
            if state.between_deals(now) and read_for != now["deal"]:
                read_for = now["deal"]
                await in_db(state.read_on)(where)
            while True:
                arrived = await listener.wait(keepalive)
                if await watch.revoked():
                    yield revoked_line(language)
                    return
                if not arrived:
                    yield b"\n"
                    if listener.layer is None:
                        break  # no channel layer: look again at every keep-alive
                    continue
                if listener.unversioned or listener.newest > sent:
                    listener.unversioned = False
                    break
    finally:
        if opened:
            presence.live_set.close(listener.name)
        await listener.close()
        give_back_stream(caller)


async def event_stream(caller: Caller, language: str) -> AsyncIterator[bytes]:
    """Challenges to the bot, its matches starting and finishing, as they happen."""
    listener = Listener()
    watch = TokenWatch(caller)
    ensure_process_tasks()
    opened = False
    take_stream(caller)
    try:
        await listener.open([person_group(caller.user_id)])
        presence.live_set.open(listener.name, None, caller.user_id, None)
        opened = True
        told_challenges: set[int] = set()
        started: set[int] = set()
        poll = settings.BLOT_API_EVENT_POLL_S
        keepalive = settings.BLOT_API_KEEPALIVE_S
        last_sent = time.monotonic()
        while True:
            now = await in_db(state.snapshot)(caller.user_id, started)
            out: list[dict[str, Any]] = []
            for challenge_id, view in sorted(now.challenges.items()):
                if challenge_id not in told_challenges:
                    out.append({"type": "challenge", "challenge": view})
            told_challenges &= set(now.challenges)  # forget answered ones
            told_challenges |= set(now.challenges)
            for match_id, view in sorted(now.playing.items()):
                if match_id not in started:
                    started.add(match_id)
                    out.append({"type": "matchStart", **view})
            for match_id, view in sorted(now.finished.items()):
                started.discard(match_id)
                out.append({"type": "matchFinish", **view})
            for event in out:
                yield line(event)
            if out:
                last_sent = time.monotonic()
            arrived = await listener.wait(min(poll, keepalive))
            if await watch.revoked():
                yield revoked_line(language)
                return
            if not arrived and time.monotonic() - last_sent >= keepalive:
                yield b"\n"
                last_sent = time.monotonic()
    finally:
        if opened:
            presence.live_set.close(listener.name)
        await listener.close()
        give_back_stream(caller)
