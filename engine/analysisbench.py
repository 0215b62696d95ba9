"""``python -m engine bench-analysis``: whole deals analysed as the site does, timed.

Deals are played by the normal bot from seeded shuffles (the deals of ``python
-m engine bench-solve`` for the same seed); each is analysed by
:func:`engine.deal_analysis.analyse_record` — what the site's analyst runs:
honest values of every decision with a choice, exact values of every card,
the par table — with the analyst's default samples. Per deal it prints the CPU
seconds of the process (``time.process_time``: the one figure comparable on a
shared machine), split into honest values, exact values and par table, the
exact solver's nodes (millions: they depend only on the code), and the wall
seconds; beside the total, "ready after": the CPU seconds until the analysis
but its par table is known (honest and exact values, marks, accuracy, graph),
when the site's analyst already shows it. First the load average
(``os.getloadavg``), last one JSON line with the median and maximum CPU seconds
per variant, in all and until ready.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from typing import Any

from engine.analysis import SAMPLES
from engine.deal_analysis import analyse_record
from engine.rules import BELOTE, OPEN_BLOT
from engine.solvebench import normal_deal
from engine.solver.native import in_use


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(deals: int, seed: int, samples: int, variants: list[str]) -> dict[str, Any]:
    report: dict[str, Any] = {"solver": in_use(), "samples": samples, "seed": seed}
    print(f"solver: {report['solver']}, samples: {samples}, load: {load()}", flush=True)
    for variant in variants:
        rng = random.Random(seed)
        seconds, ready_seconds = [], []
        for i in range(deals):
            record = normal_deal(variant, rng).to_record()
            timings: dict[str, float] = {}
            wall, cpu = time.perf_counter(), time.process_time()
            ready_at: list[float] = []

            def note_ready(_values: dict[str, Any], at: list[float] = ready_at) -> None:
                at.append(time.process_time())  # the CPU clock when it could be shown

            result = analyse_record(
                record,
                seed=i,
                samples=samples,
                timings=timings,
                ready=note_ready,
            )
            ready = ready_at[0] - cpu
            cpu = time.process_time() - cpu
            ready_seconds.append(ready)
            wall = time.perf_counter() - wall
            seconds.append(cpu)
            honest = sum("honest" in s for s in result["steps"])
            exact = sum("exact" in s for s in result["steps"])
            nodes = timings.pop("nodes", 0.0)
            parts = ", ".join(f"{k} {v:.2f}" for k, v in sorted(timings.items()))
            print(
                f"{variant} deal {i + 1}: {honest} honest, {exact} exact decisions; "
                f"cpu {cpu:.2f} s, ready after {ready:.2f} s ({parts}; {nodes:.2f} million nodes), "
                f"wall {wall:.2f} s, load {load()}",
                flush=True,
            )
        report[variant] = {
            "deals": deals,
            "cpu_s_per_deal_median": round(statistics.median(seconds), 2),
            "cpu_s_per_deal_max": round(max(seconds), 2),
            "ready_cpu_s_per_deal_median": round(statistics.median(ready_seconds), 2),
            "ready_cpu_s_per_deal_max": round(max(ready_seconds), 2),
        }
    return report


def main(deals: int, seed: int, samples: int = SAMPLES, variant: str | None = None) -> int:
    variants = [BELOTE, OPEN_BLOT] if variant is None else [variant]
    print(json.dumps(run(deals, seed, samples, variants), separators=(", ", ": ")))
    return 0
