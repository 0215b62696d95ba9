"""Single-elimination brackets.

The bracket has ``2**k`` places (the smallest power of two that holds every
entrant) in the standard seeding order (1 v 16, 8 v 9, ... so the best seeds meet
last); places beyond the entrant count are byes, which therefore go to the best
seeds. The whole bracket is derived from the seeds and the winners known so far,
so nothing about it needs storing but the results.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class BracketMatch:
    """Match ``index`` of ``round`` (both from 1). ``a``/``b`` are None while the
    feeding match is undecided; ``bye`` marks a first-round place with no
    opponent (``a`` goes through). ``third_place`` is the semifinal losers' match,
    in the final's round."""

    round: int
    index: int
    a: int | None
    b: int | None
    winner: int | None
    bye: bool = False
    third_place: bool = False

    @property
    def key(self) -> tuple[int, int]:
        return (self.round, self.index)

    @property
    def ready(self) -> bool:
        """Both entrants are known and it still has to be played."""
        return self.a is not None and self.b is not None and self.winner is None

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.bye:
            return None
        return self.b if self.winner == self.a else self.a


def knockout_rounds(count: int) -> int:
    if count < 2:
        raise ValueError("a knockout needs at least two entrants")
    return math.ceil(math.log2(count))


def seed_order(size: int) -> list[int]:
    """Seed numbers (0-based) by bracket place: [0, 3, 1, 2] for 4."""
    order = [0]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n - 1 - seed)]
    return order


def bracket(
    entrants: Sequence[int],
    winners: Mapping[tuple[int, int], int],
    third_place: bool = False,
) -> list[list[BracketMatch]]:
    """Every round's matches. ``winners`` maps (round, index) to the winning
    entrant of each decided match; the third-place match is (final round, 2)."""
    rounds = knockout_rounds(len(entrants))
    size = 2**rounds
    places: list[int | None] = [
        entrants[s] if s < len(entrants) else None for s in seed_order(size)
    ]
    first: list[BracketMatch] = []
    for i in range(size // 2):
        a, b = places[2 * i], places[2 * i + 1]
        if a is None:
            a, b = b, a
        bye = b is None
        win = a if bye else _checked(winners.get((1, i + 1)), a, b)
        first.append(BracketMatch(1, i + 1, a, b, win, bye=bye))
    result = [first]
    for r in range(2, rounds + 1):
        prev = result[-1]
        matches = []
        for i in range(len(prev) // 2):
            a, b = prev[2 * i].winner, prev[2 * i + 1].winner
            win = (
                _checked(winners.get((r, i + 1)), a, b) if a is not None and b is not None else None
            )
            matches.append(BracketMatch(r, i + 1, a, b, win))
        result.append(matches)
    if third_place and rounds >= 2:
        semis = result[-2]
        a, b = semis[0].loser, semis[1].loser
        win = _checked(winners.get((rounds, 2)), a, b) if a is not None and b is not None else None
        result[-1].append(BracketMatch(rounds, 2, a, b, win, third_place=True))
    return result


def _checked(winner: int | None, a: int | None, b: int | None) -> int | None:
    if winner is not None and winner not in (a, b):
        raise ValueError(f"winner {winner} did not play in that match")
    return winner


def knockout_placings(rounds: list[list[BracketMatch]]) -> dict[int, int]:
    """Places known so far: 1 the champion, 2 the finalist, 3 and 4 from the
    third-place match (else both semifinal losers share 3), and the losers of each
    earlier round share the place after those who went further."""
    places: dict[int, int] = {}
    final = rounds[-1][0]
    if final.winner is not None:
        places[final.winner] = 1
        assert final.loser is not None
        places[final.loser] = 2
    third = next((m for m in rounds[-1] if m.third_place), None)
    depth = len(rounds)
    for r in range(depth - 1, 0, -1):
        shared = 2 ** (depth - r) + 1  # losers of the semifinals share 3, quarterfinals 5...
        for m in rounds[r - 1]:
            if m.loser is not None:
                places[m.loser] = shared
    if third is not None and third.winner is not None:
        places[third.winner] = 3
        assert third.loser is not None
        places[third.loser] = 4
    return places
