"""Crowds cost what they must: a move is rendered once per viewpoint whatever
the number of spectators, a frame's queries do not grow with the match, joins
do not redraw the table for everyone, presence is written in batches."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from engine.observe import observe
from games.live.conduct.conductor import run_due
from games.live.draw import frames, render
from games.live.store import history, presence
from games.models import Deal, Presence, Seat, Table
from tests.live.conftest import all_bots, later, live_of, play_as_holder
from tests.live.wsclient import connect, receive_table, send_move, version_of


@pytest.fixture
def render_calls(monkeypatch) -> list:
    """Every call of the one renderer, as (table id, seat)."""
    calls: list = []
    real = render.render_table

    def counting(table, seat, **kwargs):
        calls.append((table.pk, seat))
        return real(table, seat, **kwargs)

    monkeypatch.setattr(render, "render_table", counting)
    return calls


async def _move_with_spectators(table: Table, alice, bob, spectators: int, calls: list) -> set:
    viewers = [await connect(table.pk, None) for _ in range(spectators)]
    players = {0: (await connect(table.pk, alice))[0], 1: (await connect(table.pk, bob))[0]}
    for ws, _ in viewers:
        await receive_table(ws)
    for ws in players.values():
        await receive_table(ws)
    await database_sync_to_async(presence.live_set.flush)()  # the table counts its watchers
    live = await sync_to_async(live_of)(table)
    calls.clear()
    await send_move(players[live.engine.to_act], type="pass", version=live.table.version)
    spectator_frames = set()
    for ws, _ in viewers:
        spectator_frames.add(await receive_table(ws, at_least=live.table.version + 1))
    for ws in players.values():
        await receive_table(ws, at_least=live.table.version + 1)
    for ws in [*(v for v, _ in viewers), *players.values()]:
        await ws.disconnect()
    return spectator_frames


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("spectators", [1, 12])
async def test_it_renders_a_move_once_per_viewpoint_whatever_the_number_of_spectators(
    spectators, duel, alice, bob, render_calls
) -> None:
    spectator_frames = await _move_with_spectators(duel, alice, bob, spectators, render_calls)
    # Two seats and the spectators' view: three renders, for 1 spectator or 12.
    assert sorted(render_calls, key=str) == [(duel.pk, 0), (duel.pk, 1), (duel.pk, None)]
    assert len(spectator_frames) == 1, "every spectator is sent the same bytes"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_draws_the_table_once_for_many_spectators_joining(duel, render_calls) -> None:
    sockets = []
    for _ in range(10):
        ws, connected = await connect(duel.pk, None)
        assert connected
        sockets.append(ws)
        await receive_table(ws)
    assert render_calls == [(duel.pk, None)], "joins are served the cached frame"
    for ws in sockets:
        await ws.disconnect()


@pytest.mark.django_db
def test_it_renders_only_the_viewpoints_someone_can_look_from(make_table, alice, render_calls):
    table = make_table(alice, "belote", others=["hard", "hard", "hard"])
    frames.render_all(table.pk)
    assert render_calls == [(table.pk, 0)], "no frame for a bot's seat or an empty gallery"
    Table.objects.filter(pk=table.pk).update(spectator_count=2)
    render_calls.clear()
    frames.render_all(table.pk)
    assert render_calls == [(table.pk, 0), (table.pk, None)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_brings_a_spectator_up_to_date_when_the_count_catches_up(duel, alice, bob):
    spectator, _ = await connect(duel.pk, None)
    joined = version_of(await receive_table(spectator))
    live = await sync_to_async(live_of)(duel)
    from engine.actions import Action

    # A move published before the table counted this spectator: no spectator frame.
    action = Action(live.engine.to_act, "pass")
    await sync_to_async(play_as_holder)(duel.pk, action, live.table.version)
    assert version_of(await receive_table(spectator, timeout=10, at_least=joined + 1)) == joined + 1
    await spectator.disconnect()


def _play_deals(table: Table, deals: int) -> None:
    """Bots play ``deals`` whole deals (the table's match must be long enough:
    a first-to-501 Open Blot match can end within four deals)."""
    all_bots(table)
    while Deal.objects.filter(match__table=table, status=Deal.Status.FINISHED).count() < deals:
        assert run_due(later()), "the bots stopped playing"
    run_due(later())  # the next deal is dealt once the pause after the last is over


def _queries_for_frames(table: Table, *, history_kept: bool = False) -> int:
    """Queries to draw the table's frames from the database, the open deal's
    history read too unless this process has it already (``history_kept``)."""
    Table.objects.filter(pk=table.pk).update(spectator_count=1)  # at least one viewpoint
    if not history_kept:
        history.cache.clear()
    with CaptureQueriesContext(connection) as queries:
        frames.render_all(table.pk)
    return len(queries)


@pytest.mark.django_db
def test_it_reads_as_many_queries_per_frame_at_the_fifth_deal_as_at_the_first(
    make_table, alice
) -> None:
    table = make_table(alice, "open_blot", "first_to:2001", others=["easy"])
    all_bots(table)  # the same viewpoints at both measurements
    at_first = _queries_for_frames(table)
    _play_deals(table, 4)
    assert live_of(table) is not None, "the match is still on"
    assert _queries_for_frames(table) == at_first
    # Loaded once for all viewpoints: table, people's seats, match, the open
    # deal with its log, and its history: participants, finished deals, scores.
    assert at_first <= 7
    # The history is kept for the open deal: drawn again, only the table, its
    # seats, its match and the open deal are read.
    assert _queries_for_frames(table, history_kept=True) == at_first - 3


@pytest.mark.django_db
def test_it_never_loads_the_action_logs_of_finished_deals(make_table, alice) -> None:
    table = make_table(alice, "open_blot", "first_to:2001", others=["easy"])
    _play_deals(table, 2)
    Table.objects.filter(pk=table.pk).update(spectator_count=1)
    with CaptureQueriesContext(connection) as queries:
        frames.render_all(table.pk)
    logs_read = [q["sql"] for q in queries if '"games_deal"."actions"' in q["sql"]]
    # Only the shown deal's log, once (by its id, or as the match's one open
    # deal); never the logs of the match.
    assert len(logs_read) == 1
    for sql in logs_read:
        assert 'WHERE "games_deal"."id" =' in sql or (
            """"games_deal"."status" = 'playing'""" in sql and sql.endswith("LIMIT 1")
        )


@pytest.mark.django_db
def test_it_writes_a_heartbeat_for_all_connections_in_one_statement(make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"])

    def beat_queries(n: int) -> int:
        book = presence.LiveSet()
        for i in range(n):
            book.open(f"ch-{n}-{i}", table.pk, None, None)
        book.flush()
        with CaptureQueriesContext(connection) as queries:
            book.flush(heartbeat_every=0)
        return len(queries)

    assert beat_queries(3) == beat_queries(60) == 1


@pytest.mark.django_db
def test_it_records_opens_and_closes_in_batches(make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"])
    book = presence.LiveSet()
    for i in range(20):
        book.open(f"s{i}", table.pk, None, None)
    with CaptureQueriesContext(connection) as queries:
        counts = book.flush()
    assert counts == {table.pk: 20}
    # One insert, one count, one update of the table's spectator count.
    assert len(queries) <= 3
    for i in range(5):
        book.close(f"s{i}")
    assert book.flush() == {table.pk: 15}
    assert Presence.objects.filter(closed_at__isnull=False).count() == 5
    table.refresh_from_db()
    assert table.spectator_count == 15


@pytest.mark.django_db
def test_it_records_when_each_connection_closed_not_when_the_batch_was_written(
    make_table, alice, monkeypatch
) -> None:
    table = make_table(alice, "open_blot", others=["easy"])
    book = presence.LiveSet()
    book.open("first", table.pk, None, None)
    book.open("second", table.pk, None, None)
    book.flush()
    start = timezone.now()
    clock = iter([start, start + timedelta(seconds=0.4), start + timedelta(seconds=0.9)])
    monkeypatch.setattr(presence.timezone, "now", lambda: next(clock))
    book.close("first")
    book.close("second")
    book.flush()  # the batch: 0.9 s after the first closed
    monkeypatch.undo()
    closed = dict(Presence.objects.values_list("channel_name", "closed_at"))
    assert closed == {"first": start, "second": start + timedelta(seconds=0.4)}


@pytest.mark.django_db
def test_it_writes_nothing_for_a_connection_closed_before_the_batch(make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"])
    book = presence.LiveSet()
    book.open("brief", table.pk, None, None)
    book.close("brief")
    book.flush()
    assert not Presence.objects.exists()


@pytest.mark.django_db
def test_it_wakes_the_table_when_a_seated_player_leaves(make_table, alice, bob) -> None:
    from games.services.tables import join_seat

    table = make_table(alice, "open_blot")
    join_seat(table.pk, bob, 1)
    book = presence.LiveSet()
    book.open("alice", table.pk, alice.pk, 0)
    book.flush()
    Table.objects.filter(pk=table.pk).update(wakeup_at=later())
    book.close("alice")
    book.flush()
    table.refresh_from_db()
    assert table.wakeup_at <= timezone.now()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_forwards_only_newer_versions_to_a_viewer(duel, alice) -> None:
    ws, _ = await connect(duel.pk, alice)
    first = await receive_table(ws)
    version = version_of(first)
    layer = get_channel_layer()
    group = frames.viewpoint_group(duel.pk, 0, holder=alice.pk)
    await layer.group_send(group, frames.frame_message(group, version, "old"))
    await layer.group_send(group, frames.frame_message(group, version + 5, "new"))
    assert await ws.receive_from(timeout=5) == "new"
    await ws.disconnect()


@pytest.mark.django_db
def test_a_join_keeps_the_open_deals_history_for_the_deals_first_move_in_the_process(
    make_table, alice, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """A viewer's first frame reads the open deal's history (its participants,
    finished deals and scores) and keeps it: the deal's first move in the same
    process draws its frames without reading it again."""
    from games.live.deliver import notify

    table = make_table(alice, "open_blot", "first_to:2001", others=["easy"])
    _play_deals(table, 1)  # a finished deal and a score row in the history
    Seat.objects.filter(table=table, index=0).update(user=alice, bot_level=None)
    monkeypatch.setattr(notify, "_send_and_wake", lambda *args, **kwargs: None)
    monkeypatch.setattr(notify, "async_to_sync", lambda fn: fn)
    history.cache.clear()
    frames.cache.clear()
    frames.frame_for(table.pk, 0, holder=alice.pk)  # Alice's socket joins
    assert _history_reads(_next_move(table, django_capture_on_commit_callbacks)) == []


def _next_move(table: Table, capture_on_commit) -> list[str]:
    """The first legal move played (by the server at a bot's seat), what its
    commit sets off run with it; the SQL it all ran."""
    live = live_of(table)
    seat = live.engine.to_act
    action = observe(live.engine, seat).legal[0]
    with CaptureQueriesContext(connection) as queries, capture_on_commit(execute=True):
        play_as_holder(table.pk, action, live.table.version, by_server=seat != 0)
    return [q["sql"] for q in queries]


def _history_reads(sqls: list[str]) -> list[str]:
    return [sql for sql in sqls if "games_participant" in sql or "scorerow" in sql]


@pytest.mark.django_db
def test_it_draws_a_moves_frames_from_what_the_move_read_exactly_as_a_fresh_read(
    make_table, alice, bob, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """A move's frames come from the rows its transaction read and wrote (and the
    deal's history, read once per deal): the same bytes as reading everything
    again, with no query of their own after the deal's first move."""
    from games.live.deliver import notify

    table = make_table(alice, "open_blot", "first_to:2001", others=["easy"])
    _play_deals(table, 1)  # a finished deal and a score row in the history
    Seat.objects.filter(table=table, index=0).update(user=alice, bot_level=None)
    Table.objects.filter(pk=table.pk).update(spectator_count=1)
    drawn: list = []
    monkeypatch.setattr(
        notify,
        "_send_and_wake",
        lambda table_id, version, html, wake=True, moved_at=None: drawn.append(html),
    )
    monkeypatch.setattr(notify, "async_to_sync", lambda fn: fn)
    for move in range(6):
        queries = _next_move(table, django_capture_on_commit_callbacks)
        from_move = drawn[-1]
        frames.cache.clear()
        _version, fresh = frames.render_all(table.pk)
        assert from_move == fresh
        if move > 0:  # the history is read with the deal's first frames, then kept
            assert not _history_reads([q for q in queries if q.startswith("SELECT")])


@pytest.mark.django_db
def test_it_draws_the_frames_of_a_move_ending_a_deal_or_the_match_exactly_as_a_fresh_read(
    make_table, alice, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """The move that ends a deal draws the result from the score row, deal and
    match its closing just wrote (no query after the commit), byte for byte what
    reading them again gives; the move that ends the match too."""
    from games.live.deliver import notify
    from games.services.matches import deal_next

    table = make_table(alice, "open_blot", "first_to:501", others=["easy"])
    Table.objects.filter(pk=table.pk).update(spectator_count=1)
    drawn: list = []
    monkeypatch.setattr(
        notify,
        "_send_and_wake",
        lambda table_id, version, html, wake=True, moved_at=None: drawn.append(html),
    )
    monkeypatch.setattr(notify, "async_to_sync", lambda fn: fn)
    endings = 0
    for _ in range(2000):
        live = live_of(table)
        if live is None:
            table.refresh_from_db()
            if table.status == Table.Status.FINISHED:
                break
            deal_next(table.matches.get().pk)
            continue
        seat = live.engine.to_act
        action = observe(live.engine, seat).legal[0]
        finished_before = Deal.objects.filter(match__table=table, status="finished").count()
        with django_capture_on_commit_callbacks() as after_commit:
            play_as_holder(table.pk, action, live.table.version, by_server=seat != 0)
        with CaptureQueriesContext(connection) as queries:
            for callback in after_commit:
                callback()
        if Deal.objects.filter(match__table=table, status="finished").count() == finished_before:
            continue
        endings += 1
        read = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
        if Table.objects.get(pk=table.pk).status == Table.Status.FINISHED:
            # At the match's end the players are offered a rematch: whether one
            # is on is read then (it can change without a move).
            read = [sql for sql in read if not sql.startswith('SELECT "games_rematch"')]
        assert not read
        from_move = drawn[-1]
        frames.cache.clear()
        _version, fresh = frames.render_all(table.pk)
        assert from_move == fresh
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, "the match was played to its end"
    assert endings >= 2


@pytest.mark.django_db
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("watching", [1, 15])
async def test_a_join_costs_the_same_however_many_spectators_watch(
    watching, duel, monkeypatch
) -> None:
    """One join with 50, 150, 300 spectators watching once cost
    +168, +474, +693 transactions, as every spectator read the table again when
    the count changed. Counted here: the table's frame read for spectators."""
    from games.live.receive import consumers

    sockets = []
    for _ in range(watching):
        ws, _ = await connect(duel.pk, None)
        await receive_table(ws)
        sockets.append(ws)
    await consumers.send_watcher_counts(await database_sync_to_async(presence.live_set.flush)())
    for ws in sockets:
        await ws.receive_nothing(0.2)  # what the earlier joins sent has arrived
        while not await ws.receive_nothing(0.05):
            await ws.receive_output(1)
    reads: list[tuple[int, int | None]] = []
    real = frames.frame_for

    def counted(table_id, seat, lang=None, holder=None):
        reads.append((table_id, seat))
        return real(table_id, seat, lang, holder)

    monkeypatch.setattr(frames, "frame_for", counted)
    newcomer, _ = await connect(duel.pk, None)
    await receive_table(newcomer)
    await consumers.send_watcher_counts(await database_sync_to_async(presence.live_set.flush)())
    for ws in sockets:  # everyone hears the new count
        assert "watchers" in (await ws.receive_output(5))["text"]
    await asyncio.sleep(0.3)
    # The newcomer is sent the frame the spectators here already have, and the
    # count brings one spectators' frame for all: 1 read, never 1 + N.
    assert reads == [(duel.pk, None)]
    for ws in [*sockets, newcomer]:
        await ws.disconnect()
