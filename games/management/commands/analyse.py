"""``manage.py analyse``: compute queued deal analyses, one at a time, at the
lowest CPU priority on one core (games.live.conduct.analyst says why that keeps
bots and clocks undelayed). Its first claim, at start-up, queues again any
analysis a dead analyst left running (games.services.analysis.release_stale),
and so does every later one."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from games.live.conduct import analyst, decisions
from games.runtime import beats
from games.services.analysis import run_next


class Command(BaseCommand):
    help = "Compute queued deal analyses at the lowest priority (nice 19, one core)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--forever", action="store_true", help="Keep polling the queue (the worker's analyst)."
        )
        parser.add_argument("--poll", type=float, default=2.0, help="Seconds between polls.")
        parser.add_argument(
            "--parent", type=int, default=None, help="End when the process with this pid has."
        )
        parser.add_argument(
            "--samples", type=int, default=None, help="Samples per honest value."
        )

    def handle(self, *args: object, **options: Any) -> None:
        analyst.lower_priority()  # first, before any work
        if options["parent"] is not None:  # the worker's analyst ends with the worker
            decisions.end_with(options["parent"])
        kwargs = {} if options["samples"] is None else {"samples": options["samples"]}
        # /health/ready/ knows an analyst is alive by this beat (games/runtime/beats.py).
        beats.Beater(beats.ANALYST).start()
        while True:
            done = run_next(**kwargs)
            if done is None:
                if not options["forever"]:
                    return
                time.sleep(options["poll"])
