"""Two Daphne processes sharing PostgreSQL and Redis: players connected to
different processes see each other's moves.

Only meaningful with the real services (CI runs the suite once with DATABASE_URL
and REDIS_URL set): the in-memory channel layer cannot reach another process, and
the servers must share the test's database. The test writes its users, sessions
and table in the test database (committed: a transactional test) and points both
servers at that very database.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from games.models import ChatMessage
from games.services.tables import join_seat
from tests.browser.servers import (
    Server,
    launch_daphne,
    launch_worker,
    server_env,
    wait_until_serving,
)
from tests.live.conftest import live_of
from tests.live.wsclient import session_cookie, version_of

websockets_sync = pytest.importorskip("websockets.sync.client")


def _real_services() -> bool:
    database = os.environ.get("DATABASE_URL", "")
    return database.startswith(("postgres://", "postgresql://")) and bool(
        os.environ.get("REDIS_URL")
    )


pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not _real_services(),
        reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: two processes share them",
    ),
]


def _test_database_url() -> str:
    """DATABASE_URL naming the database pytest-django created for this run."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


@pytest.fixture
def two_daphnes(transactional_db, tmp_path) -> Iterator[tuple[Server, Server]]:
    env = server_env(DATABASE_URL=_test_database_url(), REDIS_URL=os.environ["REDIS_URL"])
    servers = [launch_daphne(env, tmp_path / f"daphne-{n}.log") for n in (1, 2)]
    try:
        for server in servers:
            wait_until_serving(server)
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


def _connect(server: Server, table_id: int, user):
    return websockets_sync.connect(
        f"{server.ws_url}/ws/table/{table_id}/",
        origin=server.url,
        additional_headers={"Cookie": session_cookie(user)},
        open_timeout=10,
    )


def _table_frame(ws, at_least: int, timeout: float = 10) -> str:
    """The first table frame at version ``at_least`` or later (skipping others)."""
    deadline = time.monotonic() + timeout
    while True:
        frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        version = version_of(frame)
        if 'id="table-root"' in frame and version is not None and version >= at_least:
            return frame


def _seat_of(frame: str) -> str:
    return frame.split('data-seat="', 1)[1].split('"', 1)[0]


def test_it_shows_each_player_the_others_move_across_two_processes(
    two_daphnes, make_table, alice, bob
) -> None:
    daphne_1, daphne_2 = two_daphnes
    table = make_table(alice, "open_blot")
    join_seat(table.pk, bob, 1)
    live = live_of(table)
    version = live.table.version
    # A is whoever bids first; both players pass, so each makes one move.
    seat_a = live.engine.to_act
    users = {0: alice, 1: bob}
    a, b = users[seat_a], users[1 - seat_a]

    with _connect(daphne_1, table.pk, a) as ws_a, _connect(daphne_2, table.pk, b) as ws_b:
        frame_a, frame_b = _table_frame(ws_a, version), _table_frame(ws_b, version)
        assert version_of(frame_a) == version_of(frame_b) == version
        assert _seat_of(frame_a) == str(seat_a) and _seat_of(frame_b) == str(1 - seat_a)

        # A moves over daphne 1; B hears of it from daphne 2 (through Redis).
        ws_a.send(json.dumps({"type": "pass", "version": version}))
        frame_b = _table_frame(ws_b, version + 1)
        assert version_of(frame_b) == version + 1
        assert f'data-to-act="{1 - seat_a}"' in frame_b
        assert version_of(_table_frame(ws_a, version + 1)) == version + 1

        # And the reverse: B moves over daphne 2; A hears of it from daphne 1.
        ws_b.send(json.dumps({"type": "pass", "version": version + 1}))
        frame_a = _table_frame(ws_a, version + 2)
        assert version_of(frame_a) == version + 2
        assert f'data-to-act="{seat_a}"' in frame_a
        assert version_of(_table_frame(ws_b, version + 2)) == version + 2

    stored = live_of(table).deal.actions
    assert [(x["seat"], x["type"]) for x in stored] == [(seat_a, "pass"), (1 - seat_a, "pass")]


def _frames_for(ws, seconds: float) -> list[str]:
    """Every table frame ``ws`` receives in ``seconds``."""
    deadline = time.monotonic() + seconds
    got = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = ws.recv(timeout=left)
        except TimeoutError:
            break
        if 'id="table-root"' in frame:
            got.append(frame)
    return got


def test_a_seat_change_moves_the_persons_sockets_on_every_process(
    two_daphnes, make_table, alice, bob
) -> None:
    """Alice has the table open on both servers; she moves to the other seat
    (announced from a third process, through Redis). Both sockets follow her:
    neither is sent seat 0 once Bob holds it, and neither can act for it."""
    daphne_1, daphne_2 = two_daphnes
    table = make_table(alice, "open_blot")
    version = live_of_version(table)
    with _connect(daphne_1, table.pk, alice) as tab_1, _connect(daphne_2, table.pk, alice) as tab_2:
        for tab in (tab_1, tab_2):
            assert _seat_of(_table_frame(tab, version)) == "0"
        join_seat(table.pk, alice, 1)
        for tab in (tab_1, tab_2):
            assert _seat_of(_table_frame(tab, version + 1)) == "1"
        join_seat(table.pk, bob, 0)
        live = live_of(table)
        with _connect(daphne_1, table.pk, bob) as bobs:
            assert _seat_of(_table_frame(bobs, live.table.version)) == "0"
            # Alice (tab 1) and Bob play until it is Bob's turn after one of hers.
            frames = []
            alice_moved = False
            while not (alice_moved and live.engine.to_act == 0):
                seat = live.engine.to_act
                move = live.engine.legal_actions()[0].to_dict()
                del move["seat"]
                (tab_1 if seat == 1 else bobs).send(
                    json.dumps({**move, "version": live.table.version})
                )
                frames.append(_table_frame(tab_2, live.table.version + 1))
                _table_frame(bobs, live.table.version + 1)
                alice_moved = alice_moved or seat == 1
                live = live_of(table)
            at = live.table.version
            frames += _frames_for(tab_2, 0.5) + _frames_for(tab_1, 0.2)
            assert frames and {_seat_of(f) for f in frames} == {"1"}
            # Seat 0 (Bob's) is to act: a pass from Alice's socket is not his.
            tab_2.send(json.dumps({"type": "pass", "version": at}))
            time.sleep(1.0)
            assert live_of(table).table.version == at
            assert live_of(table).engine.to_act == 0


def test_chat_messages_sent_at_once_over_two_processes_store_exactly_the_limit(
    two_daphnes, make_table, alice, carol
) -> None:
    """Twenty sockets of one person, ten on each server, each send a message at
    the same moment: exactly the burst limit (5) are stored."""
    table = make_table(alice, "belote")
    servers = [*two_daphnes] * 10
    sockets = [_connect(server, table.pk, carol) for server in servers]
    try:
        for ws in sockets:
            _table_frame(ws, 0)
        # The limit counts in fixed 10 s windows: a burst across a window's end
        # may rightly store up to twice the limit. Start inside a window.
        while not 0.5 < time.time() % 10 < 5:
            time.sleep(0.1)
        barrier = threading.Barrier(len(sockets))
        message = json.dumps({"type": "chat", "room": "spectators", "phrase": "hello"})

        def send(ws) -> None:
            barrier.wait(timeout=10)
            ws.send(message)

        threads = [threading.Thread(target=send, args=(ws,)) for ws in sockets]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        deadline = time.monotonic() + 10
        refused = 0
        for ws in sockets:  # each socket hears its message stored, or refused
            while time.monotonic() < deadline:
                frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
                if 'id="chat-refusal"' in frame:  # the answer to its own message
                    refused += "too fast" in frame
                    break
    finally:
        for ws in sockets:
            ws.close()
    stored = ChatMessage.objects.filter(author=carol).count()
    assert (stored, refused) == (5, 15)


def live_of_version(table) -> int:
    table.refresh_from_db()
    return table.version


@pytest.fixture
def daphne_and_worker(transactional_db, tmp_path) -> Iterator[Server]:
    """Daphne leaving bots to a separate ``manage.py blotworker`` process (the
    default with Redis), both on the test's PostgreSQL database and Redis."""
    env = server_env(
        DATABASE_URL=_test_database_url(),
        REDIS_URL=os.environ["REDIS_URL"],
        BLOT_NEXT_DEAL_PAUSE_MS="0",
        BLOT_BOT_BUDGET_MS="50",
    )
    daphne = launch_daphne(env, tmp_path / "daphne.log")
    worker = launch_worker(env, tmp_path / "worker.log")
    try:
        wait_until_serving(daphne)
        yield daphne
    finally:
        worker.stop()
        daphne.stop()


def test_it_has_a_worker_process_play_the_bots(daphne_and_worker, make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"], bot_delay_ms=0)
    live = live_of(table)
    version = live.table.version
    with _connect(daphne_and_worker, table.pk, alice) as ws:
        _table_frame(ws, version)
        if live.engine.to_act == 0:  # alice bids first: she passes, then it is the bot's turn
            ws.send(json.dumps({"type": "pass", "version": version}))
            version += 1
        # Only the worker can make the bot's move; Daphne shows it to alice.
        frame = _table_frame(ws, version + 1, timeout=30)
    assert version_of(frame) > version
    bot_moves = [a for a in live_of(table).deal.actions if a["seat"] == 1]
    assert bot_moves
