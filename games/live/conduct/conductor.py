"""Making tables act when they are due: bot turns, timed-out turns, absent players.

Nothing here keeps state in memory: a table's ``wakeup_at`` says when it may next
need the server to act, and every wake-up re-reads the stored state and checks
again before acting, so a restart (or several processes doing this at once)
loses and duplicates nothing — a move made twice fails the version check.

Decisions are made outside the table lock (a Hard bot thinks for up to half a
second) and submitted through the same :func:`games.live.submit.play.submit` as a
person's click, with the version they were made on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Collection
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError, InterfaceError, close_old_connections, connection
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from engine.actions import Action
from engine.observe import Observation, observe
from games.live.conduct import fairness
from games.live.conduct.decisions import decide_for
from games.live.deliver import notify
from games.live.plan.turns import plan
from games.live.store import presence
from games.live.submit.play import Refused, current, submit
from games.models import Deal, Match, Seat, Table, Tournament
from games.runtime import metrics, shutdown
from games.runtime.lograte import RateLimitedLog
from games.runtime.sharedcache import shared
from games.services.matches import deal_next, result_pause
from games.services.seating import end_unwatched

log = logging.getLogger(__name__)
T = TypeVar("T")

def pause_after_deal() -> timedelta:
    return timedelta(milliseconds=settings.BLOT_NEXT_DEAL_PAUSE_MS)


def next_deal_due(table: Table) -> datetime | None:
    """When a playing match between deals gets its next deal (the finished deal's
    result stays on the table until then); ``None`` when no deal is awaited.

    The result stays long enough to be read (docs/DECISIONS.md): at a table of
    people, the table's shared ``result_pause_seconds``; a person alone with
    bots has it until they press "Next deal" (``deal_next_for``), or until
    their turn clock runs out as if it were their move. A zero
    ``BLOT_NEXT_DEAL_PAUSE_MS`` (tests, benchmarks) deals at once."""
    match = table.matches.order_by("-id").first()
    if match is None or match.status != Match.Status.PLAYING:
        return None
    if match.deals.filter(status=Deal.Status.PLAYING).exists():
        return None
    last = match.deals.filter(status=Deal.Status.FINISHED).order_by("-number").first()
    finished = last.finished_at if last is not None and last.finished_at else match.started_at
    return finished + result_pause(table, pause_after_deal())


def deal_if_due(table: Table, now: datetime) -> datetime | None:
    """Deal the next deal once the pause after the last one is over. Returns when
    to look at the table again: ``now`` right after dealing (the first bid may be a
    bot's), the end of the pause, or ``None`` when no deal is awaited."""
    due = next_deal_due(table)
    if due is None:
        Table.objects.filter(pk=table.pk, version=table.version).update(wakeup_at=None)
        return None
    if due > now:
        Table.objects.filter(pk=table.pk, version=table.version).update(wakeup_at=due)
        return due
    match = table.matches.order_by("-id").first()
    # deal_next gives None when another process dealt it first.
    if match is not None and deal_next(match.pk) is not None:
        table.refresh_from_db(fields=["version"])
        notify.table_changed(table.pk, table.version, [])
    return now


@dataclass(frozen=True)
class Job:
    """A due decision: made outside any lock (in a pool process when there is
    one), then submitted on the version it was made on."""

    table_id: int
    version: int
    level: str
    obs: Observation
    seed: str
    due: datetime  # not submitted before this (the bot's pause)
    owner: int | None = None  # whose table: decisions are shared fairly by owner
    rank: int = fairness.BOTS_ONLY  # served in order of rank (fairness.py)
    stand_in: bool = False  # playing for a person whose clock ran out or who is away


def thinking_ahead() -> timedelta:
    """How long before a bot's move is due it starts deciding it: a Hard bot's
    decision then runs during the table's bot pause (or the trick pause), not
    after it. Its move is still submitted when due, on the version it was made on."""
    return timedelta(seconds=max(1.0, 3 * bot_budget_s()))


def prepare(
    table_id: int,
    now: datetime | None = None,
    ahead: timedelta = timedelta(0),
    claim_move: bool = True,
) -> Job | Claimed | datetime | None:
    """The table's decision due within ``ahead``; or, after setting it, the
    table's next wake-up (``None``: nothing to wait for). ``claim_move=False``:
    the caller claims the decision itself (:func:`claim_job`) when it can start it."""
    now = now or timezone.now()
    table = Table.objects.get(pk=table_id)
    live = current(table)
    if live is None:
        return deal_if_due(table, now)
    step = plan(live, now)
    if not step.think_ahead:
        ahead = timedelta(0)
    if step.level is None or step.at > now + ahead:
        wakeup = step.at if step.level is None else step.at - ahead
        Table.objects.filter(pk=table_id, version=table.version).update(wakeup_at=wakeup)
        return wakeup
    if claim_move and not claim(table, table.version):
        # Another process is deciding this move: look again once its claim lapses
        # (by then it has moved, or it is gone and this process decides).
        return Claimed(now + CLAIM_TTL)
    if step.away and step.at <= now and nobody_watches(table, step.seat, now):
        # Every person at the table is gone: the match ends rather than being
        # played out by stand-ins (and frees its creator's bot-table limit).
        end_unwatched(table_id, away=_people_indexes(table))
        return None
    obs = observe(live.engine, step.seat)
    seed = f"{live.deal.pk}:{len(live.engine.history)}"
    return Job(
        table_id,
        table.version,
        step.level,
        obs,
        seed,
        step.at,
        owner=table.created_by_id,
        rank=rank_of(table, live.match),
        stand_in=step.stand_in,
    )


def rank_of(table: Table, match: Match) -> int:
    """How soon the table's bot is served among those waiting (fairness.py): a
    person seated first, a featured tournament's bots-only tables last."""
    if Seat.objects.filter(table=table, user__isnull=False).exists():
        return fairness.PERSON_SEATED
    featured = match.tournament_id is not None and (
        Tournament.objects.filter(pk=match.tournament_id, featured=True).exists()
    )
    return fairness.FEATURED_BOTS if featured else fairness.BOTS_ONLY


def _people_indexes(table: Table) -> list[int]:
    return list(table.seats.filter(user__isnull=False).values_list("index", flat=True))


def nobody_watches(table: Table, away_seat: int, now: datetime) -> bool:
    """Every person seated at the table has left, or closed every connection to
    it longer ago than their grace (``away_seat`` is one of them). Asked only
    when a stand-in is about to play for someone away, so a normal move never
    pays for it. Ending a match cannot be undone, so a stale heartbeat is not
    enough (after a database outage every heartbeat is stale): only a
    connection that said it closed counts."""
    grace = timedelta(seconds=table.disconnect_grace_seconds)
    for seat in table.seats.filter(user__isnull=False):
        if seat.left_at is not None:
            continue
        gone = presence.closed_since(table, seat.index)
        if gone is None or gone + grace > now:
            return False
    return True


@dataclass(frozen=True)
class Claimed:
    """Another process is deciding the table's move; look again at ``until``."""

    until: datetime


#: How long a process's claim on deciding a table's move holds: longer than a
#: decision made ahead and its pause, short enough that a process that died
#: while deciding holds the table up only this long.
CLAIM_TTL = timedelta(seconds=5)
#: This process, as the owner of its claims.
_CLAIMANT = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def claim(table: Table, version: int) -> bool:
    """Whether this process may decide the table's move at ``version``: the first
    process to ask gets it for :data:`CLAIM_TTL`, so several workers split the
    tables instead of all thinking about each one (the version check would void
    the duplicates anyway, after their cost). Without the shared cache, every
    process may decide: duplicates are still refused by the version check."""
    # The creation time tells this table from another that got its id after a
    # database was reset while the cache kept its keys (test runs do this).
    key = f"blot:deciding:{table.pk}:{int(table.created_at.timestamp() * 1e6)}:{version}"
    try:
        if shared().add(key, _CLAIMANT, CLAIM_TTL.total_seconds()):
            return True
        return shared().get(key) == _CLAIMANT
    except Exception:  # the cache is away: decide; the version check keeps it safe
        return True


def claim_job(job: Job, now: datetime | None = None) -> Claimed | bool:
    """Claim a prepared decision just before deciding it: ``True`` when this
    process may decide it, ``False`` when the table has moved on since (look
    again), :class:`Claimed` when another process is deciding it."""
    table = Table.objects.only("pk", "created_at", "version").get(pk=job.table_id)
    if table.version != job.version:
        return False
    if claim(table, job.version):
        return True
    return Claimed((now or timezone.now()) + CLAIM_TTL)


def finish(job: Job, action: Action) -> bool:
    """Submit a decision; ``False`` when someone moved first (the next wake-up looks again)."""
    try:
        submit(job.table_id, action, job.version, by_server=True, stand_in=job.stand_in)
    except Refused:
        return False
    return True


def act_if_due(table_id: int, now: datetime | None = None) -> bool:
    """Make the table's due move, if one is due; set its next wake-up. Returns
    whether a move was made."""
    now = now or timezone.now()
    job = prepare(table_id, now)
    if isinstance(job, Claimed):
        return False
    if not isinstance(job, Job):
        # A wake-up not in the future means a deal was just dealt: the table moved on.
        return job is not None and job <= now
    return finish(job, decide_for(job.level, job.obs, job.seed, bot_budget_s()))


def bot_budget_s() -> float:
    return settings.BLOT_BOT_BUDGET_S


def due_tables(now: datetime, limit: int = 20, exclude: Collection[int] = ()) -> list[int]:
    """Due tables, longest-waiting first: by when each became due (a table with
    no wake-up set is due since its turn started), so no table waits behind
    tables that became due after it."""
    due_since = Coalesce("wakeup_at", "turn_started_at", "created_at")
    return list(
        Table.objects.filter(status=Table.Status.PLAYING)
        .filter(Q(wakeup_at__lte=now) | Q(wakeup_at__isnull=True))
        .exclude(pk__in=list(exclude))
        .order_by(due_since.asc(), "pk")
        .values_list("pk", flat=True)[:limit]
    )


def run_due(now: datetime | None = None) -> int:
    """One pass over every due table, one after the other (tests and tools; the
    running conductor serves tables concurrently). Returns the moves made."""
    moves = 0
    now = now or timezone.now()
    for table_id in due_tables(now):
        if shutdown.stopping.is_set():
            break  # the process is stopping: leave the rest to the next one
        try:
            moves += act_if_due(table_id, now)
        except Exception:  # one broken table must not stop the others
            log.exception("table %s: could not act", table_id)
            _put_off(table_id)
    return moves


def _database_answers() -> None:
    """A round trip to the database (raises while it is away)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _put_off(table_id: int) -> None:
    Table.objects.filter(pk=table_id).update(wakeup_at=timezone.now() + BROKEN_TABLE_RETRY)


BROKEN_TABLE_RETRY = timedelta(seconds=30)
#: Decisions made at once in threads, when there is no pool of processes.
THREAD_DECIDERS = 2
#: Bot levels whose decision takes a fraction of a millisecond (Normal: p95
#: 0.07 ms, docs/performance.md): decided in the conductor's own loop, so they
#: never wait for a process (nor for the fair turn, fairness.py) behind Hard bots.
INLINE_LEVELS = frozenset({"easy", "normal"})
CLEANUP_EVERY_S = 600
MAX_BACKOFF_S = 5.0
#: Wake-ups nearer than this are timed in the process; later ones are left to the poll.
TIMER_HORIZON_S = 120.0


def _closing(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` with this thread's stale database connection dropped before and after."""

    def run(*args: object) -> T:
        close_old_connections()
        try:
            return fn(*args)
        finally:
            close_old_connections()

    return run


class Conductor:
    """Serves due tables concurrently until cancelled.

    Each due table gets its own task: plan (a database thread), decide (a process
    of ``pool`` when there is one, else a thread), submit (a database thread). A
    table being served is not picked again until its task ends, and due tables
    are taken longest-waiting first, so a Hard bot thinking never holds up
    another table's move. A person's move wakes the table at once through
    :data:`games.live.deliver.notify.CONDUCTOR_CHANNEL`; the poll only catches what no
    message announced (clocks running out, a restart).
    """

    def __init__(
        self,
        pool: Executor | None = None,
        max_in_flight: int = 32,
        poll_s: float = 1.0,
        db_threads: int = 4,
        deciding: int | None = None,
    ) -> None:
        self.pool = pool
        # Decisions wait for one of ``deciding`` slots (the pool's processes;
        # without them, a few threads), handed out fairly across the tables'
        # owners (fairness.py), not first come, first served. With ``deciding``,
        # a decision is also claimed only once it has its slot: a claim taken
        # while the move waited could lapse before it was decided (another
        # worker then decided it too), and held the move from workers with free
        # processes.
        self._claim_late = deciding is not None
        self._gate = fairness.FairGate(deciding or THREAD_DECIDERS)
        self.inline_levels = INLINE_LEVELS
        self.max_in_flight = max_in_flight
        self.poll_s = poll_s
        self.db = ThreadPoolExecutor(db_threads, thread_name_prefix="conductor-db")
        self.in_flight: set[int] = set()
        self.hinted: list[int] = []  # tables announced by a message, served first
        # Tables whose move another process claimed: not picked by a pass before
        # the claim lapses or a hint comes (other tables' wake-ups are in the
        # database, which a pass reads; a timer only makes them punctual).
        self.later: set[int] = set()
        self.moves = 0
        self._wake = asyncio.Event()
        self._failures = RateLimitedLog(log, "The conductor's pass")
        self._table_failures = RateLimitedLog(log, "Acting for a table")
        self._last_cleanup = 0.0
        self._next_search = 0.0  # monotonic time of the next search for due tables
        self._search_all = False  # the last search was cut short by the room left

    async def _in_db(self, fn: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db, _closing(fn), *args)

    def hint(self, table_id: int) -> None:
        self.later.discard(table_id)
        if table_id not in self.hinted:
            self.hinted.append(table_id)
        self._wake.set()

    async def run(self) -> None:
        notify.attach(asyncio.get_running_loop())
        listener = asyncio.create_task(self._listen())
        tasks: set[asyncio.Task[None]] = set()
        delay = self.poll_s
        try:
            while not shutdown.stopping.is_set():
                try:
                    await self._pass(tasks)
                except Exception as exc:
                    self._failed(exc, self._failures)
                    delay = min(max(delay, self.poll_s) * 2, MAX_BACKOFF_S)
                else:
                    self._failures.recovered()
                    delay = self.poll_s
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns a
                # wake-up that lands together with a cancel, and the loop went on.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self._wake.wait()
                self._wake.clear()
        finally:
            listener.cancel()
            if tasks and shutdown.stopping.is_set():
                # Stopping: let the moves being made commit (or fail) whole first.
                await asyncio.wait(tasks, timeout=shutdown.DRAIN_S - 1)
            for task in tasks:
                task.cancel()
            self.db.shutdown(wait=False, cancel_futures=True)

    async def _pass(self, tasks: set[asyncio.Task[None]]) -> None:
        if time.monotonic() - self._last_cleanup > CLEANUP_EVERY_S:
            await self._in_db(presence.forget_old)  # connection rows closed long ago
            self._last_cleanup = time.monotonic()
        # Tables waiting their turn to be decided hold no thread or process:
        # they do not take room, so another owner's table is always let in to
        # wait beside them (and served fairly, fairness.py).
        room = self.max_in_flight - (len(self.in_flight) - self._gate.waiting)
        if room <= 0:
            return
        hinted = [t for t in self.hinted if t not in self.in_flight][:room]
        self.hinted = [t for t in self.hinted if t not in hinted]
        due: list[int] = []
        # Messages and timers announce nearly every due table; the database is
        # searched once per poll (clocks run out, a restart, tournaments' new
        # tables), or again at once when the last search found more than there
        # was room for.
        polling = time.monotonic() >= self._next_search
        if polling:
            self._next_search = time.monotonic() + self.poll_s
            await self._in_db(_database_answers)
            presence.database_ok()
        wanted = room - len(hinted)
        if wanted > 0 and (polling or self._search_all):
            busy = self.in_flight | self.later | set(hinted)
            due = await self._in_db(due_tables, timezone.now(), wanted, busy)
            self._search_all = len(due) == wanted
        for table_id in [*hinted, *due][:room]:
            self.in_flight.add(table_id)
            task = asyncio.create_task(self._serve(table_id))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    async def _serve(self, table_id: int) -> None:
        try:
            job = await self._in_db(
                prepare, table_id, None, thinking_ahead(), not self._claim_late
            )
            if isinstance(job, Claimed):
                self._claimed_elsewhere(table_id, job)
            elif isinstance(job, datetime):
                self._wake_at(table_id, job)
            elif job is not None:
                await self._decide_and_move(job)
            self._table_failures.recovered()
        except Table.DoesNotExist:
            pass
        except Exception as exc:
            self._failed(exc, self._table_failures)
            if not isinstance(exc, DatabaseError):
                with contextlib.suppress(Exception):  # a broken table waits; others go on
                    await self._in_db(_put_off, table_id)
        finally:
            self.in_flight.discard(table_id)
            self._wake.set()

    def _claimed_elsewhere(self, table_id: int, claimed: Claimed) -> None:
        # Left out of passes until then: its wake-up in the database says it is
        # due, but another process is on it.
        self.later.add(table_id)
        self._wake_at(table_id, claimed.until)

    async def _decide_and_move(self, job: Job) -> None:
        if job.level in self.inline_levels:
            # A fraction of a millisecond: decided here, never queued behind
            # Hard bots' decisions in the processes.
            if self._claim_late and not await self._claim(job):
                return
            with metrics.timed(metrics.bot_decision_seconds, level=job.level):
                action = decide_for(job.level, job.obs, job.seed, bot_budget_s())
        else:
            async with self._gate.slot(job.owner, job.rank):  # the pause is waited out after it
                if self._claim_late and not await self._claim(job):  # else claimed when prepared
                    return
                with metrics.timed(metrics.bot_decision_seconds, level=job.level):
                    action = await self._decide(job)
        wait = (job.due - timezone.now()).total_seconds()
        if wait > 0:  # decided during the pause: move when it is over
            await asyncio.sleep(wait)
        if await self._in_db(finish, job, action):
            self.moves += 1
            self.hint(job.table_id)  # the next turn may be another bot's

    async def _claim(self, job: Job) -> bool:
        claimed = await self._in_db(claim_job, job)
        if claimed is False:
            self.hint(job.table_id)  # it moved meanwhile: look at it afresh
            return False
        if isinstance(claimed, Claimed):
            self._claimed_elsewhere(job.table_id, claimed)
            return False
        return True

    def _wake_at(self, table_id: int, at: datetime) -> None:
        """A bot's pause or a clock ends soon: look at the table then, not at the next poll."""
        delay = (at - timezone.now()).total_seconds()
        if delay < TIMER_HORIZON_S:
            asyncio.get_running_loop().call_later(max(0.0, delay), self.hint, table_id)

    async def _decide(self, job: Job) -> Action:
        args = (job.level, job.obs, job.seed, bot_budget_s())
        loop = asyncio.get_running_loop()
        if self.pool is not None:
            return await loop.run_in_executor(self.pool, decide_for, *args)
        return await asyncio.to_thread(decide_for, *args)

    def _failed(self, exc: Exception, failures: RateLimitedLog) -> None:
        if isinstance(exc, DatabaseError | InterfaceError):
            presence.database_failed()
        failures.failed(exc)

    async def _listen(self) -> None:
        """Wake-ups handed over by the processes where people move."""
        layer = get_channel_layer()
        if layer is None:
            return
        delay = 0.5
        while True:
            try:
                message = await layer.receive(notify.CONDUCTOR_CHANNEL)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the poll still finds due tables
                log.debug("conductor: no wake-ups (%s)", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_BACKOFF_S)
                continue
            delay = 0.5
            table_id = message.get("table")
            if isinstance(table_id, int):
                self.hint(table_id)


async def conduct_forever(poll_s: float = 1.0, pool: Executor | None = None) -> None:
    """Run due work until cancelled (see :class:`Conductor`)."""
    await Conductor(pool=pool, poll_s=poll_s).run()


_task: asyncio.Task[None] | None = None


def ensure_started() -> None:
    """Start the in-process conductor on the running loop, once per process."""
    global _task
    if settings.BLOT_CONDUCTOR != "inprocess":
        return
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(conduct_forever())
        shutdown.watch(_task, "conductor")
