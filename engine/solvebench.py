"""``python -m engine bench-solve``: the exact solver on whole deals, timed.

Deals are played by the normal bot from seeded shuffles (real-looking play; a
void Belote deal is dealt again). For each deal every card decision is solved
exactly, every legal card's value, as ``python -m engine solve`` does, and the
CPU time of the whole deal is taken on one core (``time.process_time``). The
last line is one JSON object: which solver ran (``compiled`` with mypyc, or the
``source``: ``BLOT_SOLVER=source``, see :mod:`engine.solver.native`) and per
variant the seconds per deal (median, max).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from engine.ai import decide
from engine.deal import Deal, new_deal
from engine.observe import observe
from engine.record_format import DealRecord
from engine.rules import BELOTE, OPEN_BLOT, RuleSet
from engine.shuffle import shuffled_deck
from engine.solver.native import in_use
from engine.solver.solve import solve_record


def normal_deal(variant: str, rng: random.Random) -> Deal:
    """A finished deal (not void) played by four (two) normal bots."""
    rules = RuleSet.build(variant)
    while True:
        deal = new_deal(rules, rng.randrange(rules.seats), shuffled_deck(rng))
        while not deal.is_over:
            assert deal.to_act is not None
            deal.apply(decide("normal", observe(deal, deal.to_act), rng))
        if deal.trump is not None:
            return deal


def time_deal(record: DealRecord) -> tuple[float, int, int]:
    """CPU seconds to solve every card decision, the decisions and legal cards valued."""
    start = time.process_time()
    decisions = cards = 0
    for step in solve_record(record):
        decisions += 1
        cards += len(step.values)
    return time.process_time() - start, decisions, cards


def run(deals: int, seed: int) -> dict[str, Any]:
    report: dict[str, Any] = {"solver": in_use()}
    print(f"solver: {report['solver']}", flush=True)
    for variant in (BELOTE, OPEN_BLOT):
        rng = random.Random(seed)
        seconds = []
        for i in range(deals):
            record = normal_deal(variant, rng).to_record()
            spent, decisions, cards = time_deal(record)
            seconds.append(spent)
            print(f"{variant} deal {i + 1}: {decisions} decisions, {cards} card values, "
                  f"{spent:.2f} s", flush=True)
        report[variant] = {
            "deals": deals,
            "s_per_deal_median": round(statistics.median(seconds), 2),
            "s_per_deal_max": round(max(seconds), 2),
        }
    return report


def main(deals: int, seed: int) -> int:
    print(json.dumps(run(deals, seed), separators=(", ", ": ")))
    return 0
