"""Ratings: a thin wrapper over openskill's Weng-Lin (Plackett-Luce) model.

One skill estimate (``mu``, ``sigma``) per player per variant. A rated match is
two sides (one person each in Open Blot, two in Belote) and a winner; openskill
rates 1-vs-1 and 2-vs-2 alike. The number shown is a conservative estimate,
``mu - 2 sigma``, so it rises as the estimate firms up; it is marked provisional
("?") for a player's first :data:`PROVISIONAL_MATCHES` rated matches.

The scale is anchored on the bots: a new player's ``mu`` is the Normal bot's
published rating (:data:`BOT_RATINGS`, measured in the arena), so "1500" means
"about as strong as the Normal bot". Bots never play rated matches: their
numbers are fixed and published, not updated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: A new player's skill estimate and its uncertainty (openskill's own ratio of
#: mu to sigma, 3:1, would make a newcomer's shown number 0 at 25; this scale
#: keeps the familiar 1500 with a wide start).
MU0 = 1500.0
SIGMA0 = 250.0
#: Rated matches before the shown number loses its "?".
PROVISIONAL_MATCHES = 10
#: How many sigmas below mu the shown, conservative number is.
CONSERVATIVE_SIGMAS = 2.0

#: The arena's measured match win rates (docs/performance.md "Bots": 400
#: duplicate deals, seed 1, the default budget) of the stronger level against
#: the weaker, per variant: the bots' published ratings are derived from them.
ARENA_WIN_RATES: dict[str, dict[tuple[str, str], float]] = {
    "belote": {("hard", "normal"): 0.685, ("normal", "easy"): 0.847},
    "open_blot": {("hard", "normal"): 0.876, ("normal", "easy"): 0.848},
}

_MODEL = PlackettLuce(mu=MU0, sigma=SIGMA0, beta=SIGMA0 / 2, tau=SIGMA0 / 100)


@dataclass(frozen=True)
class Skill:
    """One player's estimate in one variant."""

    mu: float = MU0
    sigma: float = SIGMA0

    @property
    def shown(self) -> int:
        """The one number a person sees: a conservative estimate."""
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    return round(mu - CONSERVATIVE_SIGMAS * sigma)


def is_provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def rate(sides: Sequence[Sequence[Skill]], winner: int) -> list[list[Skill]]:
    """The skills after a match between two ``sides`` that side ``winner`` won,
    in the same shape as ``sides``."""
    if len(sides) != 2 or winner not in (0, 1):
        raise ValueError("a rated match has two sides and a winning side 0 or 1")
    if any(len(side) == 0 for side in sides):
        raise ValueError("each side needs at least one player")
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    ranks = [0.0 if i == winner else 1.0 for i in range(2)]
    rated = _MODEL.rate(teams, ranks=ranks)
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


def win_probability(a: Sequence[Skill], b: Sequence[Skill]) -> float:
    """The model's chance that side ``a`` beats side ``b``."""
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in (a, b)]
    return float(_MODEL.predict_win(teams)[0])


def gap_for_win_rate(rate: float) -> float:
    """The difference of mu at which the model expects a settled player (tiny
    sigma) to win ``rate`` of their matches against another: the inverse of
    :func:`win_probability`, found by bisection."""
    if not 0 < rate < 1:
        raise ValueError("a win rate is strictly between 0 and 1")
    low, high = -4000.0, 4000.0
    for _ in range(60):
        mid = (low + high) / 2
        if win_probability([Skill(MU0 + mid, 1e-3)], [Skill(MU0, 1e-3)]) < rate:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def bot_ratings(variant: str) -> dict[str, int]:
    """The bots' fixed, published ratings in ``variant``: Normal is the anchor
    (a new player's mu); Hard and Easy sit where the arena's win rates put them."""
    rates = ARENA_WIN_RATES[variant]
    return {
        "easy": round(MU0 - gap_for_win_rate(rates[("normal", "easy")])),
        "normal": round(MU0),
        "hard": round(MU0 + gap_for_win_rate(rates[("hard", "normal")])),
    }


#: Computed once: ``{variant: {level: rating}}``.
BOT_RATINGS: dict[str, dict[str, int]] = {v: bot_ratings(v) for v in ARENA_WIN_RATES}
