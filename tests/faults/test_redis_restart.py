"""Redis restarted mid-game: a private redis-server is killed and started again
on the same port while two players play at one table and a person plays a bot
(run by the worker) at another.

The mover is told the move was taken (never "could not take that move"), and
once Redis is back every viewer (players and a spectator) reaches the stored
version within 5 s: the frames that could not be published are published again,
and the next move reaches the spectator through its process's resubscribed relay.
"""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Iterator

import pytest

from games.models import Table
from games.services.tables import join_seat
from tests.browser.servers import (
    Server,
    launch_daphne,
    launch_worker,
    server_env,
    wait_until_serving,
)
from tests.faults.conftest import PrivateRedis, needs_real_services, servers_database_url
from tests.live.conftest import live_of
from tests.live.wsclient import TO_ACT, session_cookie, version_of

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.django_db(transaction=True), needs_real_services]

CONVERGE_S = 5
HX_VALS = re.compile(r'hx-vals="([^"]+)"')


@pytest.fixture
def site_on_private_redis(
    transactional_db, private_redis: PrivateRedis, tmp_path
) -> Iterator[tuple[Server, Server]]:
    env = server_env(
        DATABASE_URL=servers_database_url(),
        REDIS_URL=private_redis.url,
        BLOT_NEXT_DEAL_PAUSE_MS="0",
        BLOT_BOT_BUDGET_MS="20",
    )
    daphne = launch_daphne(env, tmp_path / "daphne.log")
    worker = launch_worker(env, tmp_path / "worker.log")
    try:
        wait_until_serving(daphne)
        yield daphne, worker
    finally:
        worker.stop()
        daphne.stop()


def _connect(server: Server, table_id: int, user=None):
    """A player's socket, or an anonymous spectator's (``user`` None)."""
    cookie = {"Cookie": session_cookie(user)} if user is not None else {}
    return websockets_sync.connect(
        f"{server.ws_url}/ws/table/{table_id}/",
        origin=server.url,
        additional_headers=cookie,
        open_timeout=20,
    )


def _frame_at(ws, version: int, timeout: float, refused: list | None = None) -> str:
    """The first table frame at ``version`` or later; refusals are collected."""
    deadline = time.monotonic() + timeout
    while True:
        frame = ws.recv(timeout=max(0.05, deadline - time.monotonic()))
        if 'id="table-root"' not in frame:
            if refused is not None and 'id="table-error"' in frame:
                refused.append(frame)
            continue
        if (version_of(frame) or 0) >= version:
            return frame


def _to_act(frame: str) -> int | None:
    match = TO_ACT.search(frame)
    return int(match.group(1)) if match and match.group(1) else None


def _move(frame: str) -> dict:
    return json.loads(html.unescape(HX_VALS.search(frame).group(1)))


def _stored_version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


def test_it_tells_every_viewer_the_stored_version_soon_after_redis_comes_back(
    site_on_private_redis, private_redis: PrivateRedis, make_table, alice, bob, carol
) -> None:
    daphne, worker = site_on_private_redis
    duel = make_table(alice, "open_blot")
    Table.objects.filter(pk=duel.pk).update(turn_seconds=600)
    join_seat(duel.pk, bob, 1)
    bots = make_table(carol, "open_blot", others=["easy"], bot_delay_ms=1500)
    Table.objects.filter(pk=bots.pk).update(turn_seconds=600)
    refused: list[str] = []
    with (
        _connect(daphne, duel.pk, alice) as ws_a,
        _connect(daphne, duel.pk, bob) as ws_b,
        _connect(daphne, bots.pk, carol) as ws_c,
        _connect(daphne, duel.pk) as spectator,
    ):
        players = {0: ws_a, 1: ws_b}
        version = live_of(duel).table.version
        frames = {seat: _frame_at(ws, version, 20) for seat, ws in players.items()}
        _frame_at(spectator, version, 20)
        # Carol plays on until it is her turn (the worker plays the bot's turns).
        frame_c = _frame_at(ws_c, live_of(bots).table.version, 20)
        while _to_act(frame_c) != 0:
            frame_c = _frame_at(ws_c, version_of(frame_c) + 1, 30)

        private_redis.kill()
        time.sleep(1)
        # Moves made while Redis is away: each mover is told it was taken.
        mover = _to_act(frames[0])
        players[mover].send(json.dumps(_move(frames[mover])))
        frames[mover] = _frame_at(players[mover], version + 1, 10, refused)
        assert version_of(frames[mover]) == version + 1
        # Carol moves until the bot is to act (after some moves she acts again:
        # she bids on, or wins the trick and leads).
        while True:
            carol_version = version_of(frame_c)
            ws_c.send(json.dumps(_move(frame_c)))
            frame_c = _frame_at(ws_c, carol_version + 1, 10, refused)
            assert version_of(frame_c) == carol_version + 1
            if _to_act(frame_c) != 0:
                break
        # The bot's pause runs out: the worker plays its move, which cannot be published.
        deadline = time.monotonic() + 60
        while _stored_version(bots.pk) < carol_version + 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _stored_version(bots.pk) >= carol_version + 2, (
            f"the worker did not play the bot (to act: {live_of(bots).engine.to_act}, "
            f"{Table.objects.filter(pk=bots.pk).values('version', 'wakeup_at').get()})\n"
            f"{worker.log()}"
        )
        assert not refused, refused

        private_redis.start()
        back = time.monotonic()
        # Every viewer reaches what is stored, within 5 s of Redis being back.
        other = players[1 - mover]
        duel_now = _stored_version(duel.pk)
        assert duel_now == version + 1
        frames[1 - mover] = _frame_at(other, duel_now, CONVERGE_S)
        assert version_of(frames[1 - mover]) == duel_now
        left = max(0.1, back + CONVERGE_S - time.monotonic())
        assert version_of(_frame_at(spectator, duel_now, left)) == duel_now
        bots_now = _stored_version(bots.pk)
        frame = _frame_at(ws_c, bots_now, max(0.1, back + CONVERGE_S - time.monotonic()))
        assert version_of(frame) >= bots_now
        # The spectators' subscription came back with Redis: the next move reaches them.
        seat = _to_act(frames[1 - mover])
        players[seat].send(json.dumps(_move(frames[seat])))
        assert version_of(_frame_at(spectator, duel_now + 1, 10)) == duel_now + 1
    assert not refused, refused
