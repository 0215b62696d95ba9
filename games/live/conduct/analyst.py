"""The analyst: the one process that computes deal analyses, apart
from everything that plays.

Why it never delays a bot's move or a clock:

* it is its own OS process (``manage.py analyse``), started with
  :func:`start`; the bots' decision pool, the conductor's event loop and its
  database threads never run an analysis and never wait for one (the conductor
  does not import the analysis service at all);
* before it computes anything it calls :func:`lower_priority`: ``nice`` 19, the
  lowest priority, so the kernel gives it only the CPU time that the web and
  worker processes (nice 0) leave unused — under contention its share against one
  nice-0 process is 15/1024 of a core (Linux CFS weights);
* it is single-threaded and pinned to one core (``sched_setaffinity``), so it
  never holds more than one core whatever happens;
* it takes one queued analysis at a time and writes only its own rows.

Where it runs: with ``BLOT_CONDUCTOR=external`` the ``blotworker`` starts one as
its child, starts another if that one dies (:class:`Keeper`), and stops it on
exit; in the embedded default (``inprocess``) the web process starts one when an
analysis is asked for, if none is alive; it exits once the queue is empty.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from django.conf import settings

#: The analyst started by this process, if any.
_child: subprocess.Popen[bytes] | None = None


def lower_priority() -> None:
    """Lowest CPU priority and a single core for the calling process."""
    os.nice(19 - os.nice(0))
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[-1]})


def command(forever: bool) -> list[str]:
    """The analyst's command line (the same interpreter and settings as ours)."""
    args = [sys.executable, "-m", "django", "analyse"]
    # The worker's analyst is told its parent's pid: it ends when the worker does,
    # even if the worker died before the analyst's start-up was done.
    return [*args, "--forever", "--parent", str(os.getpid())] if forever else args


def start(forever: bool = False) -> subprocess.Popen[bytes] | None:
    """Start the analyst unless this process's one is still alive; ``None`` when
    analyses are computed elsewhere (``BLOT_ANALYST = "off"``)."""
    global _child
    if settings.BLOT_ANALYST == "off":
        return None
    if _child is not None and _child.poll() is None:
        return _child
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get(
        "DJANGO_SETTINGS_MODULE", "blotsite.settings"
    )}
    _child = subprocess.Popen(command(forever), cwd=settings.BASE_DIR, env=env)
    return _child


def wake() -> None:
    """An analysis was queued: in the embedded default start an analyst; with an
    external worker its own analyst polls the queue."""
    if settings.BLOT_CONDUCTOR == "inprocess":
        start(forever=False)


#: Seconds between two looks at whether the worker's analyst is still alive.
KEEP_EVERY_S = 5.0


class Keeper:
    """Keeps the worker's analyst running: a killed or crashed analyst is
    started again within :data:`KEEP_EVERY_S` (its analysis in hand is taken up
    again once its heartbeat goes stale), until :meth:`stop`."""

    def __init__(self, every_s: float = KEEP_EVERY_S) -> None:
        self._every_s = every_s
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._keep, name="analyst-keeper", daemon=True)

    def start(self) -> Keeper:
        start(forever=True)
        self._thread.start()
        return self

    def _keep(self) -> None:
        while not self._stopping.wait(self._every_s):
            start(forever=True)

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=self._every_s + 1)
        if _child is not None and _child.poll() is None:
            _child.terminate()
