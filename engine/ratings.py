"""Ratings: a thin wrapper over openskill's Weng-Lin (Plackett-Luce) model.

One skill estimate (``mu``, ``sigma``) per player per variant. A rated match is
two sides (one person each in Open Blot, two in Belote) and a winner; openskill
rates 1-vs-1 and 2-vs-2 alike. The number shown is the skill estimate ``mu``
itself, rounded, marked provisional ("?", :func:`label`) for a player's first
:data:`PROVISIONAL_MATCHES` rated matches, while ``sigma`` is still wide.

One scale for people and bots: a new player's ``mu`` is the Normal bot's
published rating (:data:`BOT_RATINGS`, measured in the arena), so a new player
is shown "1500?", level with the Normal bot, and a person shown 1600 is expected
to beat the Normal bot more often than not. Bots never play rated matches: their
numbers are fixed and published, not updated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: A new player's skill estimate and its uncertainty (openskill's own scale
#: starts at 25; this one keeps the familiar 1500, the Normal bot's, with a wide
#: start so the first matches move it quickly).
MU0 = 1500.0
SIGMA0 = 250.0
#: Rated matches before the shown number loses its "?".
PROVISIONAL_MATCHES = 10

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
        """The one number a person sees."""
        return shown(self.mu)


def shown(mu: float) -> int:
    """The number shown for a skill estimate: ``mu``, on the bots' scale."""
    return round(mu)


def is_provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def label(rating: int, provisional: bool) -> str:
    """A rating as every page writes it: ``1500?`` while provisional, else ``1500``."""
    return f"{rating}?" if provisional else str(rating)


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
