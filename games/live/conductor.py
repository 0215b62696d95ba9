"""Making tables act when they are due: bot turns, timed-out turns, absent players.

Nothing here keeps state in memory: a table's ``wakeup_at`` says when it may next
need the server to act, and every wake-up re-reads the stored state and checks
again before acting, so a restart (or several processes doing this at once)
loses and duplicates nothing — a move made twice fails the version check.

Decisions are made outside the table lock (a Hard bot thinks for up to half a
second) and submitted through the same :func:`games.live.play.submit` as a
person's click, with the version they were made on.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q
from django.utils import timezone

from engine.ai import decide
from engine.observe import observe
from games.live import presence, shutdown
from games.live.play import Live, Refused, current, submit
from games.models import Seat, Table

log = logging.getLogger(__name__)

#: The level that plays for a person whose clock ran out or who is away.
STAND_IN_LEVEL = "normal"


@dataclass(frozen=True)
class Plan:
    """Who acts for the seat to act, and from when."""

    seat: int
    level: str | None  # None: a person is to act and nobody plays for them yet
    at: datetime


def plan(live: Live, now: datetime) -> Plan:
    table = live.table
    seat_index = live.engine.to_act
    assert seat_index is not None
    seat = Seat.objects.get(table=table, index=seat_index)
    # Before the first move of a table nobody has stamped a turn yet.
    turn_start = table.turn_started_at or live.deal.started_at
    if not live.engine.history:
        # Leave the last deal's result on screen a moment before anyone acts.
        turn_start = max(turn_start, live.deal.started_at + pause_after_deal())
    bot_delay = timedelta(milliseconds=table.bot_delay_ms)
    bot_time = turn_start + bot_delay
    if seat.bot_level is not None:
        return Plan(seat_index, seat.bot_level, bot_time)
    if seat.left_at is not None:  # they left the table: the stand-in plays at bot time
        return Plan(seat_index, STAND_IN_LEVEL, max(bot_time, seat.left_at + bot_delay))
    deadline = turn_start + timedelta(seconds=table.turn_seconds)
    away = presence.away_since(table, seat_index, since=turn_start)
    if away is not None and seat.returned_at is not None:
        away = max(away, seat.returned_at)  # not away before they came back
    if away is not None:
        grace_over = away + timedelta(seconds=table.disconnect_grace_seconds)
        if grace_over <= max(now, bot_time):
            return Plan(seat_index, STAND_IN_LEVEL, max(bot_time, grace_over))
        deadline = min(deadline, grace_over)
    if now >= deadline:
        return Plan(seat_index, STAND_IN_LEVEL, deadline)
    return Plan(seat_index, None, deadline)


def pause_after_deal() -> timedelta:
    return timedelta(milliseconds=getattr(settings, "BLOT_NEXT_DEAL_PAUSE_MS", 2500))


def act_if_due(table_id: int, now: datetime | None = None) -> bool:
    """Make the table's due move, if one is due; set its next wake-up. Returns
    whether a move was made."""
    now = now or timezone.now()
    table = Table.objects.get(pk=table_id)
    live = current(table)
    if live is None:
        Table.objects.filter(pk=table_id, version=table.version).update(wakeup_at=None)
        return False
    step = plan(live, now)
    if step.level is None or step.at > now:
        Table.objects.filter(pk=table_id, version=table.version).update(wakeup_at=step.at)
        return False
    obs = observe(live.engine, step.seat)
    rng = random.Random(f"{live.deal.pk}:{len(live.engine.history)}")
    action = decide(step.level, obs, rng, budget_s=bot_budget_s())
    try:
        submit(table_id, action, table.version, by_server=True)
    except Refused:
        return False  # someone moved first; the next wake-up looks again
    return True


def bot_budget_s() -> float:
    return getattr(settings, "BLOT_BOT_BUDGET_S", 0.5)


def due_tables(now: datetime, limit: int = 20) -> list[int]:
    return list(
        Table.objects.filter(status=Table.Status.PLAYING)
        .filter(Q(wakeup_at__lte=now) | Q(wakeup_at__isnull=True))
        .order_by("wakeup_at")
        .values_list("pk", flat=True)[:limit]
    )


def run_due(now: datetime | None = None) -> int:
    """One pass over every due table. Returns the number of moves made."""
    moves = 0
    now = now or timezone.now()
    for table_id in due_tables(now):
        if shutdown.stopping.is_set():
            break  # the process is stopping: leave the rest to the next one
        try:
            moves += act_if_due(table_id, now)
        except Exception:  # one broken table must not stop the others
            log.exception("table %s: could not act", table_id)
            Table.objects.filter(pk=table_id).update(
                wakeup_at=timezone.now() + timedelta(seconds=30)
            )
    return moves


_last_cleanup = 0.0
CLEANUP_EVERY_S = 600


def _run_due_closing() -> int:
    global _last_cleanup
    close_old_connections()
    try:
        if time.monotonic() - _last_cleanup > CLEANUP_EVERY_S:
            _last_cleanup = time.monotonic()
            presence.forget_old()  # connection rows closed long ago
        return run_due()
    finally:
        close_old_connections()


async def conduct_forever(poll_s: float = 0.15) -> None:
    """Run due work until cancelled, polling the tables' wake-up times."""
    # Its own worker thread (not the consumers' shared sync thread), so a bot
    # thinking for half a second never holds up a viewer's render or move.
    run_pass = sync_to_async(_run_due_closing, thread_sensitive=False)
    while not shutdown.stopping.is_set():
        try:
            moves = await run_pass()
        except Exception:
            log.exception("conductor pass failed")
            moves = 0
        if not moves:
            await asyncio.sleep(poll_s)


_task: asyncio.Task[None] | None = None


def ensure_started() -> None:
    """Start the in-process conductor on the running loop, once per process."""
    global _task
    if getattr(settings, "BLOT_CONDUCTOR", "inprocess") != "inprocess":
        return
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(conduct_forever())
        shutdown.watch_conductor(_task)
