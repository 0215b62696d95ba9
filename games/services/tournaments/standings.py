"""A tournament's results as the pure functions of ``engine.tournament`` take
them, and what those functions decide from them: the entrants in seed order, the
finished pairings' results, the knockout bracket, the number of rounds, the
standings and the final places. Read-only: the rounds and the finish are made
from these answers elsewhere in the package.
"""

from __future__ import annotations

from engine import tournament as pure
from games.models import Kind, Pairing, Tournament


def entrant_ids(tournament: Tournament) -> list[int]:
    """Entrants in seed order (the pure functions' input)."""
    return list(
        tournament.entrants.exclude(seed=None).order_by("seed").values_list("pk", flat=True)
    )


def results(tournament: Tournament) -> list[pure.Result]:
    return [
        pure.Result(
            round=p.round,
            a=p.entrant_a_id,
            b=p.entrant_b_id,
            winner=p.winner_id,
            points=(p.points_a, p.points_b),
            forfeit=p.forfeit,
        )
        for p in tournament.pairings.filter(status=Pairing.Status.FINISHED).order_by(
            "round", "index"
        )
    ]


def knockout_bracket(tournament: Tournament) -> list[list[pure.BracketMatch]]:
    winners = {
        (p.round, p.index): p.winner_id
        for p in tournament.pairings.filter(status=Pairing.Status.FINISHED, winner__isnull=False)
        if p.winner_id is not None
    }
    return pure.bracket(entrant_ids(tournament), winners, tournament.third_place)


def total_rounds(tournament: Tournament, count: int | None = None) -> int:
    count = count if count is not None else len(entrant_ids(tournament))
    if tournament.kind == Kind.KNOCKOUT:
        return pure.knockout_rounds(count)
    if tournament.kind == Kind.ROUND_ROBIN:
        return pure.round_robin_rounds(count)
    return tournament.rounds or pure.swiss_rounds_for(count)


def placings(tournament: Tournament) -> dict[int, int]:
    if tournament.kind == Kind.KNOCKOUT:
        return pure.knockout_placings(knockout_bracket(tournament))
    return {s.entrant: s.rank for s in standings(tournament)}


def standings(tournament: Tournament) -> list[pure.Standing]:
    return pure.standings(entrant_ids(tournament), results(tournament), tournament.kind)
