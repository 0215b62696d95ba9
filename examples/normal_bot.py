#!/usr/bin/env python3
"""A Blot bot that plays the site's own Normal strategy through the Bot API.

It reads each state's observation, rebuilds the engine's ``Observation`` from
the JSON (``engine.observe_json``) and asks ``engine.ai.decide`` what the
built-in Normal bot would do, so it plays exactly as the Normal bot plays at a
table. Run it from the repository's root, with the same options as
``examples/random_bot.py`` (whose client it uses):

    BLOT_TOKEN=blot_... python3 examples/normal_bot.py --table belote --levels normal normal normal
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's engine

from random_bot import main

from engine.ai import decide
from engine.observe_json import observation_from_dict

rng = random.Random()


def normal_choice(state: dict[str, Any]) -> dict[str, Any]:
    return decide("normal", observation_from_dict(state["observation"]), rng).to_dict()


if __name__ == "__main__":
    sys.exit(main(normal_choice))
