"""Stopping a Daphne process cleanly (SIGTERM or SIGINT) after live tables ran.

Why a process used to hang: a move's "table changed" message is sent after its
commit with ``async_to_sync``, from a worker thread (the conductor's, or the
consumers' shared one), and runs on the server's event loop. When Daphne
stopped its loop while such a thread was between commit and message, the thread
waited for a loop that would never run again, and the interpreter's exit waited
for the thread: the port closed, the process stayed.

So, before the reactor shuts down (a Twisted "before shutdown" trigger, which
runs while the loop still turns):

1. :data:`stopping` is set: the conductor finishes the pass it is in (a move is
   one transaction: it is committed or never happened) and starts no other, and
   the periodic runner starts no other job;
2. the tasks watched (the conductor's and the periodic runner's) and the
   consumers' shared sync thread are waited for, so a move in flight commits and
   tells its viewers (bounded by ``DRAIN_S``).

And as a last resort, once the reactor has stopped, a daemon timer ends the
process after ``FORCE_EXIT_S`` if some thread still holds it. That loses
nothing: every move is a single transaction, and a transaction cut off before
its commit is rolled back by the database.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from typing import TYPE_CHECKING, Any

from asgiref.sync import sync_to_async

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

log = logging.getLogger(__name__)

#: Set when the process is shutting down: start no new conductor work.
stopping = threading.Event()
#: How long the "before shutdown" step waits for work in flight.
DRAIN_S = 5.0
#: How long after the reactor stopped the process may take to exit on its own.
FORCE_EXIT_S = 3.0

_installed = False
_watched: dict[str, asyncio.Task[None]] = {}


def watch(task: asyncio.Task[None], name: str) -> None:
    """A task of this process's (the in-process conductor's, the periodic
    runner's), waited for at shutdown; a later task of the same name replaces it."""
    _watched[name] = task


def install() -> None:
    """Hook into Daphne's (Twisted's) shutdown, once per process. Does nothing
    outside a running Twisted reactor (tests, other servers)."""
    global _installed
    if _installed or "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import reactor

    if not reactor.running:
        return
    _installed = True
    # Twisted's interface declares its methods without self, so its stubs
    # misplace every argument by one: call the reactor untyped.
    core: Any = reactor
    core.addSystemEventTrigger("before", "shutdown", _before_shutdown)
    core.addSystemEventTrigger("after", "shutdown", _after_shutdown)


def _before_shutdown() -> Deferred[None]:
    """The reactor waits for the Deferred it returns before it stops."""
    from twisted.internet.defer import Deferred

    stopping.set()
    return Deferred.fromFuture(asyncio.ensure_future(drain()))


async def drain(timeout: float = DRAIN_S) -> None:
    """Wait (at most ``timeout``) for the conductor's pass and any move in
    flight, and the periodic runner's job in progress."""
    waits: list[asyncio.Future[None]] = [
        asyncio.ensure_future(sync_to_async(_nothing, thread_sensitive=True)())
    ]
    waits += [asyncio.shield(task) for task in _watched.values() if not task.done()]
    _done, pending = await asyncio.wait(waits, timeout=timeout)
    if pending:
        log.warning("shutdown: %d task(s) still running after %.0f s", len(pending), timeout)


def _nothing() -> None:
    """Queued behind whatever the consumers' shared sync thread is doing."""


def _after_shutdown() -> None:
    timer = threading.Timer(FORCE_EXIT_S, _force_exit)
    timer.daemon = True  # never itself keeps the process alive
    timer.start()


def _force_exit() -> None:
    busy = [t.name for t in threading.enumerate() if t is not threading.current_thread()]
    log.warning("shutdown: threads still running %s; exiting anyway", busy)
    logging.shutdown()
    os._exit(0)
