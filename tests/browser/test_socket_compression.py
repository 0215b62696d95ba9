"""Table frames travel deflated (permessage-deflate) to clients that offer it, as
every browser does, and plain to one that does not: a frame is the whole table,
mostly what the last one was, so the wire carries a fraction of it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from games.loadtest import client
from tests.browser.pages import SiteDB, TablePage, create_table, sign_up


async def _first_frame(url: str, table_id: int, offer: bool) -> tuple[int, int, str | None]:
    """The first frame's decoded size, the bytes that came on the wire by then
    (the handshake's response included), and the extensions agreed."""
    client.OFFER_DEFLATE = offer
    try:
        ws = await client.open_socket(url, f"/ws/table/{table_id}/", None)
    finally:
        client.OFFER_DEFLATE = True
    try:
        frame = await asyncio.wait_for(ws.recv(), 20)
        return len(frame.encode()), ws.wire_bytes, ws.response.headers.get(
            "Sec-WebSocket-Extensions"
        )
    finally:
        await ws.close()


def _in_own_loop(url: str, table_id: int, offer: bool) -> tuple[int, int, str | None]:
    # Playwright's sync API runs an event loop in this thread: the client gets its own.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _first_frame(url, table_id, offer)).result()


def test_a_browser_agrees_on_deflate_and_a_plain_client_gets_plain_frames(
    new_page, site_db: SiteDB, blot_server
) -> None:
    page = new_page()
    sign_up(page)
    agreed: list[str] = []
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.on(
        "Network.webSocketHandshakeResponseReceived",
        lambda event: agreed.append(
            {k.lower(): v for k, v in event["response"]["headers"].items()}.get(
                "sec-websocket-extensions", ""
            )
        ),
    )
    table_id = create_table(page, "belote", ["easy", "easy", "easy"])
    TablePage(page, table_id, site_db).open()
    assert agreed and all("permessage-deflate" in extensions for extensions in agreed)

    size, wire, extensions = _in_own_loop(blot_server.url, table_id, offer=True)
    assert extensions is not None and extensions.startswith("permessage-deflate")
    assert wire < size / 2

    size, wire, extensions = _in_own_loop(blot_server.url, table_id, offer=False)
    assert extensions is None
    assert wire > size
