"""A table's spectators are served by their server process: one member of the
spectators' group per process, however many watch."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.live.deliver.spectators import SLICE, SpectatorRelay
from games.live.draw import frames
from tests.live.conftest import live_of
from tests.live.wsclient import connect, receive_table, send_move, version_of


def a_group() -> str:
    """A group of its own per test: the in-memory layer outlives a test."""
    return f"table-{uuid.uuid4().hex}-watch-en"


class Watcher:
    def __init__(self, log: list[str], name: str, fails: bool = False) -> None:
        self.log, self.name, self.fails = log, name, fails

    async def table_frame(self, event: dict[str, Any]) -> None:
        self.log.append(self.name)
        if self.fails:
            raise ConnectionError("the socket closed")

    async def table_watchers(self, event: dict[str, Any]) -> None:
        self.log.append(f"{self.name} hears {event['html']}")


def layer_members(group: str) -> set[str]:
    """The channels in ``group``, as this process's channel layer holds them."""
    layer = get_channel_layer()
    if isinstance(layer, InMemoryChannelLayer):
        return set(layer.groups.get(group, {}))
    here = layer._get_layer()  # Redis pub/sub: this event loop's connection
    return set(here.groups.get(here._get_group_channel_name(group), set()))


async def first_move_played(duel, alice, bob) -> Any:
    """The player to act plays their first legal card; their socket, still open."""
    from asgiref.sync import sync_to_async

    live = await sync_to_async(live_of)(duel)
    seat, action = live.engine.to_act, live.engine.legal_actions()[0]
    player, _ = await connect(duel.pk, alice if seat == 0 else bob)
    await receive_table(player)
    move = {k: v for k, v in action.to_dict().items() if k != "seat"}
    await send_move(player, version=duel.version, **move)
    return player


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_spectator_sees_a_move_through_one_group_member(duel, alice, bob) -> None:
    watchers = []
    for _ in range(3):
        ws, connected = await connect(duel.pk, None)
        assert connected
        await receive_table(ws)
        watchers.append(ws)
    group = frames.viewpoint_group(duel.pk, None)
    assert len(layer_members(group)) == 1  # the process, not each spectator
    player = await first_move_played(duel, alice, bob)
    for ws in watchers:
        assert version_of(await receive_table(ws, at_least=duel.version + 1)) == duel.version + 1
        await ws.disconnect()
    assert layer_members(group) == set()  # the last one out leaves the group
    await player.disconnect()


@pytest.mark.asyncio
async def test_the_hand_out_lets_other_work_in_after_each_slice() -> None:
    relay, log, group = SpectatorRelay(), [], a_group()
    for i in range(SLICE + 1):
        await relay.join(group, f"c{i}", Watcher(log, f"w{i}"))
    asyncio.get_running_loop().call_soon(log.append, "another table's frame")
    await relay.hand_out(frames.frame_message(group, 1, "x"))
    assert log.index("another table's frame") == SLICE
    assert log[-1] == f"w{SLICE}"


@pytest.mark.asyncio
async def test_one_closed_socket_does_not_keep_the_frame_from_the_rest() -> None:
    relay, log, group = SpectatorRelay(), [], a_group()
    await relay.join(group, "a", Watcher(log, "a", fails=True))
    await relay.join(group, "b", Watcher(log, "b"))
    await relay.hand_out(frames.frame_message(group, 1, "x"))
    assert log == ["a", "b"]


@pytest.mark.asyncio
async def test_a_frame_reaches_only_its_own_tables_spectators() -> None:
    relay, log, group, other = SpectatorRelay(), [], a_group(), a_group()
    await relay.join(group, "a", Watcher(log, "a"))
    await relay.join(other, "b", Watcher(log, "b"))
    await relay.hand_out(frames.frame_message(other, 1, "x"))
    assert log == ["b"]


@pytest.mark.asyncio
async def test_a_published_frame_reaches_the_spectators_until_they_leave() -> None:
    relay, log, group = SpectatorRelay(), [], a_group()
    await relay.join(group, "a", Watcher(log, "a"))
    await relay.join(group, "b", Watcher(log, "b"))
    layer = get_channel_layer()
    await layer.group_send(group, frames.frame_message(group, 1, "x"))
    for _ in range(100):
        if len(log) == 2:
            break
        await asyncio.sleep(0.01)
    assert sorted(log) == ["a", "b"]
    await relay.leave(group, "a")
    await relay.leave(group, "b")
    assert relay.watching(group) == 0
    assert layer_members(group) == set()


@pytest.mark.asyncio
async def test_the_watcher_count_comes_through_the_relay_too() -> None:
    relay, log, group = SpectatorRelay(), [], a_group()
    await relay.join(group, "a", Watcher(log, "a"))
    await relay.hand_out({"type": "table.watchers", "html": "3 watching", "group": group})
    assert log == ["a hears 3 watching"]


@pytest.mark.asyncio
async def test_spectators_arriving_together_make_one_relay_channel() -> None:
    relay, log, group = SpectatorRelay(), [], a_group()
    await asyncio.gather(*(relay.join(group, f"c{i}", Watcher(log, f"w{i}")) for i in range(10)))
    assert len(layer_members(group)) == 1
    await get_channel_layer().group_send(group, frames.frame_message(group, 1, "x"))
    for _ in range(100):
        if len(log) >= 10:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # a second relay channel would hand the frame out again
    assert sorted(log) == sorted(f"w{i}" for i in range(10))
    for i in range(10):
        await relay.leave(group, f"c{i}")
    assert layer_members(group) == set()  # the channel that joined is the one that left


@pytest.mark.asyncio
async def test_the_relay_keeps_its_spectators_newest_frame_until_the_last_one_leaves() -> None:
    relay, log, group = SpectatorRelay(), [], a_group()
    await relay.join(group, "a", Watcher(log, "a"))
    assert relay.latest(group) is None
    await relay.hand_out(frames.frame_message(group, 3, "v3"))
    relay.note(group, 2, "v2")  # an older frame read late: not kept
    assert relay.latest(group) == (3, "v3")
    relay.forget_frames()  # the channel layer was away: frames may be missing
    assert relay.latest(group) is None
    relay.note(group, 4, "v4")  # a joiner read the table
    assert relay.latest(group) == (4, "v4")
    await relay.leave(group, "a")
    assert relay.latest(group) is None
    relay.note(group, 5, "v5")  # nobody of this process watches: nothing kept
    assert relay.latest(group) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_spectator_joining_where_others_watch_gets_their_newest_frame_unread(
    duel, alice, bob, monkeypatch
) -> None:
    first, connected = await connect(duel.pk, None)
    assert connected
    await receive_table(first)
    player = await first_move_played(duel, alice, bob)
    moved = await receive_table(first, at_least=duel.version + 1)
    reads = []
    real = frames.frame_for
    monkeypatch.setattr(frames, "frame_for", lambda *a: reads.append(a) or real(*a))
    second, connected = await connect(duel.pk, None)
    assert connected
    assert await receive_table(second) == moved  # the move, as the others saw it
    assert reads == []  # without reading the table
    for ws in (first, second, player):
        await ws.disconnect()
