"""Pairing one pool: groups of waiting tickets that become tables.

A *ticket* is what waits: one person, or (Belote only) a party of two friends
who stay partners. A group fills a table's seats: seat ``i`` is on side
``i % 2``, so in Belote seats 0 and 2 are partners against 1 and 3.

The rule, applied longest-waiting first: a ticket is grouped with the tickets
closest to it in rating, provided every two tickets in the group accept each
other (each one's rating inside the other's window, which widens with waiting:
:mod:`engine.pairing.window`). Belote's two sides are then balanced by rating,
parties kept together. A ticket that asked for bots and has waited
:data:`BOTS_AFTER_S` seconds without a match is seated with the other such
tickets of its pool, bots filling what is left.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.pairing.window import rating_window

#: A ticket that asked for bots gets them after waiting this long.
BOTS_AFTER_S = 30.0
#: Candidates looked at, at most, while filling one anchor's table: a crowded
#: window is not searched through every way to fill three seats.
FILL_STEPS = 1000


@dataclass(frozen=True)
class Ticket:
    """One waiting entry: ``members`` (one person, or a party of two partners)
    with its ``rating`` (the party's mean), how long it has ``waited_s``, and
    whether it accepts bots after :data:`BOTS_AFTER_S`."""

    members: tuple[int, ...]
    rating: float
    waited_s: float
    bots_ok: bool = False

    @property
    def window(self) -> float:
        return rating_window(self.waited_s)

    def accepts(self, other: Ticket) -> bool:
        gap = abs(self.rating - other.rating)
        return gap <= self.window and gap <= other.window


@dataclass(frozen=True)
class Group:
    """A table to seat: ``seats[i]`` is a person's id, or ``None`` for a bot."""

    seats: tuple[int | None, ...]

    @property
    def people(self) -> list[int]:
        return [p for p in self.seats if p is not None]

    @property
    def bots(self) -> int:
        return sum(1 for p in self.seats if p is None)


def pair(tickets: Sequence[Ticket], seats: int) -> list[Group]:
    """The groups to seat now from one pool's ``tickets``, for tables of
    ``seats`` (2: Open Blot, 4: Belote). Tickets left out wait on."""
    if seats not in (2, 4):
        raise ValueError("a table has 2 or 4 seats")
    _check(tickets, seats)
    order = sorted(tickets, key=lambda t: (-t.waited_s, t.members))
    # By rating, so an anchor looks only at the tickets inside its window.
    by_rating = sorted(order, key=lambda t: t.rating)
    ratings = [t.rating for t in by_rating]
    taken: set[int] = set()
    groups: list[Group] = []
    for anchor in order:
        if id(anchor) in taken:
            continue
        low = bisect_left(ratings, anchor.rating - anchor.window)
        high = bisect_right(ratings, anchor.rating + anchor.window)
        near = [t for t in by_rating[low:high] if id(t) not in taken]
        chosen = _fill(anchor, near, seats)
        if chosen is not None:
            taken.update(id(t) for t in chosen)
            groups.append(Group(_arrange(chosen, seats)))
    groups.extend(_with_bots([t for t in order if id(t) not in taken], seats))
    return groups


def _check(tickets: Sequence[Ticket], seats: int) -> None:
    people = [p for t in tickets for p in t.members]
    if len(people) != len(set(people)):
        raise ValueError("a person waits on one ticket at a time")
    for t in tickets:
        if not 1 <= len(t.members) <= seats // 2:
            raise ValueError("a ticket is one person, or a party of partners at Belote")


def _fill(anchor: Ticket, free: list[Ticket], seats: int) -> list[Ticket] | None:
    """The anchor and the closest-rated tickets that fill a table with it, every
    two accepting each other; ``None`` when the pool has none such now."""
    others = sorted(
        (t for t in free if t is not anchor and anchor.accepts(t)),
        key=lambda t: (abs(t.rating - anchor.rating), -t.waited_s, t.members),
    )
    chosen = _first_table([anchor], seats - len(anchor.members), others, [FILL_STEPS])
    if chosen is not None:
        return chosen
    if len(anchor.members) == 2:
        # A party took one person and found no second: the closest party will do.
        party = next((t for t in others if len(t.members) == 2), None)
        if party is not None:
            return [anchor, party]
    return None


def _first_table(
    chosen: list[Ticket], room: int, candidates: list[Ticket], steps: list[int]
) -> list[Ticket] | None:
    """The first way, in the candidates' order, to fill ``room`` seats with
    tickets that accept each other and everyone ``chosen``. Its first path is the
    greedy choice (the closest that fits, then the closest that fits with it, ...);
    only when that path ends with a seat empty does it step back and try the next
    closest, so a table the greedy choice misses (the two closest refuse a third
    who would sit with two others) is still found. ``steps`` bounds the search
    in a crowded window."""
    if room == 0:
        return chosen
    for index, ticket in enumerate(candidates):
        if steps[0] <= 0:
            return None
        steps[0] -= 1
        if len(ticket.members) <= room and all(c.accepts(ticket) for c in chosen):
            found = _first_table(
                [*chosen, ticket], room - len(ticket.members), candidates[index + 1 :], steps
            )
            if found is not None:
                return found
    return None


def _arrange(chosen: Sequence[Ticket], seats: int) -> tuple[int | None, ...]:
    """Seat a full group: Open Blot as it comes; Belote's sides balanced by
    rating (the split with the smallest gap between the sides' sums), each
    party on one side."""
    people = [(p, t.rating) for t in chosen for p in t.members]
    if seats == 2:
        return (people[0][0], people[1][0])
    return _split(chosen, {p: r for p, r in people})


def _split(chosen: Sequence[Ticket], rating: dict[int, float]) -> tuple[int | None, ...]:
    everyone = [p for t in chosen for p in t.members]
    partners = [t.members for t in chosen if len(t.members) == 2]
    best: tuple[float, tuple[int, ...]] | None = None
    for side in combinations(everyone, 2):
        if everyone[0] not in side:
            continue  # each split once: the first person's side
        if any(len(set(party) & set(side)) == 1 for party in partners):
            continue  # a party split up
        other = tuple(p for p in everyone if p not in side)
        gap = abs(sum(rating[p] for p in side) - sum(rating[p] for p in other))
        seating = (side[0], other[0], side[1], other[1])
        if best is None or gap < best[0]:
            best = (gap, seating)
    assert best is not None  # two parties, or a party and two, or four: always splittable
    return best[1]


def _with_bots(left: Sequence[Ticket], seats: int) -> list[Group]:
    """Tickets that asked for bots and waited long enough, seated together (as
    many people per table as fit), bots in the remaining seats."""
    ready = [t for t in left if t.bots_ok and t.waited_s >= BOTS_AFTER_S]
    groups: list[Group] = []
    while ready:
        table: list[Ticket] = []
        room = seats
        for t in list(ready):
            if len(t.members) <= room:
                table.append(t)
                room -= len(t.members)
                ready.remove(t)
        full = room == 0  # enough of them to fill it: no bot, sides balanced as usual
        groups.append(Group(_arrange(table, seats) if full else _seat_with_bots(table, seats)))
    return groups


def _seat_with_bots(table: Sequence[Ticket], seats: int) -> tuple[int | None, ...]:
    """People first on seats that keep parties together, bots in the rest."""
    placed: list[int | None] = [None] * seats
    free = list(range(seats))
    for t in sorted(table, key=lambda t: -len(t.members)):
        if len(t.members) == 2:
            side = next(s for s in (0, 1) if s in free and s + 2 in free)
            for p, index in zip(t.members, (side, side + 2), strict=True):
                placed[index] = p
                free.remove(index)
        else:
            index = free.pop(0)
            placed[index] = t.members[0]
    return tuple(placed)
