"""AI players: ``decide(level, observation, rng)`` → one of the legal actions.

A bot is handed its seat's :class:`~engine.observe.Observation` and nothing else:
no deal state is ever passed in, so a bot cannot read a card its seat does not
see (tests/ai/test_honesty.py re-deals the unseen cards to prove the choice does
not depend on them). Levels are described in docs/rules.md §5 and §7.4:

- ``easy``: lowest legal card, bids only with the jack and one more trump (in
  coinche: 80 in its longest suit holding the jack), announces everything;
- ``normal``: club-player rules of thumb (:mod:`engine.ai.normal`; the coinche
  auction in :mod:`engine.ai.auction`);
- ``hard``: card tracking, inference and sampled-deal search, the samples
  following the auction (:mod:`engine.ai.hard`, :mod:`engine.ai.sample`).
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.ai import easy, hard, normal
from engine.ai.budget import Budget, Deadline, WorkBudget
from engine.observe import Observation

LEVELS = ("easy", "normal", "hard")
#: A hard decision's deadline by default, in seconds.
DEFAULT_BUDGET_S = 0.2


def decide(
    level: str,
    obs: Observation,
    rng: random.Random,
    budget_s: float | None = None,
    *,
    budget: Budget | None = None,
) -> Action:
    """The action the ``level`` bot takes in ``obs``; always one of ``obs.legal``.

    ``rng`` is the only source of randomness. ``budget_s`` is a hard decision's
    deadline, in seconds from now (default :data:`DEFAULT_BUDGET_S`): it answers
    in that time however busy the machine, with more or less search behind the
    answer. Pass ``budget`` instead (:class:`~engine.ai.budget.WorkBudget`) for a
    fixed amount of work, read from no clock: then the same seed gives the same
    choice on any machine and load.
    """
    if not obs.legal:
        raise ValueError("the observing seat has no legal action")
    if len(obs.legal) == 1:
        return obs.legal[0]
    if level == "easy":
        return easy.decide(obs)
    if level == "normal":
        return normal.decide(obs)
    if level == "hard":
        if budget is None:
            budget = Deadline(DEFAULT_BUDGET_S if budget_s is None else budget_s)
        return hard.decide(obs, rng, budget)
    raise ValueError(f"unknown AI level {level!r} (expected one of {', '.join(LEVELS)})")


__all__ = ["DEFAULT_BUDGET_S", "LEVELS", "Budget", "Deadline", "WorkBudget", "decide"]
