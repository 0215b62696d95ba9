"""Standings of a Swiss or round-robin tournament, with their tie-breaks.

A won match (or a bye, or a forfeit won) scores 1, a lost one 0. Ties on score
are broken by Buchholz (Swiss only: the sum of the scores of the opponents met),
then Sonneborn-Berger (the sum of the scores of the opponents beaten), then the
points difference (match points for minus against, over the matches played),
then head-to-head (wins against the other entrants still tied), and last by seed.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

KNOCKOUT, SWISS, ROUND_ROBIN = "knockout", "swiss", "round_robin"
KINDS = (KNOCKOUT, SWISS, ROUND_ROBIN)


@dataclass(frozen=True)
class Result:
    """One decided pairing. ``b`` is None for a bye (``a`` wins it). ``winner`` is
    ``a``, ``b``, or None when nobody won (both entrants forfeited)."""

    round: int
    a: int
    b: int | None
    winner: int | None
    points: tuple[int, int] = (0, 0)
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.winner is not None and self.winner not in (self.a, self.b):
            raise ValueError("the winner must be one of the two entrants")
        if self.b is None and self.winner != self.a:
            raise ValueError("a bye is won by its entrant")


@dataclass(frozen=True)
class Standing:
    entrant: int
    rank: int
    score: int
    buchholz: int
    sonneborn_berger: int
    points_diff: int
    played: int
    byes: int


def swiss_rounds_for(entrants: int) -> int:
    """The usual Swiss length: enough rounds to leave one unbeaten entrant."""
    return max(1, math.ceil(math.log2(max(entrants, 2))))


def standings(entrants: Sequence[int], results: Sequence[Result], kind: str) -> list[Standing]:
    """Every entrant, best first, with ``rank`` 1..n (no shared ranks: seed decides last)."""
    if kind not in (SWISS, ROUND_ROBIN):
        raise ValueError(f"standings are for Swiss and round robin, not {kind!r}")
    seed = {e: i for i, e in enumerate(entrants)}
    score: dict[int, int] = defaultdict(int)
    diff: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    met: dict[int, list[int]] = defaultdict(list)
    beat: dict[int, list[int]] = defaultdict(list)
    for r in results:
        if r.b is None:
            score[r.a] += 1
            byes[r.a] += 1
            continue
        for me, other, mine, theirs in ((r.a, r.b, *r.points), (r.b, r.a, *reversed(r.points))):
            met[me].append(other)
            played[me] += 1
            diff[me] += mine - theirs
            if r.winner == me:
                score[me] += 1
                beat[me].append(other)
    buchholz = {e: sum(score[o] for o in met[e]) if kind == SWISS else 0 for e in entrants}
    sb = {e: sum(score[o] for o in beat[e]) for e in entrants}

    def key(e: int) -> tuple[int, int, int, int]:
        return (-score[e], -buchholz[e], -sb[e], -diff[e])

    ordered = sorted(entrants, key=lambda e: (key(e), seed[e]))
    # Head-to-head inside each group still tied on everything above.
    final: list[int] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        group = ordered[i:j]
        if len(group) > 1:
            members = set(group)
            h2h = {e: sum(1 for o in beat[e] if o in members) for e in group}
            group.sort(key=lambda e: (-h2h[e], seed[e]))
        final.extend(group)
        i = j
    return [
        Standing(
            entrant=e,
            rank=n,
            score=score[e],
            buchholz=buchholz[e],
            sonneborn_berger=sb[e],
            points_diff=diff[e],
            played=played[e],
            byes=byes[e],
        )
        for n, e in enumerate(final, start=1)
    ]
