"""Bot decisions are shared fairly across the people the tables belong to
(first come, first served, one person's 64 tables of Hard bots queued ahead of
everyone's bots, and another player's Normal bot waited six seconds)."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.live.conduct import fairness
from games.live.conduct.fairness import FairGate
from games.models import Deal, Table
from tests.live.conftest import all_bots

pytestmark = pytest.mark.asyncio


async def _queue(gate: FairGate, served: list[str], name: str, owner, rank=fairness.BOTS_ONLY):
    async with gate.slot(owner, rank):
        served.append(name)
        await asyncio.sleep(0)


async def _started(*tasks: asyncio.Task) -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_another_owner_is_served_before_a_backlog_already_waiting() -> None:
    gate = FairGate(1)
    served: list[str] = []
    await gate.acquire("hog")  # a decision being made
    backlog = [asyncio.create_task(_queue(gate, served, f"hog{n}", "hog")) for n in range(30)]
    await _started()
    other = asyncio.create_task(_queue(gate, served, "other", "someone else"))
    await _started()
    gate.release()  # the decision in progress ends
    await asyncio.gather(*backlog, other)
    assert served[0] == "other"
    assert served[1:] == [f"hog{n}" for n in range(30)]  # the hog's own in order


async def test_owners_take_turns_whoever_queued_more() -> None:
    gate = FairGate(1)
    served: list[str] = []
    await gate.acquire("a")
    tasks = [asyncio.create_task(_queue(gate, served, f"a{n}", "a")) for n in range(4)]
    tasks += [asyncio.create_task(_queue(gate, served, f"b{n}", "b")) for n in range(2)]
    await _started()
    gate.release()
    await asyncio.gather(*tasks)
    assert served == ["b0", "a0", "b1", "a1", "a2", "a3"]


async def test_a_person_seated_goes_first_and_a_featured_tournaments_bots_last() -> None:
    gate = FairGate(1)
    served: list[str] = []
    await gate.acquire("x")
    tasks = [
        asyncio.create_task(_queue(gate, served, "featured", "staff", fairness.FEATURED_BOTS)),
        asyncio.create_task(_queue(gate, served, "bots", "b", fairness.BOTS_ONLY)),
        asyncio.create_task(_queue(gate, served, "person", "c", fairness.PERSON_SEATED)),
    ]
    await _started()
    gate.release()
    await asyncio.gather(*tasks)
    assert served == ["person", "bots", "featured"]


async def test_a_cancelled_waiter_gives_its_turn_on() -> None:
    gate = FairGate(1)
    served: list[str] = []
    await gate.acquire("a")
    gone = asyncio.create_task(_queue(gate, served, "gone", "b"))
    kept = asyncio.create_task(_queue(gate, served, "kept", "c"))
    await _started()
    gone.cancel()
    await _started()
    gate.release()
    await kept
    assert served == ["kept"]
    assert gate.waiting == 0


@pytest.mark.django_db(transaction=True)
async def test_the_conductor_decides_another_owners_bot_after_at_most_one_decision(
    make_table, alice, bob, monkeypatch
) -> None:
    """Alice's eight bots-only tables keep one decision process busy; Bob's table
    becomes due while they wait: the next decision made is Bob's."""
    from games.live.conduct import conductor as conducting

    def bot_table(owner, due: bool) -> Table:
        table = all_bots(make_table(owner, "open_blot", others=["easy"]))
        wakeup = timezone.now() - timedelta(seconds=1) if due else timezone.now() + timedelta(1)
        Table.objects.filter(pk=table.pk).update(bot_delay_ms=0, wakeup_at=wakeup)
        return table

    hogs = [await sync_to_async(bot_table)(alice, True) for _ in range(8)]
    other = await sync_to_async(bot_table)(bob, False)
    owner_of_deal = {
        str(pk): owner
        for pk, owner in await sync_to_async(
            lambda: list(Deal.objects.values_list("pk", "match__table__created_by__username"))
        )()
    }
    events: list[tuple[str, object]] = []

    class Recording(FairGate):
        async def acquire(self, owner, rank=fairness.BOTS_ONLY) -> None:
            if self._free == 0 or self._waiting:
                events.append(("queued", owner))
            await super().acquire(owner, rank)
            events.append(("served", owner))

    real_decide = conducting.decide_for

    def slow_decide(level, obs, seed, budget):
        events.append(("decided", owner_of_deal[seed.split(":")[0]]))
        time.sleep(0.05)
        return real_decide(level, obs, seed, budget)

    monkeypatch.setattr(conducting, "decide_for", slow_decide)
    conductor = conducting.Conductor(poll_s=60, deciding=1)
    conductor._gate = Recording(1)
    conductor.inline_levels = frozenset()  # the Easy bots decide in the pool, like Hard ones
    tasks: set = set()
    try:
        await conductor._pass(tasks)
        assert {t.pk for t in hogs} <= conductor.in_flight
        for _ in range(200):  # the hog's backlog forms
            if conductor._gate.waiting >= 5:
                break
            await asyncio.sleep(0.02)
        assert conductor._gate.waiting >= 5
        await sync_to_async(Table.objects.filter(pk=other.pk).update)(
            wakeup_at=timezone.now() - timedelta(seconds=1)
        )
        conductor.hint(other.pk)
        await conductor._pass(tasks)
        for _ in range(300):
            if ("decided", "bob") in events:
                break
            await asyncio.sleep(0.02)
        queued = events.index(("queued", bob.pk))
        # A slot is handed over once the decision being made ends: the next one
        # handed out after Bob's was queued is Bob's, and it was decided.
        served_after = [who for kind, who in events[queued:] if kind == "served"]
        assert served_after[0] == bob.pk, events[queued - 3 :]
        assert ("decided", "bob") in events[queued:]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(conductor.db.shutdown, True)


@pytest.mark.django_db(transaction=True)
async def test_a_normal_bot_never_waits_for_a_hard_bots_decision(
    make_table, alice, bob, monkeypatch
) -> None:
    """Normal and Easy bots decide in a fraction of a millisecond: they are
    decided in the conductor itself, not queued for a process."""
    from games.live.conduct import conductor as conducting

    def bot_table(owner, level: str) -> Table:
        table = all_bots(make_table(owner, "open_blot", others=[level]), level)
        Table.objects.filter(pk=table.pk).update(
            bot_delay_ms=0, wakeup_at=timezone.now() - timedelta(seconds=1)
        )
        return table

    hard = await sync_to_async(bot_table)(alice, "hard")
    normal = await sync_to_async(bot_table)(bob, "normal")
    release = asyncio.Event()
    real_decide = conducting.Conductor._decide

    async def stuck(self, job):  # the one process is busy with a Hard decision
        await release.wait()
        return await real_decide(self, job)

    monkeypatch.setattr(conducting.Conductor, "_decide", stuck)
    conductor = conducting.Conductor(poll_s=60, deciding=1)
    tasks: set = set()
    try:
        await conductor._pass(tasks)
        assert {hard.pk, normal.pk} <= conductor.in_flight
        start = await sync_to_async(lambda: Table.objects.get(pk=normal.pk).version)()
        # The Hard decision never ends while this waits, so any move of the Normal
        # bot shows it did not wait; the long limit is for a loaded machine.
        for _ in range(1500):
            now = await sync_to_async(lambda: Table.objects.get(pk=normal.pk).version)()
            if now > start:
                break
            await asyncio.sleep(0.02)
        assert now > start, "the Normal bot waited for the Hard bot's decision"
    finally:
        release.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(conductor.db.shutdown, True)
