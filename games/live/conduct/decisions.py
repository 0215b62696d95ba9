"""A bot's decision as a plain function of picklable values, so a worker can run
decisions in a pool of processes (every core, one Hard bot never blocking the
others). No Django here: a spawned pool process imports only the engine."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.ai import decide
from engine.observe import Observation


def decide_for(level: str, obs: Observation, seed: str, budget_s: float) -> Action:
    """What ``level`` plays from ``obs``. A Hard bot's search stops at its deadline,
    so a retried decision may choose differently; the move is submitted on the
    version it was decided on either way."""
    return decide(level, obs, random.Random(seed), budget_s=budget_s)


def warm_up() -> None:
    """Run in each pool process at start, so the first real decision pays no import."""
