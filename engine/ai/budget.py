"""How long a hard decision may think: a deadline on a clock, or a fixed amount of work.

The search is anytime: it scores the legal actions sample after sample, asks its
budget after every playout (and every few dozen nodes of an exact search) whether
to stop, and answers with what the complete samples say. Two budgets:

- :class:`Deadline` (what the live tables and the arena use): stop, mid-sample if
  need be (an incomplete sample is dropped), once the next look at the clock might
  come after the deadline. On a busy machine the process waits for a core between
  looks (tens of milliseconds at a load of ten per core), so it keeps the longest
  gap it has seen between two looks and stops that much early: a decision keeps to
  its budget however busy the machine is, with fewer samples behind it. The clock
  is injectable, so tests drive it by hand.
- :class:`WorkBudget`: a fixed number of simulated card plays for the budget
  (:data:`PLAYS_PER_SECOND`) and at least :data:`MIN_SAMPLES` samples, read from
  no clock, so the same seed gives the same choice on any machine and load — for
  tests that compare choices, and for the arena's ``hard-work`` player (the hard
  bot as it was before it had a deadline).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

#: Simulated card plays (playout moves or search nodes) per second of budget, as
#: measured on the reference machine when the work budget was the only one.
PLAYS_PER_SECOND = 200_000
MIN_SAMPLES = 8


class OutOfTime(Exception):
    """Raised inside a search when its budget says stop now."""


class Budget(Protocol):
    def spend(self, units: int) -> None:
        """Account for ``units`` card plays of work."""

    def out(self) -> bool:
        """Stop now, even in the middle of a sample."""

    def enough(self, samples: int) -> bool:
        """After ``samples`` complete samples: stop here."""


class Deadline:
    """Done by ``clock() + seconds`` (``clock`` in seconds, monotonic)."""

    def __init__(
        self, seconds: float, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.clock = clock
        self.end = clock() + seconds
        #: The last look at the clock in the search (None before the first), and
        #: the longest time between two looks so far.
        self.last: float | None = None
        self.gap = 0.0

    def spend(self, units: int) -> None:
        pass

    def out(self) -> bool:
        now = self.clock()
        if self.last is not None and now - self.last > self.gap:
            self.gap = now - self.last
        self.last = now
        return now + self.gap >= self.end

    def enough(self, samples: int) -> bool:
        return self.out()


class WorkBudget:
    """``seconds`` times :data:`PLAYS_PER_SECOND` card plays, and at least
    :data:`MIN_SAMPLES` samples; never interrupts a sample."""

    def __init__(self, seconds: float) -> None:
        self.limit = seconds * PLAYS_PER_SECOND
        self.work = 0

    def spend(self, units: int) -> None:
        self.work += units

    def out(self) -> bool:
        return False

    def enough(self, samples: int) -> bool:
        return self.work >= self.limit and samples >= MIN_SAMPLES
