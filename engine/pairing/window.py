"""How far from their own rating a waiting person accepts an opponent.

As lichess's pools do, the window starts narrow (close games first) and widens
the longer someone waits, without bound: on a quiet site two people however far
apart meet once both have waited long enough (1000 points apart: a minute each).
A rating gap is a weaker reason not to play than nobody to play at all, and a
person who would rather not meet a far stronger player can stop looking.
"""

from __future__ import annotations

import math

#: The window for someone who just joined (rating points either side).
START = 100.0
#: How much it widens per second waited.
PER_SECOND = 15.0


def rating_window(waited_s: float) -> float:
    """Rating points either side a person who has waited ``waited_s`` seconds
    accepts. Never narrows as the wait grows, and grows past any gap."""
    return START + PER_SECOND * max(0.0, waited_s)


def wait_for_gap(gap: float) -> float:
    """How long someone must have waited before their window reaches ``gap``
    rating points (0 for a gap the starting window covers)."""
    if math.isnan(gap) or gap < 0:
        raise ValueError("a rating gap is a number of points, 0 or more")
    return max(0.0, (gap - START) / PER_SECOND)
