"""The load command's own accounting: what it reads from the site's frames and
how it turns arrival times into the figures it reports."""

from __future__ import annotations

import asyncio
import random

import pytest
from channels.layers import InMemoryChannelLayer

from games.live.conduct.conductor import run_due
from games.live.draw import frames
from games.loadtest import client
from tests.live.conftest import all_bots, later


def _client(bot_pause_s: float = 0.1) -> client.Client:
    viewer = client.Viewer(table=1, seat=0, url="http://127.0.0.1:1", cookie=None,
                            bot_seats=frozenset({1}))
    return client.Client(0, viewer, client.Record(), 1.0, bot_pause_s, random.Random(1),
                          asyncio.Event())


def _frame(version: int, to_act: int, deal: int = 1, trick_pause_ms: int | None = None) -> str:
    trick = (
        f'<div class="trick" id="trick" data-trick data-complete data-winner="1" '
        f'data-pause="{trick_pause_ms}">'
        if trick_pause_ms is not None
        else '<div class="trick" id="trick" data-trick>'
    )
    return (
        f'<div id="table-root" data-version="{version}" data-to-act="{to_act}" data-seat="0" '
        f'data-deal="{deal}">{trick}</div></div>'
    )


@pytest.mark.asyncio
async def test_it_counts_a_bots_reply_beyond_its_pause_and_the_trick_pause() -> None:
    client = _client(bot_pause_s=0.1)
    await client.on_frame(None, _frame(10, to_act=1), now=100.0)
    await client.on_frame(None, _frame(11, to_act=1, trick_pause_ms=1000), now=100.15)
    await client.on_frame(None, _frame(12, to_act=0), now=101.45)
    assert [round(ms) for ms in client.record.bot_turns] == [50, 200]


@pytest.mark.asyncio
async def test_it_leaves_out_a_bots_first_move_of_a_new_deal() -> None:
    client = _client()
    await client.on_frame(None, _frame(10, to_act=1, deal=1), now=100.0)
    await client.on_frame(None, _frame(11, to_act=0, deal=2), now=103.0)  # the deal pause
    assert client.record.bot_turns == []


@pytest.mark.django_db
def test_it_reads_the_deal_and_the_trick_pause_from_the_sites_frames(make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"])
    Table = type(table)
    all_bots(table)
    Table.objects.filter(pk=table.pk).update(trick_pause_ms=1200, spectator_count=1)
    while True:  # until a trick is complete and its pause is on
        _version, drawn = frames.render_all(table.pk)
        html = next(iter(drawn.values()))
        if "data-complete" in html:
            break
        assert run_due(later()), "the bots stopped playing"
    assert client.DEAL.search(html).group(1) == "1"
    assert client.TRICK_PAUSE.search(html).group(1) == "1200"


def test_it_reports_percentiles_of_what_it_measured() -> None:
    figures = client.percentiles([float(ms) for ms in range(1, 101)])
    assert figures == {"n": 100, "p50": 51.0, "p95": 96.0, "p99": 100.0, "max": 100.0}
    assert client.percentiles([])["p99"] is None


def test_it_reports_how_busy_the_machine_was_and_what_the_hypervisor_took() -> None:
    # user nice system idle iowait irq softirq steal guest guest_nice, per /proc/stat
    before = client.CpuTimes.parse("cpu  100 0 50 800 40 0 10 0 0 0\ncpu0 1 2 3\n")
    after = client.CpuTimes.parse("cpu  400 0 150 1100 60 0 30 60 0 0\ncpu0 1 2 3\n")
    # 800 ticks passed: 320 idle or waiting, 60 stolen, 420 busy here.
    assert client.machine_share(before, after) == {"busy_pct": 52.5, "steal_pct": 7.5}


def test_it_leaves_out_the_machine_share_where_it_cannot_read_one(tmp_path) -> None:
    assert client.read_cpu_times(str(tmp_path / "missing")) is None
    assert client.machine_share(None, None) is None
    same = client.CpuTimes.parse("cpu 1 2 3 4 5 6 7 8")
    assert client.machine_share(same, same) is None


@pytest.mark.parametrize("url", ["http://example.com", "ftp://127.0.0.1", "http://10.0.0.1:80"])
def test_it_refuses_to_load_anything_but_this_machine(url: str) -> None:
    with pytest.raises(ValueError):
        client.check_loopback(url)


def test_it_counts_a_move_that_ends_a_deal_as_delivered_by_the_next_version_drawn() -> None:
    # The last card takes version 37 and the scoring 38: viewers are drawn 38.
    record = client.Record()
    record.viewers_of[7] = {0, 1}
    record.sent[(7, 36)] = (10.0, 0)
    record.arrivals[(7, 38)] = {0: 10.05, 1: 10.08}
    run = client.summarise(record, 1.0)
    assert run["undelivered_moves"] == 0
    assert run["move_to_last_viewer_ms"]["max"] == pytest.approx(80.0)


def test_it_reports_a_move_nobody_was_drawn_after_as_undelivered() -> None:
    record = client.Record()
    record.viewers_of[7] = {0, 1}
    record.sent[(7, 36)] = (10.0, 0)
    record.arrivals[(7, 36)] = {0: 9.0, 1: 9.0}
    record.arrivals[(7, 37)] = {0: 10.05}  # viewer 1 never got it
    assert client.summarise(record, 1.0)["undelivered_moves"] == 1


def test_it_counts_moves_per_second_only_up_to_the_end_of_the_run() -> None:
    record = client.Record()
    record.viewers_of[7] = {0}
    for version, at in [(1, 1.0), (2, 2.0), (3, 3.0), (4, 12.0)]:  # 4 came while draining
        record.arrivals[(7, version)] = {0: at}
    assert client.summarise(record, 10.0, until=10.0)["moves"] == 2
    assert client.summarise(record, 10.0)["moves"] == 3


def test_it_times_other_tables_moves_only_while_the_late_spectators_join() -> None:
    record = client.Record(late_after_s=5.0)
    record.late_started = 105.0  # the run started at 100 s, the crowd came 5 s later
    record.late_joins = [105.4, 105.9]
    for table, version, sent, arrived in [
        (2, 1, 101.0, 101.5),  # before the crowd: left out
        (2, 2, 105.2, 105.3),
        (3, 1, 105.8, 105.9),
        (1, 1, 105.5, 106.5),  # the crowd's own table: left out
        (3, 2, 106.0, 106.05),  # after the last joined: left out
    ]:
        record.viewers_of[table] = {0}
        record.sent[(table, version - 1)] = (sent, 0)
        record.arrivals[(table, version)] = {0: arrived}
    late = client.summarise_extras(record, started=100.0, first_table=1)["late_spectators"]
    assert late["came_after_s"] == 5.0
    assert late["all_joined_s"] == 0.9
    assert late["other_tables_moves"] == 2
    assert late["other_tables_move_to_last_viewer_ms"]["max"] == pytest.approx(100.0)


class _Socket:
    async def send(self, data: str) -> None:
        pass


@pytest.fixture
def slept(monkeypatch) -> list[float]:
    """Every sleep a client asks for, in seconds (none is slept)."""
    asked: list[float] = []

    async def sleep(seconds: float) -> None:
        asked.append(seconds)

    monkeypatch.setattr(client.asyncio, "sleep", sleep)
    return asked


@pytest.mark.asyncio
async def test_it_delays_only_a_tables_first_move_by_its_start_offset(slept) -> None:
    client = _client()
    client.start_offset_s = 0.4
    client.record.ready.set()
    await client.move(_Socket(), {"type": "pass", "version": 1})
    await client.move(_Socket(), {"type": "pass", "version": 2})
    assert slept == [pytest.approx(1.4), pytest.approx(1.0)]


@pytest.mark.asyncio
async def test_it_spreads_think_times_around_the_same_mean_when_asked(slept) -> None:
    client = _client()
    client.think_spread = 0.5
    client.record.ready.set()
    client.record.started_tables.add(client.viewer.table)  # not the table's first move
    for version in range(400):
        await client.move(_Socket(), {"type": "pass", "version": version})
    assert all(0.5 <= s <= 1.5 for s in slept)
    assert len(set(slept)) > 300  # people no longer move in step
    assert sum(slept) / len(slept) == pytest.approx(1.0, abs=0.05)


@pytest.mark.asyncio
async def test_its_yardstick_times_every_round_but_the_one_that_opens_the_layer() -> None:
    layer = InMemoryChannelLayer()
    sends: list[int] = []
    group_send = layer.group_send

    async def counted(group: str, message: dict) -> None:
        sends.append(message["version"])
        await group_send(group, message)

    layer.group_send = counted  # type: ignore[method-assign]
    bare = await client.bare_broadcast(layer, [4, 2, 3], frame_bytes=100, rounds=5, pause_s=0)
    assert bare["messages"] == 3 * 5
    assert bare["to_last_ms"]["n"] == 3 * 5
    assert sorted(set(sends)) == [-1, 0, 1, 2, 3, 4]
    assert len(sends) == 3 * 6


@pytest.mark.asyncio
async def test_its_socket_yardstick_is_skipped_against_an_embedded_site() -> None:
    """The load process's in-memory layer reaches no server: sending there would
    only time out, and the run's figures must still be reported."""
    viewer = client.Viewer(url="http://127.0.0.1:9", table=1, seat=None, cookie=None)
    sockets = await client.socket_broadcast(
        InMemoryChannelLayer(), [[viewer]], frame_bytes=100, rounds=2, pause_s=0
    )
    assert sockets["messages"] == 0 and sockets["to_last_ms"]["p99"] is None
    assert "memory" in sockets["skipped"]


@pytest.mark.asyncio
async def test_its_socket_yardstick_reports_a_failure_instead_of_raising() -> None:
    class Unreachable:
        pass

    viewer = client.Viewer(url="http://127.0.0.1:9", table=1, seat=None, cookie=None)
    sockets = await client.socket_broadcast(
        Unreachable(), [[viewer]], frame_bytes=100, rounds=2, pause_s=0
    )
    assert sockets["messages"] == 0 and sockets["error"]
