"""The configured channel layer (in-memory, or Redis when REDIS_URL is set)
delivers group messages, and the ASGI app routes websockets."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.routing import ProtocolTypeRouter

from blotsite.asgi import application, router


@pytest.mark.asyncio
async def test_it_delivers_a_group_message():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("table-test", channel)
    try:
        await layer.group_send("table-test", {"type": "table.changed", "version": 3})
        message = await layer.receive(channel)
    finally:
        await layer.group_discard("table-test", channel)
    assert message == {"type": "table.changed", "version": 3}


def test_it_sends_from_synchronous_code_repeatedly():
    # Services notify after commit from sync code; each call may run on a new loop.
    layer = get_channel_layer()
    for version in range(3):
        message = {"type": "table.changed", "version": version}
        async_to_sync(layer.group_send)("table-nobody", message)


def test_it_routes_http_and_websockets():
    assert callable(application)
    assert isinstance(router, ProtocolTypeRouter)
    assert set(router.application_mapping) == {"http", "websocket"}
