"""``python -m engine bench``: random legal deals per second, per variant and for
Belote's coinche deals (every version 2 switch on), and random playouts per
second against a bare bitmask loop.

Each deal is dealt from a seeded shuffle and played to the end by picking a
uniformly random legal action; the full rule machinery runs (legal actions,
events, scoring). The playouts (:mod:`engine.bench_playouts`) are what the hard
bot runs on: the engine's simulator measured in the same run as the yardstick.
Prints progress lines, then one JSON object as the last line.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from engine import bench_playouts as playouts
from engine.deal import new_deal
from engine.rules import BELOTE, OPEN_BLOT, RuleSet
from engine.shuffle import shuffled_deck


def play_random_deals(
    variant: str, seconds: float, seed: int = 1, overrides: dict[str, Any] | None = None
) -> dict[str, Any]:
    rules = RuleSet.build(variant, overrides)
    rng = random.Random(seed)
    seats = rules.seats
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        deal = new_deal(rules, deals % seats, shuffled_deck(rng))
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
            actions += 1
        deal.result()
        deals += 1
        if deals % 50 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "deals_per_s": round(deals / elapsed, 1),
        "us_per_action": round(elapsed / actions * 1e6, 2),
        "deals": deals,
        "actions": actions,
    }


def run(seconds: float = 3.0) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for variant in (BELOTE, OPEN_BLOT):
        report[variant] = play_random_deals(variant, seconds)
        print(f"{variant}: {report[variant]}", flush=True)
    report["coinche"] = play_random_deals(BELOTE, seconds, overrides=playouts.COINCHE)
    print(f"coinche: {report['coinche']}", flush=True)
    report["playouts"] = playouts.run(seconds)
    return report


def main(seconds: float) -> int:
    print(json.dumps(run(seconds), separators=(", ", ": ")))
    return 0
