"""The live series: open sockets by kind, moves by who made them, and each
viewer's frame measured from the move's commit to its socket."""

from __future__ import annotations

import time

import pytest
from asgiref.sync import sync_to_async
from prometheus_client import REGISTRY

from games.runtime import metrics
from tests.live.conftest import live_of
from tests.live.wsclient import connect, receive_table, send_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_open_sockets_are_counted_by_kind_while_open(duel, alice, bob) -> None:
    players0, spectators0 = sample("blot_open_sockets", kind="table"), sample(
        "blot_open_sockets", kind="spectator"
    )
    a, _ = await connect(duel.pk, alice)
    s, _ = await connect(duel.pk, None)
    await receive_table(a)
    await receive_table(s)
    assert sample("blot_open_sockets", kind="table") == players0 + 1
    assert sample("blot_open_sockets", kind="spectator") == spectators0 + 1
    await a.disconnect()
    await s.disconnect()
    assert sample("blot_open_sockets", kind="table") == players0
    assert sample("blot_open_sockets", kind="spectator") == spectators0


async def test_a_move_is_counted_and_timed_to_each_viewer(duel, alice, bob) -> None:
    viewers = {}
    for user, seat in ((alice, 0), (bob, 1)):
        viewers[seat], _ = await connect(duel.pk, user)
        await receive_table(viewers[seat])
    spectator, _ = await connect(duel.pk, None)
    await receive_table(spectator)
    moves = sample("blot_moves_total", by="person")
    sends = sample("blot_move_to_viewer_send_seconds_count")
    frames = sample("blot_frame_bytes_count")
    live = await sync_to_async(live_of)(duel)
    seat, action = live.engine.to_act, live.engine.legal_actions()[0]
    await send_move(
        viewers[seat],
        version=duel.version,
        **{k: v for k, v in action.to_dict().items() if k != "seat"},
    )
    for ws in (*viewers.values(), spectator):
        await receive_table(ws, at_least=duel.version + 1)
    assert sample("blot_moves_total", by="person") == moves + 1
    # The mover's frame (its own socket shows it) and the other player's are the
    # move's; a spectator's may come first with the watcher count.
    assert sample("blot_move_to_viewer_send_seconds_count") >= sends + 2
    assert sample("blot_frame_bytes_count") >= frames + 2
    for ws in (*viewers.values(), spectator):
        await ws.disconnect()


async def test_a_moves_last_send_is_the_slowest_of_its_sends() -> None:
    sends = metrics.FrameSends()
    before = sample("blot_move_to_last_viewer_send_seconds_count")
    slow_sum = sample("blot_move_to_last_viewer_send_seconds_sum")
    now = time.time()
    sends.sent(1, 7, now - 0.010, 100)
    sends.sent(1, 7, now - 0.030, 100)
    sends.close_older_than(time.time() + 1)
    assert sample("blot_move_to_last_viewer_send_seconds_count") == before + 1
    observed = sample("blot_move_to_last_viewer_send_seconds_sum") - slow_sum
    assert observed >= 0.030
    sends.sent(1, 7, now - 0.050, 100)  # late: its move was closed already
    sends.close_older_than(time.time() + 1)
    assert sample("blot_move_to_last_viewer_send_seconds_count") == before + 1


async def test_only_moves_first_sent_before_the_moment_are_closed(monkeypatch) -> None:
    sends = metrics.FrameSends()
    clock = [1000.0]
    monkeypatch.setattr(metrics.time, "time", lambda: clock[0])
    before = sample("blot_move_to_last_viewer_send_seconds_count")
    sends.sent(1, 7, 999.99, 100)  # move (1, 7) first sent at 1000
    clock[0] = 1001.0
    sends.sent(2, 3, 1000.99, 100)  # move (2, 3) first sent at 1001
    sends.sent(1, 7, 1000.9, 100)  # a later send of the older move keeps its place
    sends.close_older_than(1000.5)
    assert sample("blot_move_to_last_viewer_send_seconds_count") == before + 1
    sends.close_older_than(1001.0)
    assert sample("blot_move_to_last_viewer_send_seconds_count") == before + 2
    sends.close_older_than(1002.0)  # nothing left open
    assert sample("blot_move_to_last_viewer_send_seconds_count") == before + 2
