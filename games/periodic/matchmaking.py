"""The matchmaking job, once per poll of the periodic runner: pair the Play-now
pools (``games.services.pools``, the one place pairing happens), rate any rated
match finished by a path that did not rate it (``games.services.ratings``), and
the bot ladder's job (:mod:`games.periodic.ladder`)."""

from __future__ import annotations

from games.periodic.ladder import ladder_pass
from games.services.pools import pair_waiting
from games.services.ratings import rate_unrated


def matchmaking_pass() -> int:
    """Returns the tables the pass seated."""
    made = pair_waiting()
    rate_unrated()
    return made + ladder_pass()
