"""The bot ladder's periodic job, run by the matchmaking job (once per poll of
the periodic runner, never on a move's path): rate finished bot matches on the
ladder (``games.services.botladder.rate_unrated``), and every
``BLOT_BOT_LADDER_EVERY_S`` seconds (0: never) pair the willing bots.

Several workers may run it: the first to claim the interval in the shared cache
pairs, the others skip it (and a bot already seated in a rated match is never
seated again by another worker's pass: ``pair_willing`` checks it).
"""

from __future__ import annotations

import time

from django.conf import settings

from games.runtime.sharedcache import shared
from games.services.botladder import pair_willing, rate_unrated

_KEY = "blot:bot-ladder:paired"


def due() -> bool:
    """Whether this process should pair now (it claimed the interval)."""
    every = settings.BLOT_BOT_LADDER_EVERY_S
    if every <= 0:
        return False
    window = int(time.time() // every)
    try:
        return bool(shared().add(f"{_KEY}:{window}", 1, every + 1))
    except Exception:  # the cache is away: pair anyway, pair_willing re-checks each bot
        return True


def ladder_pass() -> int:
    """Rate what is unrated; pair when due. Returns the tables seated."""
    rate_unrated()
    if not due():
        return 0
    return len(pair_willing())
