"""A table's spectators, served by their server process rather than one by one.

Every spectator of a table (in one language) sees the same frames and the same
watcher count, so the spectators' groups have one member per server process,
not one per spectator: this process's :class:`SpectatorRelay` channel. A message
published to such a group reaches the process once, is decoded once, and is
handed to each of the process's spectators of that table in turn.

The hand-out yields to the event loop every :data:`SLICE` spectators: a crowd
watching one table then delays another table's players by at most a slice of
sends, not by the whole crowd's (300 spectators at one table held
every other table's frames behind 150 sends per process).

Each spectator's connection still has its own channel, for what is its own (a
resend after a channel-layer outage, the chat).

The relay also keeps the newest frame it has handed out (or a joiner has read
from the database) per group: a spectator arriving where others already watch
is sent that, with no trip to the database (a storm of joins costs no queries). It is
the newest the spectators have: a frame published later reaches the newcomer
through the relay like everyone else. It is dropped when the group's last
spectator here leaves, and after a channel-layer outage (frames may have been
missed meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, get_channel_layer

from games.runtime.lograte import RateLimitedLog

log = logging.getLogger(__name__)

#: Spectators sent a frame between two yields to the event loop. A send is about
#: a quarter of a millisecond of the loop's time, so a slice is a few ms.
SLICE = 16
#: The key of a message that names the group it was published to: one relay
#: channel serves every watched table of the process.
GROUP_KEY = "group"
#: What the relay hands on, by message type: the handler it calls.
HANDLERS = {"table.frame": "table_frame", "table.watchers": "table_watchers"}


class Spectator(Protocol):
    """A spectator's connection: the handlers of what the relay hands on."""

    async def table_frame(self, event: dict[str, Any]) -> None: ...

    async def table_watchers(self, event: dict[str, Any]) -> None: ...


_failures = RateLimitedLog(log, "Handing a frame to a table's spectators")


class SpectatorRelay:
    """This process's spectators, by group. Used from one event loop (the
    server's); a new loop (a test's) starts afresh."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._layer: BaseChannelLayer | None = None
        self._channel = ""
        self._task: asyncio.Task[None] | None = None
        self._started: asyncio.Future[BaseChannelLayer] | None = None
        self._members: dict[str, dict[str, Spectator]] = {}
        #: Set once the relay's channel is in the group: a spectator joins only
        #: then, so every frame after its first (sent on joining) reaches it.
        self._subscribed: dict[str, asyncio.Event] = {}
        #: The newest frame per group, as (version, html).
        self._latest: dict[str, tuple[int, str]] = {}

    async def join(self, group: str, channel_name: str, spectator: Spectator) -> None:
        layer = await self._ready()
        members = self._members.setdefault(group, {})
        members[channel_name] = spectator
        subscribed = self._subscribed.get(group)
        if subscribed is not None:
            await subscribed.wait()
            return
        subscribed = self._subscribed[group] = asyncio.Event()
        try:
            await layer.group_add(group, self._channel)
        except BaseException:
            # Nobody is subscribed: the next joiner tries again.
            del self._subscribed[group]
            members.pop(channel_name, None)
            raise
        finally:
            subscribed.set()

    async def leave(self, group: str, channel_name: str) -> None:
        members = self._members.get(group)
        if members is None or members.pop(channel_name, None) is None:
            return
        if members or self._layer is None:
            return
        del self._members[group]
        self._subscribed.pop(group, None)
        self._latest.pop(group, None)
        await self._layer.group_discard(group, self._channel)

    def latest(self, group: str) -> tuple[int, str] | None:
        """The newest frame this process's spectators of ``group`` have."""
        return self._latest.get(group)

    def note(self, group: str, version: int, html: str) -> None:
        """A frame of ``group``'s, read or received: kept if it is the newest."""
        if group in self._members and version > self._latest.get(group, (-1, ""))[0]:
            self._latest[group] = (version, html)

    def forget_frames(self) -> None:
        """Frames may have been missed (the channel layer was away): joiners read
        the table again until the next frame arrives."""
        self._latest.clear()

    def watching(self, group: str) -> int:
        """How many of this process's spectators the group's frames reach."""
        return len(self._members.get(group, {}))

    async def _ready(self) -> BaseChannelLayer:
        """The relay's channel and its pump on the running loop, made once even
        when many spectators arrive together (the first makes them, the others
        wait for it)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop = loop
            self._members, self._subscribed, self._latest = {}, {}, {}
            started = self._started = loop.create_future()
            try:
                layer = get_channel_layer()
                if layer is None:
                    raise RuntimeError("spectators need a channel layer")
                self._channel = await layer.new_channel()
            except BaseException as exc:
                self._loop = None  # the next spectator tries again
                started.set_exception(exc)
                started.exception()  # those waiting get it; nobody else must
                raise
            self._layer = layer
            self._task = loop.create_task(self._pump(layer, self._channel))
            started.set_result(layer)
        assert self._started is not None
        return await self._started

    async def _pump(self, layer: BaseChannelLayer, channel: str) -> None:
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the layer is away; its watch resyncs viewers
                _failures.failed(exc)
                await asyncio.sleep(1)
                continue
            try:
                await self.hand_out(message)
            except Exception as exc:  # the pump must outlive any one message
                _failures.failed(exc)

    async def hand_out(self, message: dict[str, Any]) -> None:
        """Give ``message`` (a frame, or the watcher count) to each of the
        group's spectators here."""
        members = self._members.get(message.get(GROUP_KEY, ""))
        if not members:
            return
        kind = HANDLERS.get(message.get("type", ""))
        if kind is None:
            _failures.failed(ValueError(f"no spectator handler for {message.get('type')!r}"))
            return
        if kind == "table_frame":
            self.note(message[GROUP_KEY], message["version"], message["html"])
        for i, spectator in enumerate(list(members.values())):
            if i and i % SLICE == 0:
                await asyncio.sleep(0)
            try:
                await getattr(spectator, kind)(message)
            except Exception as exc:  # one closed socket must not starve the rest
                _failures.failed(exc)


relay = SpectatorRelay()

