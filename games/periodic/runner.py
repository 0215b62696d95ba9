"""The periodic runner: jobs done every so often, in the process that runs the
live tables' conductor (a ``blotworker``, or the Daphne process in the embedded
mode) but apart from it, with a database thread of its own, so none of them
waits for a table or holds one up.

- **Tournaments** whose round or match is due move on
  (``games.services.tournaments.advance_due``), every poll.
- **Matchmaking** (:mod:`games.periodic.matchmaking`): the Play-now pools are
  paired, rated matches left unrated are rated, and the bot ladder pairs when its
  interval comes, every poll.
- **Chat** past its keeping time is deleted (``games.services.chat.purge_expired``),
  every ten minutes.

Each job keeps no state in memory and checks the database before acting, so a
restart loses nothing and several processes running them at once seat nobody
twice (each job locks what it changes). A failing job is logged (once, then
counted) and tried again after a back-off; the others go on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections

from games.periodic.matchmaking import matchmaking_pass
from games.runtime import shutdown
from games.runtime.lograte import RateLimitedLog
from games.services.chat import purge_expired as purge_expired_chat
from games.services.tournaments import advance_due

log = logging.getLogger(__name__)

#: The longest wait before a failing job is tried again.
MAX_BACKOFF_S = 5.0
#: How often chat past its keeping time is deleted.
CHAT_PURGE_EVERY_S = 600.0


@dataclass(frozen=True)
class Job:
    name: str
    run: Callable[[], object]
    #: Seconds between runs; ``None``: every pass (every poll).
    every_s: float | None = None


JOBS = (
    Job("tournaments", advance_due),
    Job("matchmaking", matchmaking_pass),
    Job("chat purge", purge_expired_chat, CHAT_PURGE_EVERY_S),
)


def _closing(fn: Callable[[], object]) -> Callable[[], object]:
    """``fn`` with this thread's stale database connection dropped before and after."""

    def run() -> object:
        close_old_connections()
        try:
            return fn()
        finally:
            close_old_connections()

    return run


class Periodic:
    """Runs :data:`JOBS` until cancelled or the process stops: each job when its
    time comes (every ``poll_s`` unless it has an interval of its own), one after
    another in one database thread."""

    def __init__(self, jobs: tuple[Job, ...] = JOBS, poll_s: float = 1.0) -> None:
        self.jobs = jobs
        self.poll_s = poll_s
        self.db = ThreadPoolExecutor(1, thread_name_prefix="periodic-db")
        self.next_run = {job.name: 0.0 for job in jobs}  # monotonic times
        self.backoff = {job.name: 0.0 for job in jobs}
        self.failures = {job.name: RateLimitedLog(log, f"The {job.name} job") for job in jobs}

    async def run(self) -> None:
        try:
            while not shutdown.stopping.is_set():
                await self.run_due()
                await asyncio.sleep(self.poll_s)
        finally:
            self.db.shutdown(wait=False, cancel_futures=True)

    async def run_due(self) -> None:
        """One pass: every job whose time has come, in order."""
        loop = asyncio.get_running_loop()
        for job in self.jobs:
            if shutdown.stopping.is_set() or time.monotonic() < self.next_run[job.name]:
                continue
            try:
                await loop.run_in_executor(self.db, _closing(job.run))
            except Exception as exc:
                self.failures[job.name].failed(exc)
                wait = min(max(self.backoff[job.name], self.poll_s) * 2, MAX_BACKOFF_S)
                self.backoff[job.name] = wait
            else:
                self.failures[job.name].recovered()
                self.backoff[job.name] = 0.0
                wait = job.every_s or 0.0  # 0: at the next pass
            self.next_run[job.name] = time.monotonic() + wait


_task: asyncio.Task[None] | None = None


def ensure_started() -> None:
    """Start the runner on the running loop, once per process, where the live
    tables' conductor runs in this process (``BLOT_CONDUCTOR = "inprocess"``)."""
    global _task
    if settings.BLOT_CONDUCTOR != "inprocess":
        return
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(Periodic().run())
        shutdown.watch(_task, "periodic")
