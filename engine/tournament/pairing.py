"""Pairings for a Swiss round and for round robin (the circle method)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.tournament.standings import SWISS, Result, standings

#: How many partial pairings the rematch-free search may try before it gives up
#: and allows a rematch (far more than any real field needs; bounds the worst case).
SEARCH_LIMIT = 200_000


@dataclass(frozen=True)
class Pairing:
    """``a`` plays ``b``; ``b`` is None for a bye. ``a`` is the higher-ranked."""

    a: int
    b: int | None


def swiss_pairings(entrants: Sequence[int], results: Sequence[Result]) -> list[Pairing]:
    """The next Swiss round: entrants in standings order, each paired with the
    nearest entrant below it they have not met (backtracking when that leaves the
    rest unpairable), with no rematch while any rematch-free pairing exists. With
    an odd number the bye goes to the lowest-ranked entrant without a bye (another
    entrant only when that choice would force a rematch)."""
    table = standings(entrants, results, SWISS)
    ranked = [s.entrant for s in table]
    score = {s.entrant: s.score for s in table}
    met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
    had_bye = {r.a for r in results if r.b is None}
    candidates: list[int | None] = [None]
    if len(ranked) % 2:
        lowest_first = list(reversed(ranked))
        candidates = [e for e in lowest_first if e not in had_bye]
        candidates += [e for e in lowest_first if e in had_bye]
    budget = [SEARCH_LIMIT]
    for bye in candidates:
        field = [e for e in ranked if e != bye]
        pairs = _pair(field, score, met, budget)
        if pairs is not None:
            return _with_bye(pairs, bye)
        if budget[0] <= 0:
            break
    # Every pairing repeats a match: allow rematches, keeping the preferred bye.
    bye = candidates[0]
    field = [e for e in ranked if e != bye]
    return _with_bye([Pairing(field[i], field[i + 1]) for i in range(0, len(field), 2)], bye)


def _with_bye(pairs: list[Pairing], bye: int | None) -> list[Pairing]:
    return pairs + ([Pairing(bye, None)] if bye is not None else [])


def _pair(
    field: list[int], score: dict[int, int], met: set[frozenset[int]], budget: list[int]
) -> list[Pairing] | None:
    if not field:
        return []
    budget[0] -= 1
    if budget[0] <= 0:
        return None
    top, rest = field[0], field[1:]
    # Inside the top entrant's score group the upper half meets the lower half
    # (1 v 5, 2 v 6, ... in a group of eight); then the groups below, in order.
    same = [e for e in rest if score[e] == score[top]]
    half = (len(same) + 1) // 2 - 1 if same else 0
    order = same[half:] + same[:half] + [e for e in rest if score[e] != score[top]]
    for other in order:
        if frozenset((top, other)) in met:
            continue
        i = rest.index(other)
        tail = _pair(rest[:i] + rest[i + 1 :], score, met, budget)
        if tail is not None:
            return [Pairing(top, other), *tail]
    return None


def round_robin_rounds(count: int) -> int:
    """Rounds needed for everyone to meet everyone once."""
    return count - 1 if count % 2 == 0 else count


def round_robin_round(entrants: Sequence[int], number: int) -> list[Pairing]:
    """Round ``number`` (1-based) by the circle method: the first entrant stays,
    the others turn one place each round; with an odd count an empty place is
    added and whoever meets it has the bye."""
    slots: list[int | None] = list(entrants)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    if not 1 <= number <= n - 1:
        raise ValueError(f"round robin of {len(entrants)} has rounds 1..{n - 1}")
    turn = number - 1
    moving = slots[1:]
    moving = moving[-turn:] + moving[:-turn] if turn else moving
    circle = [slots[0], *moving]
    pairs: list[Pairing] = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None:
            a, b = b, a
        assert a is not None
        if b is not None and entrants.index(b) < entrants.index(a):
            a, b = b, a  # the better seed first
        pairs.append(Pairing(a, b))
    return sorted(pairs, key=lambda p: (p.b is None, entrants.index(p.a)))
