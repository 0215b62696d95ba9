"""Infrastructure faults in one process: a database that fails for a while, a
channel layer that refuses a publication. Presence keeps being recorded, no
stand-in plays for a player whose heartbeats could not be written, a stored move
is reported as accepted and its frames arrive late rather than never, and
repeated failures are logged once per interval."""

from __future__ import annotations

import asyncio
import copy
import logging
import threading
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError
from django.utils import timezone

from engine.actions import Action
from games.live.conduct import conductor
from games.live.conduct.conductor import Conductor, due_tables
from games.live.deliver import notify
from games.live.plan.turns import STAND_IN_LEVEL, plan
from games.live.store import presence
from games.live.submit.play import Live
from games.models import Presence, Table
from games.runtime.lograte import RateLimitedLog
from tests.live.conftest import all_bots, later, live_of, play_as_holder
from tests.live.wsclient import connect, receive_table, send_move


@pytest.fixture(autouse=True)
def _no_outage_left_over():
    yield
    presence._database_down = False
    presence._forgive_until = 0.0


def _player_to_act(make_table, alice, bob) -> tuple[Table, int]:
    from games.services.tables import join_seat

    table = make_table(alice, "open_blot")
    join_seat(table.pk, bob, 1)
    Table.objects.filter(pk=table.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=90), turn_seconds=600
    )
    table.refresh_from_db()
    return table, live_of(table).engine.to_act


def _stale_connection(table: Table, seat: int) -> None:
    """The player's socket is open, but its heartbeats stopped reaching the
    database 90 s ago (they could not be written)."""
    long_ago = timezone.now() - timedelta(seconds=90)
    user = table.seats.get(index=seat).user
    Presence.objects.create(
        table=table,
        channel_name=f"open-{seat}",
        user=user,
        seat_index=seat,
        connected_at=long_ago,
        last_seen=long_ago,
    )


@pytest.mark.django_db
def test_it_lets_no_stand_in_play_for_a_player_whose_heartbeats_could_not_be_written(
    make_table, alice, bob
) -> None:
    table, seat = _player_to_act(make_table, alice, bob)
    _stale_connection(table, seat)
    presence.database_failed()
    presence.database_ok()  # the database is back; heartbeats catch up now
    step = plan(live_of(table), timezone.now())
    assert step.level is None, "a stand-in would play for a connected player"


@pytest.mark.django_db
def test_it_lets_no_stand_in_play_for_a_player_whose_connection_row_was_not_written_yet(
    make_table, alice, bob
) -> None:
    # They connected just before the outage; their process had not flushed the
    # connection's row when the database went away.
    table, seat = _player_to_act(make_table, alice, bob)
    turn_start = timezone.now() - timedelta(seconds=90)
    presence.database_failed()
    presence.database_ok()
    assert presence.away_since(table, seat, since=turn_start) is None
    assert plan(live_of(table), timezone.now()).level is None

    presence._forgive_until = 0.0  # in normal times a seat nobody opened is away
    assert presence.away_since(table, seat, since=turn_start) == turn_start


@pytest.mark.django_db
def test_it_still_counts_a_connection_without_heartbeats_as_gone_in_normal_times(
    make_table, alice, bob
) -> None:
    table, seat = _player_to_act(make_table, alice, bob)
    _stale_connection(table, seat)  # a crashed server's connection: no outage seen
    step = plan(live_of(table), timezone.now())
    assert step.level == STAND_IN_LEVEL


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_keeps_recording_presence_through_database_errors(
    make_table, alice, monkeypatch, caplog
) -> None:
    monkeypatch.setattr(presence, "FLUSH_S", 0.01)
    monkeypatch.setattr(presence, "MAX_BACKOFF_S", 0.02)
    table = await sync_to_async(make_table)(alice, "open_blot", others=["easy"])
    book = presence.LiveSet()
    book.open("ch-1", table.pk, None, None)
    failures = 5
    calls = 0
    written = asyncio.Event()

    async def flaky(fn):
        nonlocal calls
        calls += 1
        if calls <= failures:
            raise OperationalError("connection refused")
        result = await sync_to_async(fn)()
        written.set()
        return result

    async def counts(_):
        return None

    with caplog.at_level(logging.WARNING, logger="games.live.store.presence"):
        task = asyncio.create_task(presence.keep_writing(book, flaky, counts))
        try:
            await asyncio.wait_for(written.wait(), timeout=10)
        finally:
            task.cancel()
    assert await Presence.objects.filter(channel_name="ch-1").aexists()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, "one line for the outage, not one per attempt"
    assert any("works again" in r.getMessage() for r in caplog.records)


@pytest.mark.asyncio
async def test_it_stops_writing_presence_when_a_cancel_lands_as_a_write_returns(
    monkeypatch,
) -> None:
    # asgiref can hand back a finished write and drop a cancel that came with it;
    # the writer must still stop, or the event loop holding it never closes.
    monkeypatch.setattr(presence, "FLUSH_S", 0.01)
    task: asyncio.Task | None = None

    async def write_then_cancelled(fn):
        assert task is not None
        task.cancel()
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            return {}  # the write finished: returned, the cancel dropped
        return {}

    async def counts(_):
        return None

    task = asyncio.create_task(
        presence.keep_writing(presence.LiveSet(), write_then_cancelled, counts)
    )
    done, _ = await asyncio.wait({task}, timeout=5)
    task.cancel()
    assert task in done and task.cancelled()


@pytest.mark.django_db
def test_it_writes_the_heartbeat_at_once_after_a_failed_flush(make_table, alice, monkeypatch):
    table = make_table(alice, "open_blot", others=["easy"])
    book = presence.LiveSet()
    book.open("ch-1", table.pk, None, None)
    book.flush()
    stale = timezone.now() - timedelta(seconds=50)
    Presence.objects.update(last_seen=stale)
    real = book._write

    def broken(*args):
        raise OperationalError("server closed the connection")

    monkeypatch.setattr(book, "_write", broken)
    with pytest.raises(OperationalError):
        book.flush()
    monkeypatch.setattr(book, "_write", real)
    book.flush()  # long before the next regular heartbeat
    assert Presence.objects.get(channel_name="ch-1").last_seen > stale


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_reports_a_stored_move_as_accepted_when_telling_the_viewers_fails(
    duel, alice, bob, monkeypatch
) -> None:
    real = notify.publish_async
    failed = []

    async def first_fails(*args):
        if not failed:
            failed.append(True)
            raise ConnectionError("Redis went away")
        await real(*args)

    monkeypatch.setattr(notify, "publish_async", first_fails)
    monkeypatch.setattr(notify, "RETRY_FIRST_S", 0.05)
    players = {0: (await connect(duel.pk, alice))[0], 1: (await connect(duel.pk, bob))[0]}
    for ws in players.values():
        await receive_table(ws)
    live = await sync_to_async(live_of)(duel)
    version = live.table.version
    await send_move(players[live.engine.to_act], type="pass", version=version)
    # Both hear of the move once the retry goes through; nobody is told it failed.
    for ws in players.values():
        while True:
            frame = await ws.receive_from(timeout=10)
            assert 'id="table-root"' in frame or 'id="table-error"' not in frame, frame
            if f'data-version="{version + 1}"' in frame:
                break
    assert failed
    assert (await Table.objects.aget(pk=duel.pk)).version == version + 1
    for ws in players.values():
        await ws.disconnect()


@pytest.mark.django_db
class RecordingLayer:
    """A channel layer that keeps what is sent (a pub/sub layer would drop a
    message sent before anyone listens, which is no concern of this test)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    async def send(self, channel: str, message: dict) -> None:
        self.sent.append((channel, message))

    async def group_send(self, group: str, message: dict) -> None:
        pass


def test_it_hands_a_persons_move_to_the_conductor_at_once_when_a_bot_is_next(
    make_table, alice, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.BLOT_CONDUCTOR = "external"
    layer = RecordingLayer()
    monkeypatch.setattr(notify, "get_channel_layer", lambda: layer)
    table = make_table(alice, "open_blot", others=["easy"])
    from games.live.conduct.conductor import act_if_due

    # Play on until the person has a move that hands the turn to the bot: "pass" is
    # not always one (the bot may have chosen trump and led, or the dealer must choose
    # in round 2), and a card that wins its trick keeps the lead.
    while (move := _move_handing_over_to_the_bot(live := live_of(table))) is None:
        if live.engine.to_act == 0:
            play_as_holder(table.pk, live.engine.legal_actions()[0], live.table.version)
        else:
            assert act_if_due(table.pk, later())
    layer.sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_as_holder(table.pk, move, live.table.version)
    assert live_of(table).engine.to_act == 1
    assert layer.sent == [(notify.CONDUCTOR_CHANNEL, {"type": "table.due", "table": table.pk})]
    assert Table.objects.get(pk=table.pk).wakeup_at is None  # due: the conductor plans it


def _move_handing_over_to_the_bot(live: Live | None) -> Action | None:
    if live is None or live.engine.to_act != 0:
        return None
    for action in live.engine.legal_actions():
        trial = copy.deepcopy(live.engine)
        trial.apply(action)
        if trial.to_act == 1:
            return action
    return None


@pytest.mark.django_db
def test_it_lets_the_conductor_sleep_through_a_connected_persons_turn(
    duel, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.BLOT_CONDUCTOR = "external"
    layer = RecordingLayer()
    monkeypatch.setattr(notify, "get_channel_layer", lambda: layer)
    live = live_of(duel)
    nxt = 1 - live.engine.to_act
    now = timezone.now()
    Presence.objects.create(
        table=duel,
        channel_name="next",
        user=duel.seats.get(index=nxt).user,
        seat_index=nxt,
        connected_at=now,
        last_seen=now,
    )
    from engine.actions import Action

    with django_capture_on_commit_callbacks(execute=True):
        play_as_holder(duel.pk, Action(live.engine.to_act, "pass"), duel.version)
    assert layer.sent == []  # nothing for the conductor to do until the clock runs out
    table = Table.objects.get(pk=duel.pk)
    assert live_of(table).engine.to_act == nxt
    assert table.wakeup_at == table.turn_started_at + timedelta(seconds=table.turn_seconds)


@pytest.mark.django_db
def test_it_serves_the_longest_waiting_table_first(make_table, alice) -> None:
    now = timezone.now()
    tables = [all_bots(make_table(alice, "open_blot", others=["easy"])) for _ in range(4)]
    due_since = [now - timedelta(seconds=s) for s in (3, 9, 1, 5)]
    for table, since in zip(tables, due_since, strict=True):
        Table.objects.filter(pk=table.pk).update(wakeup_at=since, turn_started_at=since)
    # A table with no wake-up set is due since its turn started.
    Table.objects.filter(pk=tables[3].pk).update(wakeup_at=None)
    order = due_tables(now)
    assert order == [tables[1].pk, tables[3].pk, tables[0].pk, tables[2].pk]
    assert due_tables(now, exclude={tables[1].pk}) == [tables[3].pk, tables[0].pk, tables[2].pk]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_lets_other_tables_move_while_one_bot_is_still_thinking(
    make_table, alice, monkeypatch
) -> None:
    slow = await sync_to_async(make_table)(alice, "open_blot", others=["hard"])
    fast = await sync_to_async(make_table)(alice, "open_blot", others=["easy"])
    for table, level in ((slow, "hard"), (fast, "easy")):
        await sync_to_async(all_bots)(table, level)
        await Table.objects.filter(pk=table.pk).aupdate(bot_delay_ms=0)
    thinking = threading.Event()
    release = threading.Event()
    real = conductor.decide_for

    def decide(level, obs, seed, budget):
        if level == "hard":
            thinking.set()
            release.wait(30)  # a Hard bot that thinks until the test lets it go
        return real("easy", obs, seed, budget)

    monkeypatch.setattr(conductor, "decide_for", decide)
    task = asyncio.create_task(Conductor(poll_s=0.05, db_threads=1).run())
    try:
        await asyncio.to_thread(thinking.wait, 30)
        fast_moves = 0
        for _ in range(1200):  # generous: the machine may be busy
            fast_moves = len((await sync_to_async(live_of)(fast)).deal.actions)
            if fast_moves >= 3:
                break
            await asyncio.sleep(0.05)
        assert fast_moves >= 3, "the other table waited for the slow bot"
        assert not (await sync_to_async(live_of)(slow)).deal.actions
    finally:
        release.set()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_logs_a_failing_conductor_once_per_interval(monkeypatch, caplog) -> None:
    passes = 0

    def down(*args, **kwargs):
        nonlocal passes
        passes += 1
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(conductor, "due_tables", down)
    monkeypatch.setattr(conductor, "MAX_BACKOFF_S", 0.01)
    monkeypatch.setattr(conductor, "CLEANUP_EVERY_S", 10**9)
    conductor_ = Conductor(poll_s=0.005)
    conductor_._last_cleanup = float("inf")
    with caplog.at_level(logging.WARNING, logger="games.live.conduct.conductor"):
        task = asyncio.create_task(conductor_.run())
        for _ in range(400):
            await asyncio.sleep(0.01)
            if passes >= 20:
                break
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert passes >= 20
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1
    assert presence.forgiving(), "the outage is known to the presence rules"


def test_it_summarises_repeated_failures_with_a_count(caplog) -> None:
    failures = RateLimitedLog(logging.getLogger("test.rate"), "Doing it", interval_s=0)
    with caplog.at_level(logging.WARNING, logger="test.rate"):
        failures.failed(OSError("first"))
        failures.failed(OSError("second"))
        failures.failed(OSError("third"))
        failures.recovered()
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == "Doing it failed: first"
    assert "1 more times" in messages[1] and "1 more times" in messages[2]
    assert "works again" in messages[-1]
