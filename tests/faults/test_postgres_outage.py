"""PostgreSQL unavailable for 30 s while two players are connected.

Daphne and the worker reach PostgreSQL through a proxy the test cuts (every
connection dropped, new ones refused) for 30 s. The players' sockets stay open
throughout. Afterwards no stand-in plays for either of them (their presence
could not be written during the outage, which must not make them "away"), play
continues, and the stored log holds exactly the moves the players made. A
control at the end proves the stand-in is live: a player who really leaves is
replaced after the grace period.
"""

from __future__ import annotations

import json
import os
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
from tests.faults.conftest import CuttableProxy, needs_real_services, servers_database_url
from tests.live.conftest import live_of
from tests.live.wsclient import TO_ACT, session_cookie, version_of

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.django_db(transaction=True), needs_real_services]

OUTAGE_S = 30
STALE_S = 12  # presence: a connection without heartbeat for this long is gone
GRACE_S = 2  # the table's disconnect grace


@pytest.fixture
def site_behind_proxy(transactional_db, pg_proxy, tmp_path) -> Iterator[tuple[Server, Server]]:
    env = server_env(
        DATABASE_URL=servers_database_url(pg_proxy.port),
        REDIS_URL=os.environ["REDIS_URL"],
        BLOT_NEXT_DEAL_PAUSE_MS="0",
        BLOT_BOT_BUDGET_MS="20",
        BLOT_PRESENCE_HEARTBEAT_S="3",
        BLOT_PRESENCE_STALE_S=str(STALE_S),
    )
    daphne = launch_daphne(env, tmp_path / "daphne.log")
    worker = launch_worker(env, tmp_path / "worker.log")
    try:
        wait_until_serving(daphne)
        yield daphne, worker
    finally:
        worker.stop()
        daphne.stop()


def _connect(server: Server, table_id: int, user):
    return websockets_sync.connect(
        f"{server.ws_url}/ws/table/{table_id}/",
        origin=server.url,
        additional_headers={"Cookie": session_cookie(user)},
        open_timeout=20,
    )


def _latest(ws, wait: float) -> str | None:
    """The newest table frame that arrives within ``wait`` seconds (None: none)."""
    deadline = time.monotonic() + wait
    latest = None
    while True:
        try:
            frame = ws.recv(timeout=max(0.01, deadline - time.monotonic()))
        except TimeoutError:
            return latest
        if 'id="table-root"' in frame:
            latest = frame
        if time.monotonic() >= deadline:
            return latest


def _frame_at(ws, version: int, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while True:
        frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        if 'id="table-root"' in frame and (version_of(frame) or 0) >= version:
            return frame


def _first_move(frame: str) -> dict:
    import html
    import re

    vals = re.search(r'hx-vals="([^"]+)"', frame)
    assert vals, "the player to act is offered no move"
    return json.loads(html.unescape(vals.group(1)))


def test_it_lets_no_stand_in_play_for_players_connected_through_a_database_outage(
    site_behind_proxy, pg_proxy: CuttableProxy, make_table, alice, bob
) -> None:
    daphne, worker = site_behind_proxy
    table = make_table(alice, "open_blot")
    Table.objects.filter(pk=table.pk).update(turn_seconds=600, disconnect_grace_seconds=GRACE_S)
    join_seat(table.pk, bob, 1)
    users = {0: alice, 1: bob}
    sent: list[tuple[int, str]] = []
    with _connect(daphne, table.pk, alice) as ws_a, _connect(daphne, table.pk, bob) as ws_b:
        sockets = {0: ws_a, 1: ws_b}
        version = live_of(table).table.version
        frames = {seat: _frame_at(ws, version) for seat, ws in sockets.items()}

        def play_one() -> None:
            nonlocal version
            seat = int(TO_ACT.search(frames[0]).group(1))
            move = _first_move(frames[seat])
            sockets[seat].send(json.dumps(move))
            sent.append((seat, move["type"]))
            version += 1
            for s, ws in sockets.items():
                frames[s] = _frame_at(ws, version)

        play_one()  # the site works before the outage
        pg_proxy.cut()
        outage_ends = time.monotonic() + OUTAGE_S
        # A move tried during the outage is refused (it could not be stored).
        seat = int(TO_ACT.search(frames[0]).group(1))
        sockets[seat].send(json.dumps(_first_move(frames[seat])))
        for ws in sockets.values():
            _latest(ws, max(0.0, outage_ends - time.monotonic()) / 2)
        for ws in sockets.values():
            _latest(ws, max(0.0, outage_ends - time.monotonic()))
        pg_proxy.restore()

        # Long enough that a frozen heartbeat would count as away and the
        # grace period would have run out: nobody plays for these two.
        for seat, ws in sockets.items():
            late = _latest(ws, (STALE_S + GRACE_S + 6) / 2)
            if late is not None:
                frames[seat] = late
        stored = live_of(table)
        assert stored.table.version == version, (
            f"a stand-in moved for a connected player: {stored.deal.actions[len(sent) :]}\n"
            f"{worker.log()}"
        )
        # Play continues: both players move again, each sees the other's move.
        play_one()
        play_one()
        stored = live_of(table)
        assert [(a["seat"], a["type"]) for a in stored.deal.actions] == sent  # none lost or doubled
        assert stored.table.version == version

        # Control: the stand-in is alive — a player who really leaves is replaced.
        leaver = int(TO_ACT.search(frames[0]).group(1))
        stayer = 1 - leaver
        sockets[leaver].close()
        frame = _frame_at(sockets[stayer], version + 1, timeout=STALE_S + GRACE_S + 20)
    assert version_of(frame) > version
    assert users  # both players took part


LONG_OUTAGE_S = 75
#: A move must be accepted this soon after PostgreSQL answers again.
RECOVERY_S = 5


def _accepted_after(ws, move: dict, version: int, deadline: float) -> float | None:
    """Send ``move`` until a frame at ``version + 1`` shows it stored; when that
    happened (time.monotonic()), or None if not by ``deadline``. A refusal
    ("the server could not take that move") is answered by sending it again."""
    ws.send(json.dumps(move))
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = ws.recv(timeout=left)
        except TimeoutError:
            return None
        if 'id="table-root"' in frame and (version_of(frame) or 0) > version:
            return time.monotonic()
        if 'id="table-error"' in frame and 'id="table-root"' not in frame:
            ws.send(json.dumps(move))
    return None


def test_it_takes_moves_within_seconds_of_the_database_returning_after_a_long_outage(
    site_behind_proxy, pg_proxy: CuttableProxy, make_table, alice, bob
) -> None:
    """After 75 s without PostgreSQL the processes' connection pools would have
    backed off their reconnection attempts to a minute apart; a move sent as it
    comes back must be taken within a few seconds all the same."""
    daphne, worker = site_behind_proxy
    table = make_table(alice, "open_blot")
    Table.objects.filter(pk=table.pk).update(turn_seconds=600, disconnect_grace_seconds=600)
    join_seat(table.pk, bob, 1)
    with _connect(daphne, table.pk, alice) as ws_a, _connect(daphne, table.pk, bob) as ws_b:
        sockets = {0: ws_a, 1: ws_b}
        version = live_of(table).table.version
        frames = {seat: _frame_at(ws, version) for seat, ws in sockets.items()}
        seat = int(TO_ACT.search(frames[0]).group(1))
        pg_proxy.cut()
        outage_ends = time.monotonic() + LONG_OUTAGE_S
        # Players keep clicking now and then while it is away; all refused.
        while (left := outage_ends - time.monotonic()) > 15:
            sockets[seat].send(json.dumps(_first_move(frames[seat])))
            for ws in sockets.values():
                _latest(ws, min(10.0, left - 15))
        for ws in sockets.values():
            _latest(ws, max(0.0, outage_ends - time.monotonic()) / 2)
        assert live_of(table).table.version == version, "a move was stored without the database"
        pg_proxy.restore()
        back = time.monotonic()
        accepted = _accepted_after(
            sockets[seat], _first_move(frames[seat]), version, back + RECOVERY_S + 25
        )
    assert accepted is not None, (
        f"no move was accepted within {RECOVERY_S + 25} s of PostgreSQL's return\n{daphne.log()}"
    )
    print(f"\nmove accepted {accepted - back:.1f} s after PostgreSQL came back")
    assert accepted - back <= RECOVERY_S, (
        f"a move was accepted only {accepted - back:.1f} s after PostgreSQL came back "
        f"(after a {LONG_OUTAGE_S} s outage); the site must take moves within {RECOVERY_S} s"
    )
    stored = live_of(table)
    assert stored.table.version == version + 1 and len(stored.deal.actions) == 1
    assert worker  # the worker ran beside it throughout
