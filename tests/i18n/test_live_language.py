"""The live table's WebSocket speaks each viewer's language (there is no request
there, so the consumer finds it the way the pages do: profile, cookie, browser)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from blotsite.asgi import application
from games.models import Player
from tests.live.conftest import (  # noqa: F401 - fixtures
    _quick_tables,
    duel,
)
from tests.live.wsclient import receive_error, receive_table, send_move, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _connect(table_id: int, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    base = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    ws = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=base + headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    return ws


async def test_it_renders_a_spectators_table_in_the_browsers_language(duel) -> None:  # noqa: F811
    ws = await _connect(duel.pk, [(b"accept-language", b"hy-AM,hy;q=0.9,en;q=0.5")])
    frame = await receive_table(ws)
    assert "Դիտում են" in frame or "հանդիսատես" in frame
    assert "watching" not in frame
    await ws.disconnect()


async def test_it_prefers_the_language_cookie_to_the_browser(duel) -> None:  # noqa: F811
    headers = [(b"accept-language", b"fr"), (b"cookie", b"django_language=ka")]
    ws = await _connect(duel.pk, headers)
    assert "მაყურებელი" in await receive_table(ws)
    await ws.disconnect()


async def test_it_speaks_a_players_profile_language_and_refuses_in_it(duel, alice) -> None:  # noqa: F811
    await sync_to_async(Player.objects.filter(user=alice).update)(language="ru")
    cookie = await sync_to_async(session_cookie)(alice)
    headers = [(b"accept-language", b"en"), (b"cookie", cookie.encode())]
    ws = await _connect(duel.pk, headers)
    frame = await receive_table(ws)
    assert "Раздача 1" in frame
    await send_move(ws, type="play", card="AS", version=duel.version + 99)
    assert "Игра за столом ушла вперёд" in await receive_error(ws)
    await ws.disconnect()
