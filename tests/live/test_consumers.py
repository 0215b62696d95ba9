"""The table WebSocket: who may connect, what they are sent, what they may do."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.live.store import presence
from games.models import Presence, Table
from tests.live.conftest import live_of
from tests.live.wsclient import (
    connect,
    receive_error,
    receive_table,
    receive_watchers,
    send_move,
    version_of,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def first_legal(table: Table):
    live = await sync_to_async(live_of)(table)
    return live.engine.to_act, live.engine.legal_actions()[0]


async def test_it_sends_a_seated_player_their_table_on_connect(duel, alice) -> None:
    ws, connected = await connect(duel.pk, alice)
    assert connected
    frame = await receive_table(ws)
    assert f'data-version="{duel.version}"' in frame
    assert 'data-variant="open_blot"' in frame and 'data-seat="0"' in frame
    await ws.disconnect()


async def test_it_applies_a_move_and_sends_every_viewer_the_new_version(duel, alice, bob):
    players = {}
    for user, seat in ((alice, 0), (bob, 1)):
        players[seat], _ = await connect(duel.pk, user)
        await receive_table(players[seat])
    spectator, _ = await connect(duel.pk, None)
    await receive_table(spectator)
    seat, action = await first_legal(duel)
    await send_move(
        players[seat],
        version=duel.version,
        **{k: v for k, v in action.to_dict().items() if k != "seat"},
    )
    for ws in (*players.values(), spectator):
        assert version_of(await receive_table(ws, at_least=duel.version + 1)) == duel.version + 1
        await ws.disconnect()


async def test_it_refuses_a_move_from_a_spectator(duel) -> None:
    ws, _ = await connect(duel.pk, None)
    await receive_table(ws)
    await send_move(ws, type="pass", version=duel.version)
    error = await receive_error(ws)
    assert "Spectators cannot play" in error
    assert version_of(await receive_table(ws)) == duel.version
    await ws.disconnect()


async def test_it_refuses_a_move_out_of_turn_with_a_clear_message(duel, alice, bob) -> None:
    seat, _ = await first_legal(duel)
    other = {0: alice, 1: bob}[1 - seat]
    ws, _ = await connect(duel.pk, other)
    await receive_table(ws)
    await send_move(ws, type="pass", version=duel.version)
    assert "not allowed" in await receive_error(ws)
    await ws.disconnect()
    live = await sync_to_async(live_of)(duel)
    assert live.engine.history == []


@pytest.mark.parametrize(
    "text", ["{broken", "[]", '{"type": "play"}', "x" * 5000, '{"type":"pass","version":0}']
)
async def test_it_answers_bad_messages_with_an_error_and_changes_nothing(duel, alice, text):
    ws, _ = await connect(duel.pk, alice)
    await receive_table(ws)
    await ws.send_to(text_data=text)
    assert "table-error" in await receive_error(ws)
    assert version_of(await receive_table(ws)) == duel.version
    await ws.disconnect()


async def test_it_answers_a_refresh_request_with_the_full_table(duel, alice) -> None:
    ws, _ = await connect(duel.pk, alice)
    await receive_table(ws)
    await send_move(ws, type="refresh")
    assert version_of(await receive_table(ws)) == duel.version
    await ws.disconnect()


async def test_it_rejects_a_foreign_origin(duel, alice) -> None:
    _ws, connected = await connect(duel.pk, alice, origin="http://evil.example")
    assert not connected


async def test_it_hides_a_private_table_from_a_stranger(make_table, alice, carol) -> None:
    table = await sync_to_async(make_table)(alice, "open_blot", others=["easy"], is_private=True)
    ws, connected = await connect(table.pk, carol)
    assert not connected
    ws, connected = await connect(table.pk, carol, query=f"invite={table.invite_token}")
    assert connected
    await receive_table(ws)
    await ws.disconnect()


async def test_it_records_presence_and_spectators(duel) -> None:
    ws, _ = await connect(duel.pk, None)
    await receive_table(ws)
    await database_sync_to_async(presence.live_set.flush)()  # the batch the writer makes
    table = await Table.objects.aget(pk=duel.pk)
    assert table.spectator_count == 1
    await ws.disconnect()
    await database_sync_to_async(presence.live_set.flush)()
    table = await Table.objects.aget(pk=duel.pk)
    assert table.spectator_count == 0
    assert await Presence.objects.filter(table_id=duel.pk, closed_at__isnull=False).acount() == 1


async def test_it_keeps_the_connection_when_a_move_fails_unexpectedly(duel, alice, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr("games.live.receive.consumers.submit", broken)
    ws, _ = await connect(duel.pk, alice)
    await receive_table(ws)
    await send_move(ws, type="pass", version=duel.version)
    assert "could not take that move" in await receive_error(ws)
    assert version_of(await receive_table(ws)) == duel.version
    await ws.disconnect()


async def test_it_shows_everyone_how_many_are_watching(duel, alice) -> None:
    player, _ = await connect(duel.pk, alice)
    assert "0 watching" in await receive_table(player)
    spectator, _ = await connect(duel.pk, None)
    # A spectator counts themselves at once, before their presence is written.
    assert "1 watching" in await receive_table(spectator)
    # The count arrives alone (the table is not drawn again for everyone).
    assert "1 watching" in await receive_watchers(player)
    await spectator.disconnect()
    assert "0 watching" in await receive_watchers(player)
    await player.disconnect()


async def test_it_forwards_a_frame_without_a_trip_to_a_database_thread(duel, monkeypatch):
    """A frame for a viewpoint is sent on as it is: no hop to a sync thread per
    viewer (Channels' default closes stale connections before every message)."""
    import channels.consumer

    from games.live.draw import frames

    hops: list = []

    async def counting() -> None:
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counting)
    spectator, connected = await connect(duel.pk, None)
    assert connected
    await receive_table(spectator)
    hops.clear()
    version = duel.version + 1
    html = f'<div id="table-root" data-version="{version}"></div>'
    group = frames.viewpoint_group(duel.pk, None)
    await get_channel_layer().group_send(group, frames.frame_message(group, version, html))
    assert await spectator.receive_from(timeout=5) == html
    assert hops == []
    await spectator.disconnect()
