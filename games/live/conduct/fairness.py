"""Which bot decides next when more are waiting than there are processes to
decide them: fairly across the people the tables belong to.

A worker decides in a few processes. Served first come, first served, one
person's sixty-four tables of Hard bots queued ahead of everyone else's bots,
and another player's Normal bot waited six seconds for a move. Here the waiting
decisions are grouped by *owner* (the person who created the table, or who
organised its tournament) and served:

1. by rank: tables with a person seated first (someone is watching the bot
   think), then tables of bots only, then the bots-only tables of a featured
   tournament (a showcase, run with what is left);
2. within a rank, the owner served longest ago first (one never served before
   them all), each owner's own decisions in the order they came.

So whatever one owner has queued, another owner's decision waits at most for a
decision already being made: when a process frees, it goes to the owner who
was served longest ago.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

#: Ranks, served in this order.
PERSON_SEATED = 0
BOTS_ONLY = 1
FEATURED_BOTS = 2

#: Owners remembered (when each was last served) before the idle ones are forgotten.
MEMORY = 10_000

Owner = int | None


class FairGate:
    """At most ``slots`` decisions at once; the waiting ones served by rank, then
    by the owner served longest ago (see the module's docstring)."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("a gate needs at least one slot")
        self._free = slots
        # rank -> owner -> that owner's waiters, in order of arrival.
        self._waiting: dict[int, OrderedDict[Owner, deque[asyncio.Future[None]]]] = {}
        self._served_at: dict[Owner, int] = {}
        self._tick = itertools.count()

    @property
    def waiting(self) -> int:
        return sum(len(q) for owners in self._waiting.values() for q in owners.values())

    @asynccontextmanager
    async def slot(self, owner: Owner, rank: int = BOTS_ONLY) -> AsyncIterator[None]:
        await self.acquire(owner, rank)
        try:
            yield
        finally:
            self.release()

    async def acquire(self, owner: Owner, rank: int = BOTS_ONLY) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            self._note_served(owner)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(rank, OrderedDict()).setdefault(owner, deque()).append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed a slot just as it was cancelled: pass it on
            else:
                self._forget(rank, owner, waiter)
            raise

    def release(self) -> None:
        while (picked := self._next()) is not None:
            owner, waiter = picked
            if not waiter.done():
                self._note_served(owner)
                waiter.set_result(None)  # the slot passes to it
                return
        self._free += 1

    def _next(self) -> tuple[Owner, asyncio.Future[None]] | None:
        for rank in sorted(self._waiting):
            owners = self._waiting[rank]
            owner = min(owners, key=lambda o: self._served_at.get(o, -1))
            queue = owners[owner]
            waiter = queue.popleft()
            if not queue:
                del owners[owner]
                if not owners:
                    del self._waiting[rank]
            return owner, waiter
        return None

    def _note_served(self, owner: Owner) -> None:
        self._served_at[owner] = next(self._tick)
        if len(self._served_at) > MEMORY:
            waiting = {o for owners in self._waiting.values() for o in owners}
            oldest = sorted(self._served_at, key=self._served_at.__getitem__)
            for idle in [o for o in oldest if o not in waiting][: MEMORY // 2]:
                del self._served_at[idle]

    def _forget(self, rank: int, owner: Owner, waiter: asyncio.Future[None]) -> None:
        owners = self._waiting.get(rank)
        queue = owners.get(owner) if owners is not None else None
        if owners is None or queue is None:
            return
        if waiter in queue:
            queue.remove(waiter)
        if not queue:
            del owners[owner]
            if not owners:
                del self._waiting[rank]
