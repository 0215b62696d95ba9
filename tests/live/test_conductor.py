"""Bots, clocks and absent players: the server acting when a table is due."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError
from django.utils import timezone

from games.live.conduct.conductor import act_if_due, conduct_forever, due_tables, run_due
from games.live.conduct.decisions import decide_for
from games.live.plan.turns import plan
from games.live.store import presence
from games.live.submit.play import submit
from games.models import Deal, Match, Presence, Seat, Table
from games.services.seating import return_to_seat
from tests.live.conftest import all_bots, later, live_of, play_as_holder


def drive(until, now=None, limit: int = 2000) -> int:
    """Run the conductor (with the clock far ahead) until ``until()`` holds."""
    moves = 0
    for _ in range(limit):
        if until():
            return moves
        made = run_due(now or later())
        moves += made
        if not made and not until():
            raise AssertionError("nothing was due, but the condition does not hold")
    raise AssertionError("gave up")


def test_it_plays_a_bot_table_through_a_whole_match(make_table, alice) -> None:
    table = all_bots(make_table(alice, "open_blot", fmt="best_of:1", others=["easy"]))
    match = table.current_match()
    drive(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED)
    match.refresh_from_db()
    assert match.winner in (0, 1)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    for deal in match.deals.all():
        assert deal.rebuild().result().to_dict() == deal.result


def test_it_waits_for_the_bot_delay_before_a_bot_moves(make_table, alice) -> None:
    table = all_bots(make_table(alice, "open_blot", others=["easy"]))
    table.turn_started_at = timezone.now()
    table.bot_delay_ms = 60_000
    table.save()
    assert not act_if_due(table.pk)
    table.refresh_from_db()
    assert table.wakeup_at > timezone.now() + timedelta(seconds=50)
    assert act_if_due(table.pk, now=later(61))


def connect(table: Table, seat: int, name: str = "ch") -> None:
    user = table.seats.get(index=seat).user
    presence.opened(table.pk, f"{name}-{seat}", user.pk, seat)


def human_to_act(make_table, alice, bob) -> tuple[Table, int]:
    table = make_table(alice, "open_blot")
    from games.services.tables import join_seat

    join_seat(table.pk, bob, 1)
    table.refresh_from_db()
    table.turn_started_at = timezone.now()
    table.save()
    return table, live_of(table).engine.to_act


def test_it_leaves_a_connected_player_alone_until_the_clock_runs_out(make_table, alice, bob):
    table, seat = human_to_act(make_table, alice, bob)
    connect(table, seat)
    assert plan(live_of(table), timezone.now()).level is None
    assert not act_if_due(table.pk, now=timezone.now() + timedelta(seconds=5))
    assert live_of(table).engine.history == []


def test_it_plays_for_a_player_whose_clock_ran_out(make_table, alice, bob) -> None:
    table, seat = human_to_act(make_table, alice, bob)
    connect(table, seat)
    assert act_if_due(table.pk, now=later(table.turn_seconds + 1))
    assert live_of(table).engine.history[0].seat == seat


def test_a_player_back_from_a_timeout_on_their_turn_gets_a_whole_turn(make_table, alice, bob):
    table, seat = human_to_act(make_table, alice, bob)
    connect(table, seat)
    late = timezone.now() - timedelta(seconds=table.turn_seconds + 1)
    Table.objects.filter(pk=table.pk).update(turn_started_at=late)
    Deal.objects.filter(match__table=table).update(started_at=late)
    assert plan(live_of(table), timezone.now()).stand_in  # timed out
    Seat.objects.filter(table=table, index=seat).update(stand_in_since=late)
    person = table.seats.get(index=seat).user
    assert return_to_seat(table.pk, person)
    now = timezone.now()
    step = plan(live_of(table), now)
    assert step.level is None  # theirs to play, not the stand-in's again
    assert step.at >= now + timedelta(seconds=table.turn_seconds - 1)
    assert live_of(table).engine.history == []


def test_it_plays_for_a_player_away_longer_than_the_grace_period(make_table, alice, bob):
    table, seat = human_to_act(make_table, alice, bob)
    connect(table, seat)
    presence.closed(table.pk, f"ch-{seat}")
    gone = timezone.now() - timedelta(seconds=table.disconnect_grace_seconds + 1)
    Presence.objects.filter(table=table).update(last_seen=gone, closed_at=gone)
    step = plan(live_of(table), timezone.now())
    assert step.level == "normal"
    assert act_if_due(table.pk, now=later(1))


def test_it_hands_the_turn_back_when_the_player_returns(make_table, alice, bob) -> None:
    table, seat = human_to_act(make_table, alice, bob)
    Presence.objects.create(
        table=table,
        channel_name="old",
        user=table.seats.get(index=seat).user,
        seat_index=seat,
        connected_at=timezone.now(),
        last_seen=timezone.now(),
        closed_at=timezone.now() - timedelta(hours=1),
    )
    assert plan(live_of(table), timezone.now()).level == "normal"
    connect(table, seat, name="new")
    assert plan(live_of(table), timezone.now()).level is None


def test_it_resumes_pending_bot_turns_after_a_restart(make_table, alice) -> None:
    """Nothing lives in memory: a table whose wake-up was lost is found again."""
    table = all_bots(make_table(alice, "open_blot", others=["easy"]))
    Table.objects.filter(pk=table.pk).update(wakeup_at=None, turn_started_at=None)
    assert run_due(later()) == 1


def test_it_counts_spectators(make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"])
    presence.opened(table.pk, "s1", None, None)
    presence.opened(table.pk, "s2", None, None)
    presence.closed(table.pk, "s1")
    table.refresh_from_db()
    assert table.spectator_count == 1


def test_it_ignores_a_decision_made_on_a_stale_version(make_table, alice) -> None:
    table = all_bots(make_table(alice, "open_blot", others=["easy"]))
    live = live_of(table)
    submit(table.pk, live.engine.legal_actions()[0], table.version, by_server=True)
    deal = Deal.objects.get(pk=live.deal.pk)
    assert len(deal.actions) == 1


def test_it_plans_afresh_after_every_move(make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"])
    live = live_of(table)
    while live.engine.to_act != 0:  # let the bot play until it is the person's turn
        assert act_if_due(table.pk, now=later())
        live = live_of(table)
    act_if_due(table.pk)  # the person's turn: wake up at their deadline
    table.refresh_from_db()
    assert table.wakeup_at is not None
    play_as_holder(table.pk, live.engine.legal_actions()[0], table.version)
    table.refresh_from_db()
    if live_of(table).engine.to_act == 1:  # the bot's turn: due at once
        assert due_tables(timezone.now()) == [table.pk]
    else:  # the person acts again: the mover planned it, asleep until their clock
        assert table.wakeup_at > table.turn_started_at
        assert due_tables(timezone.now()) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_plays_bot_turns_from_its_background_task(make_table, alice) -> None:
    table = await sync_to_async(make_table)(alice, "open_blot", others=["easy"])
    await sync_to_async(all_bots)(table)
    await Table.objects.filter(pk=table.pk).aupdate(bot_delay_ms=0)
    task = asyncio.create_task(conduct_forever(poll_s=0.02))
    try:
        moves = 0
        for _ in range(200):
            await asyncio.sleep(0.05)
            try:
                deal = await Deal.objects.filter(match__table_id=table.pk).afirst()
            except OperationalError:
                continue  # the test's in-memory SQLite locks tables instead of waiting
            moves = len(deal.actions)
            if moves >= 5:
                break
        assert moves >= 5
    finally:
        task.cancel()


def test_it_forgets_connections_closed_long_ago(make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"])
    presence.opened(table.pk, "old", None, None)
    presence.opened(table.pk, "new", None, None)
    presence.closed(table.pk, "old")
    Presence.objects.filter(channel_name="old").update(
        closed_at=timezone.now() - timedelta(days=2)
    )
    assert presence.forget_old() == 1
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["new"]


def test_the_worker_command_refuses_the_in_memory_layer(settings) -> None:
    from django.core.management import CommandError, call_command

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with pytest.raises(CommandError, match="REDIS_URL"):
        call_command("blotworker")


def finish_first_deal(table: Table) -> Deal:
    """Play the open deal to its end through the move service (any legal moves)."""
    match = table.current_match()
    while (live := live_of(table)) is not None:
        play_as_holder(table.pk, live.engine.legal_actions()[-1], live.table.version)
    return match.deals.get(number=1)


def test_it_deals_the_next_deal_only_after_the_pause(make_table, alice, bob, settings) -> None:
    # At a table of people the result stays for the table's shared pause.
    settings.BLOT_NEXT_DEAL_PAUSE_MS = 2500
    table, _seat = human_to_act(make_table, alice, bob)
    Table.objects.filter(pk=table.pk).update(result_pause_seconds=7)
    first = finish_first_deal(table)
    table.refresh_from_db()
    version = table.version
    assert not act_if_due(table.pk, now=first.finished_at + timedelta(milliseconds=6900))
    table.refresh_from_db()
    assert table.wakeup_at == first.finished_at + timedelta(seconds=7)
    assert not table.current_match().deals.filter(number=2).exists()
    assert act_if_due(table.pk, now=first.finished_at + timedelta(seconds=7))
    table.refresh_from_db()
    second = table.current_match().deals.get(number=2)
    assert second.status == Deal.Status.PLAYING
    assert table.version == version + 1
    # Dealt once: a second pass finds the deal open and leaves it to the player.
    assert not act_if_due(table.pk, now=later(3))
    assert table.current_match().deals.count() == 2


def test_it_makes_a_bot_wait_for_the_completed_trick_before_leading(make_table, alice) -> None:
    table = all_bots(make_table(alice, "open_blot", others=["easy"]))
    table.bot_delay_ms = 100
    table.trick_pause_ms = 1500
    table.save()
    while not (live := live_of(table)).engine.tricks:
        submit(table.pk, live.engine.legal_actions()[0], live.table.version, by_server=True)
    start = live.table.turn_started_at
    assert plan(live, start).at == start + timedelta(milliseconds=1600)
    submit(table.pk, live.engine.legal_actions()[0], live.table.version, by_server=True)
    live = live_of(table)  # mid-trick: the bot delay alone
    assert plan(live, start).at == live.table.turn_started_at + timedelta(milliseconds=100)


def _bot_to_act(make_table, alice) -> Table:
    table = all_bots(make_table(alice, "open_blot", others=["easy"]))
    Table.objects.filter(pk=table.pk).update(
        bot_delay_ms=800, turn_started_at=timezone.now(), wakeup_at=None
    )
    return Table.objects.get(pk=table.pk)


def test_it_starts_deciding_a_bots_move_within_the_pause_but_not_earlier(
    make_table, alice
) -> None:
    from games.live.conduct.conductor import Job, prepare

    table = _bot_to_act(make_table, alice)
    due = table.turn_started_at + timedelta(milliseconds=800)
    # Further ahead than it looks: wake up when the thinking should start.
    assert prepare(table.pk, table.turn_started_at, timedelta(milliseconds=300)) == (
        due - timedelta(milliseconds=300)
    )
    job = prepare(table.pk, table.turn_started_at, timedelta(seconds=1))
    assert isinstance(job, Job) and job.due == due and job.version == table.version
    assert Table.objects.get(pk=table.pk).version == table.version  # nothing played yet


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_submits_a_move_decided_during_the_pause_only_when_the_pause_is_over(
    make_table, alice, monkeypatch
) -> None:
    from games.live.conduct import conductor as conducting

    table = await sync_to_async(_bot_to_act)(make_table, alice)
    decided: list = []
    submitted: list = []
    real_finish, real_decide = conducting.finish, conducting.decide_for

    def decide_for(*args):
        decided.append(timezone.now())
        return real_decide(*args)

    def finish(job, action):
        submitted.append((job.due, timezone.now()))
        return real_finish(job, action)

    monkeypatch.setattr(conducting, "finish", finish)
    monkeypatch.setattr(conducting, "decide_for", decide_for)
    runner = conducting.Conductor(pool=None)
    try:
        await asyncio.wait_for(runner._serve(table.pk), 10)
    finally:
        # Its database threads finish what they started before the test's tables go.
        await asyncio.to_thread(runner.db.shutdown, True)
    assert submitted, "the bot did not move"
    due, at = submitted[0]
    assert decided[0] < due, "the bot only started thinking once its pause was over"
    assert at >= due, "a bot moved before its pause was over"


def test_it_decides_for_an_away_person_only_when_their_stand_in_is_due(make_table, alice, bob):
    # Coming back changes no version, so a move decided early could still be
    # submitted for a person who is back: no thinking ahead for them.
    from games.live.conduct.conductor import prepare

    table, seat = human_to_act(make_table, alice, bob)
    connect(table, seat)
    now = timezone.now()
    # Their grace runs out during the bot pause of their turn.
    gone = now + timedelta(milliseconds=300) - timedelta(seconds=table.disconnect_grace_seconds)
    Presence.objects.filter(table=table).update(last_seen=gone, closed_at=gone)
    bot_time = table.turn_started_at + timedelta(milliseconds=table.bot_delay_ms)
    assert plan(live_of(table), now).level == "normal"
    assert prepare(table.pk, now, timedelta(seconds=5)) == bot_time


@pytest.mark.django_db
def test_it_lets_one_process_decide_a_move_while_another_looks_again_later(
    make_table, alice, monkeypatch
) -> None:
    """Two workers finding the same due table: the first decides it, the second
    leaves it for the claim's length instead of thinking about it too."""
    from games.live.conduct import conductor as conducting

    table = _bot_to_act(make_table, alice)
    now = table.turn_started_at + timedelta(seconds=5)
    first = conducting.prepare(table.pk, now)
    assert isinstance(first, conducting.Job)
    assert isinstance(conducting.prepare(table.pk, now), conducting.Job), "its own claim"
    this_worker = conducting._CLAIMANT
    monkeypatch.setattr(conducting, "_CLAIMANT", "another-worker")
    assert conducting.prepare(table.pk, now) == conducting.Claimed(now + conducting.CLAIM_TTL)
    monkeypatch.setattr(conducting, "_CLAIMANT", this_worker)
    assert conducting.finish(first, decide_for(first.level, first.obs, first.seed, 0.05))
    # Once the first has moved, the next move is anybody's.
    monkeypatch.setattr(conducting, "_CLAIMANT", "another-worker")
    table.refresh_from_db()
    assert conducting.claim(table, table.version)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_serves_a_table_due_before_the_timer_it_had_set_for_it(make_table, alice):
    """A timer only makes a wake-up punctual: when a move brings a table's wake-up
    forward (a stand-in due sooner than the last turn's clock), the next pass
    finds it in the database without waiting for the old timer."""
    from games.live.conduct.conductor import Conductor

    table = await sync_to_async(_bot_to_act)(make_table, alice)
    conductor = Conductor(poll_s=0.05)
    conductor._wake_at(table.pk, timezone.now() + timedelta(seconds=60))
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(
        wakeup_at=timezone.now() - timedelta(seconds=1)
    )
    tasks: set = set()
    try:
        await conductor._pass(tasks)
        assert table.pk in conductor.in_flight, "the pass took the table"
        await asyncio.wait(tasks, timeout=10)
    finally:
        for task in tasks:
            task.cancel()
        conductor.db.shutdown(wait=True)


@pytest.mark.django_db
def test_it_claims_a_prepared_move_only_when_it_starts_deciding_it(
    make_table, alice, monkeypatch
) -> None:
    """A worker whose decision processes are busy leaves a prepared move
    unclaimed, so a worker with a free process can take it; the claim is taken
    when the deciding starts, and a move the table has left behind is nobody's."""
    from games.live.conduct import conductor as conducting

    table = _bot_to_act(make_table, alice)
    now = table.turn_started_at + timedelta(seconds=5)
    job = conducting.prepare(table.pk, now, claim_move=False)
    assert isinstance(job, conducting.Job)
    this_worker = conducting._CLAIMANT
    monkeypatch.setattr(conducting, "_CLAIMANT", "another-worker")
    assert conducting.claim_job(job, now) is True, "nobody held it while it waited"
    monkeypatch.setattr(conducting, "_CLAIMANT", this_worker)
    assert conducting.claim_job(job, now) == conducting.Claimed(now + conducting.CLAIM_TTL)
    assert conducting.finish(job, decide_for(job.level, job.obs, job.seed, 0.05))
    assert conducting.claim_job(job, now) is False, "the table has moved on"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_claims_no_more_moves_than_it_has_decision_processes_free(
    make_table, alice, monkeypatch
) -> None:
    from games.live.conduct import conductor as conducting

    tables = [await sync_to_async(_bot_to_act)(make_table, alice) for _ in range(2)]
    await sync_to_async(Table.objects.filter(pk__in=[t.pk for t in tables]).update)(
        bot_delay_ms=0, wakeup_at=timezone.now() - timedelta(seconds=1)
    )
    claimed: list[int] = []
    real_claim = conducting.claim

    def counted_claim(table, version):
        claimed.append(table.pk)
        return real_claim(table, version)

    monkeypatch.setattr(conducting, "claim", counted_claim)
    deciding = threading.Event()
    go_on = threading.Event()

    def slow_decide(*args):
        deciding.set()
        assert go_on.wait(10)
        return decide_for(*args)

    monkeypatch.setattr(conducting, "decide_for", slow_decide)
    conductor = conducting.Conductor(poll_s=0.05, deciding=1)
    conductor.inline_levels = frozenset()  # the Easy bots decide in the pool, like Hard ones
    tasks: set = set()
    try:
        await conductor._pass(tasks)
        assert {t.pk for t in tables} <= conductor.in_flight
        assert await asyncio.to_thread(deciding.wait, 10)
        await asyncio.sleep(0.2)  # the other table has had every chance to be claimed
        assert len(claimed) == 1, "one process: one move claimed at a time"
        go_on.set()
        await asyncio.wait(tasks, timeout=10)
        assert sorted(claimed) == sorted(t.pk for t in tables)
    finally:
        go_on.set()
        for task in tasks:
            task.cancel()
        conductor.db.shutdown(wait=True)


@pytest.mark.asyncio
async def test_it_stops_when_cancelled_even_as_a_wake_up_arrives(monkeypatch) -> None:
    """A cancel that lands as the conductor is woken stops it: Python 3.11's
    wait_for returned the wake-up instead and the conductor polled on forever."""
    from games.live.conduct.conductor import Conductor

    passes = 0

    async def no_pass(self, tasks) -> None:
        nonlocal passes
        passes += 1

    async def no_listen(self) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(Conductor, "_pass", no_pass)
    monkeypatch.setattr(Conductor, "_listen", no_listen)
    conductor = Conductor(poll_s=60)
    task = asyncio.create_task(conductor.run())
    while not passes:
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)  # now waiting for a wake-up
    conductor._wake.set()
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=2)
    assert task in done, "the conductor went on after being cancelled"
    assert task.cancelled()
