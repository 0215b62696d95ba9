"""Leaving and returning as the table's WebSocket viewers see it."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games.models import Seat
from games.services import seating
from tests.live.conftest import live_of
from tests.live.wsclient import connect, receive_error, receive_table, send_move, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_it_updates_every_viewer_when_a_player_leaves_and_returns(duel, alice, bob):
    mine, _ = await connect(duel.pk, alice)
    frame = await receive_table(mine)
    assert 'data-action="leave"' in frame
    spectator, _ = await connect(duel.pk, None)
    await receive_table(spectator)
    await sync_to_async(seating.leave)(duel.pk, alice)
    left = duel.version + 1
    frame = await receive_table(mine, at_least=left)
    assert 'data-action="return"' in frame and 'data-action="leave"' not in frame
    watched = await receive_table(spectator, at_least=left)
    assert version_of(watched) == left and "data-match-actions" not in watched
    await sync_to_async(seating.return_to_seat)(duel.pk, alice)
    frame = await receive_table(mine, at_least=left + 1)
    assert 'data-action="leave"' in frame
    for ws in (mine, spectator):
        await ws.disconnect()


async def test_it_refuses_a_card_from_a_seat_its_player_left(duel, alice, bob) -> None:
    live = await sync_to_async(live_of)(duel)
    seat = live.engine.to_act
    user = {0: alice, 1: bob}[seat]
    await sync_to_async(seating.leave)(duel.pk, user)
    version = duel.version + 1
    ws, _ = await connect(duel.pk, user)
    await receive_table(ws)
    action = live.engine.legal_actions()[0]
    await send_move(
        ws, version=version, **{k: v for k, v in action.to_dict().items() if k != "seat"}
    )
    assert "You have left this seat; return to it to play." in await receive_error(ws)
    assert version_of(await receive_table(ws)) == version
    assert await sync_to_async(lambda: Seat.objects.get(table=duel, index=seat).left_at)()
    await ws.disconnect()
