"""The conductor's matchmaking work, once per poll: pair the Play-now pools
(``games.services.pools``, the one place pairing happens), rate any rated
match finished by a path that did not rate it (``games.services.ratings``), and
the bot ladder's job (:mod:`games.live.conduct.ladder`)."""

from __future__ import annotations

from games.live.conduct.ladder import ladder_pass
from games.services.pools import pair_waiting
from games.services.ratings import rate_unrated


def matchmaking_pass() -> int:
    """Returns the tables the pass seated."""
    made = pair_waiting()
    rate_unrated()
    return made + ladder_pass()
