"""A bot's decision as a plain function of picklable values, so a worker can run
decisions in a pool of processes (every core, one Hard bot never blocking the
others). No Django here: a spawned pool process imports only the engine."""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time

from engine.actions import Action
from engine.ai import decide
from engine.observe import Observation


def decide_for(level: str, obs: Observation, seed: str, budget_s: float) -> Action:
    """What ``level`` plays from ``obs``. A Hard bot's search stops at its deadline,
    so a retried decision may choose differently; the move is submitted on the
    version it was decided on either way."""
    return decide(level, obs, random.Random(seed), budget_s=budget_s)


#: How much lower than the worker a decision process runs (Unix nice).
NICENESS = 10
#: How often a decision process checks that the worker that started it is alive.
PARENT_CHECK_S = 0.2


def warm_up(parent: int | None = None) -> None:
    """Run in each pool process at start, so the first real decision pays no
    import. With ``parent`` (the worker's pid) the process ends when the worker is
    gone, however it went: killed with SIGKILL, a worker cannot shut its pool
    down, and its decision processes (and the resource tracker they keep open)
    would run on with no parent."""
    # Below the worker's own loop (and the web processes) on the machine's
    # cores: thinking takes what serving moves leaves, so on a busy machine a
    # Hard bot thinks slower rather than every table's move waiting for it.
    with contextlib.suppress(OSError, AttributeError):  # not on every system
        os.nice(NICENESS)
    if parent is not None:
        end_with(parent)


def end_with(parent: int) -> None:
    """End this process when ``parent`` is gone, however it went (SIGKILL too):
    a worker's helper processes must not run on with no worker."""
    threading.Thread(target=_end_with, args=(parent,), name="end-with-worker", daemon=True).start()


def _end_with(parent: int) -> None:
    # An orphan is adopted by another process: its parent's pid changes.
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def ready() -> bool:
    """A no-op decision processes answer once started (see ``blotworker``)."""
    return True
