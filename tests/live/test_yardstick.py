"""The load command's bare listener: who may listen, and to what."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from blotsite.asgi import application
from tests.live.wsclient import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GROUP = "loadtest-yardstick-1f2e-3"


async def listen(group: str, user=None) -> tuple[WebsocketCommunicator, bool]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if user is not None:
        headers.append((b"cookie", (await sync_to_async(session_cookie)(user)).encode()))
    communicator = WebsocketCommunicator(
        application, f"/ws/loadtest-yardstick/{group}/", headers=headers
    )
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def test_it_forwards_what_is_sent_to_its_group_and_nothing_a_client_says(alice) -> None:
    ws, connected = await listen(GROUP, alice)
    assert connected
    await ws.send_to(text_data='{"type": "play", "card": "JH", "version": 1}')
    assert await ws.receive_nothing(timeout=0.2)
    frame = {"type": "table.frame", "version": 0, "html": "x" * 6000}
    await get_channel_layer().group_send(GROUP, frame)
    assert await ws.receive_from(timeout=5) == "x" * 6000
    await ws.disconnect()


async def test_it_refuses_a_listener_who_is_not_signed_in() -> None:
    _ws, connected = await listen(GROUP)
    assert not connected


@pytest.mark.parametrize(
    "group", ["table-1", "table-1-seat-0-en", "table-1-watch-en", "loadtest-yardstick-zz-1"]
)
async def test_it_refuses_any_group_but_a_yardsticks(alice, group: str) -> None:
    _ws, connected = await listen(group, alice)
    assert not connected
