"""``manage.py blotworker``: run bots and turn clocks outside the web processes,
and beside them the periodic jobs (pairing, late ratings, tournaments, chat
purging: :mod:`games.periodic.runner`).

Use it with ``BLOT_CONDUCTOR=external`` on the Daphne processes and the Redis
channel layer (the in-memory layer cannot reach another process's viewers).
Bot decisions run in a pool of processes (``--processes``, default: the cores
this process may use), so Hard bots at several tables think at once. Several
workers may run at once: every move is checked against the table version.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.live.conduct import analyst
from games.live.conduct.conductor import Conductor
from games.live.conduct.decisions import ready, warm_up
from games.ops.metrics import serve_in_thread as serve_metrics
from games.periodic.runner import Periodic
from games.runtime import beats


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


async def _run_both(conductor: Conductor, periodic: Periodic) -> None:
    await asyncio.gather(conductor.run(), periodic.run())


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Command(BaseCommand):
    help = "Play bot turns, timed-out turns and absent players' turns for live tables."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--processes",
            type=int,
            default=usable_cores(),
            help="Processes deciding bot moves in parallel (0: decide in a thread).",
        )
        parser.add_argument(
            "--tables",
            type=int,
            default=None,
            help=(
                "Tables served at once, thinking or waiting out a bot's pause with the "
                "move decided (default: four times the processes, at least 32)."
            ),
        )
        parser.add_argument("--poll", type=float, default=1.0, help="Seconds between polls.")

    def handle(self, *args: object, **options: Any) -> None:
        backend = str(settings.CHANNEL_LAYERS["default"]["BACKEND"])
        if backend.endswith("InMemoryChannelLayer"):
            raise CommandError(
                "blotworker needs a shared channel layer (set REDIS_URL); with the "
                "in-memory layer the web process runs bots itself."
            )
        processes = max(0, options["processes"])
        tables = options["tables"] or max(32, 4 * processes)
        self.stdout.write(
            f"blotworker: running with {processes} decision processes, "
            f"{tables} tables at once (Ctrl-C to stop)"
        )
        self.stdout.flush()
        pool = None
        if processes:
            # Spawned, not forked: the pool processes import only the engine, and
            # no thread or socket of this process is copied into them.
            # Each ends itself when this process is gone (even by SIGKILL).
            pool = ProcessPoolExecutor(
                processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=warm_up,
                initargs=(os.getpid(),),
            )
            # Started now rather than at the first decision: one task per process
            # spawns them all, so the first bot's move pays no start-up.
            for started in [pool.submit(ready) for _ in range(processes)]:
                started.result()
        # SIGTERM (a service manager stopping the worker) ends it like Ctrl-C, so
        # the pool's processes are shut down with it instead of left behind.
        signal.signal(signal.SIGTERM, _interrupt)
        # Deal analyses: one child process at nice 19 on one core, never this pool,
        # started again if it dies.
        keeper = analyst.Keeper().start()
        # /health/ready/ knows a worker is alive by this beat (games/runtime/beats.py).
        beater = beats.Beater(beats.WORKER).start()
        if settings.BLOT_METRICS_PORT:
            serve_metrics(settings.BLOT_METRICS_PORT)
        try:
            with contextlib.suppress(KeyboardInterrupt):
                conductor = Conductor(
                    pool=pool,
                    max_in_flight=tables,
                    poll_s=options["poll"],
                    deciding=processes or None,
                )
                asyncio.run(_run_both(conductor, Periodic(poll_s=options["poll"])))
        finally:
            beater.stop()
            keeper.stop()
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
