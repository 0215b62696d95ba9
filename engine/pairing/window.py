"""How far from their own rating a waiting person accepts an opponent.

As lichess's pools do, the window starts narrow (close games first) and widens
the longer someone waits, until after about a minute anyone in the pool will do.
"""

from __future__ import annotations

#: The window for someone who just joined (rating points either side).
START = 100.0
#: How much it widens per second waited.
PER_SECOND = 15.0
#: The widest it gets: past this, ratings are too far apart to matter for pairing.
WIDEST = 1000.0


def rating_window(waited_s: float) -> float:
    """Rating points either side a person who has waited ``waited_s`` seconds
    accepts. Never narrows as the wait grows."""
    return min(WIDEST, START + PER_SECOND * max(0.0, waited_s))
