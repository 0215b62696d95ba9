"""What a waiting ticket is told about its wait: how many wait in its pool, how
many of them it could meet now, and how long until enough of them could fill a
table with it if everyone waits on (windows widen: :mod:`engine.pairing.window`).

Pure, like the pairing itself: the site's status (``games.services.pools``) puts
it into sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.pairing.pools import Ticket
from engine.pairing.window import wait_for_gap


@dataclass(frozen=True)
class Outlook:
    """``in_pool``: the other people waiting in the pool; ``in_window``: those of
    them the ticket and they accept each other now; ``window``: the ticket's
    window now (points either side); ``meet_in_s``: seconds until the nearest
    others would fill a table with it, all accepting each other, if everyone
    waits on (0: they could now), ``None`` while the pool holds too few people."""

    in_pool: int
    in_window: int
    window: float
    meet_in_s: float | None


def meeting_in(a: Ticket, b: Ticket) -> float:
    """Seconds from now until ``a`` and ``b`` accept each other if both wait on."""
    need = wait_for_gap(abs(a.rating - b.rating))
    return max(0.0, need - min(a.waited_s, b.waited_s))


def outlook(me: Ticket, others: Sequence[Ticket], seats: int) -> Outlook:
    """``me``'s outlook in a pool where ``others`` wait too, for tables of ``seats``."""
    if seats not in (2, 4):
        raise ValueError("a table has 2 or 4 seats")
    rest = [t for t in others if t is not me and not set(t.members) & set(me.members)]
    in_pool = sum(len(t.members) for t in rest)
    in_window = sum(len(t.members) for t in rest if me.accepts(t))
    room = seats - len(me.members)
    chosen: list[Ticket] = []
    for t in sorted(rest, key=lambda t: (meeting_in(me, t), t.members)):
        if room == 0:
            break
        if len(t.members) <= room:
            chosen.append(t)
            room -= len(t.members)
    meet: float | None = None
    if room == 0:
        group = [me, *chosen]
        meet = max(meeting_in(x, y) for x, y in combinations(group, 2))
    return Outlook(in_pool, in_window, me.window, meet)
