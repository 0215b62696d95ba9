"""A finished deal's whole analysis, as the site stores it: for every decision
with a choice each legal action's honest value (:mod:`engine.analysis`), for
every card played each legal card's exact value with all cards known
(:mod:`engine.solver.solve`), the loss and mark of the chosen action, each
seat's accuracy, the value graph, and the bidding's par table.

The site's analyst (``games.services.analysis``) and ``python -m engine
bench-analysis`` both call :func:`analyse_record`, so what is timed is what the
site runs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from engine.actions import DECLARE, PLAY, Action
from engine.analysis import SAMPLES, accuracy, action_key, honest_values, mark
from engine.cards import CODES, LAST_TRICK_BONUS, POINTS
from engine.deal import PLAYING
from engine.record import DealRecord, deal_from
from engine.solver.search import Solver
from engine.solver.solve import card_values, par_table, shared_solver

#: Called after each action of the record with how many are done.
Progress = Callable[[int], None]
#: Called with the analysis but its par table, as soon as that much is known.
Ready = Callable[[dict[str, Any]], None]


class _Clock:
    """``with clock(part):`` adds the block's CPU seconds to ``timings[part]``."""

    def __init__(self, timings: dict[str, float] | None) -> None:
        self.timings = timings

    @contextmanager
    def __call__(self, part: str) -> Iterator[None]:
        if self.timings is None:
            yield
            return
        start = time.process_time()
        try:
            yield
        finally:
            spent = time.process_time() - start
            self.timings[part] = self.timings.get(part, 0.0) + spent


def analyse_record(
    record: DealRecord,
    seed: int,
    samples: int = SAMPLES,
    exact_tricks: int | None = None,
    par: bool | list[tuple[int, int]] = True,
    progress: Progress | None = None,
    timings: dict[str, float] | None = None,
    ready: Ready | None = None,
) -> dict[str, Any]:
    """The analysis of a finished ``record``; the honest values are drawn from
    ``random.Random(seed)``, so the same seed gives the same result.
    ``exact_tricks`` limits exact values to the last tricks (``None``: every
    card); ``par`` adds the bidding's par table (a list: only those ``(trump,
    taker)`` contracts). ``timings``, if given, gets the CPU seconds of each
    part added up: ``honest``, ``exact``, ``par``, and the exact solver's
    ``nodes`` (millions; they depend on nothing but the code). ``ready``, if
    given, is called with a copy of the result but its par table once the
    honest and exact values, marks, accuracy and graph are known, before the
    par table is computed (the site shows that much first); the par table is
    then computed exactly as without it, so the values are the same either way."""
    clock = _Clock(timings)
    deal = deal_from(record)
    rng = random.Random(seed)
    steps: list[dict[str, Any]] = []
    graph: list[list[float]] = []
    losses: dict[int, list[float]] = {}
    # One solver per trump for the whole deal: the exact values and the par table
    # share their tables (the contract played is then nearly free in the par table).
    solvers: dict[int, Solver] = {}
    for index, raw in enumerate(record.actions):
        action = Action.from_dict(raw)
        choices = [a for a in deal.legal_actions() if a.type != DECLARE]
        entry: dict[str, Any] = {"step": index, "seat": action.seat}
        if action.type != DECLARE and len(choices) > 1:
            with clock("honest"):
                values = honest_values(deal, rng, samples)
            chosen = action_key(action)
            loss = max(values.values()) - values[chosen]
            entry.update(
                chosen=chosen,
                honest={k: round(v, 1) for k, v in values.items()},
                loss=round(loss, 1),
                mark=mark(loss),
            )
            losses.setdefault(action.seat, []).append(loss)
        if action.type == PLAY and deal.phase == PLAYING:
            left = 32 // deal.seats - len(deal.tricks)
            if exact_tricks is None or left <= exact_tricks:
                with clock("exact"):
                    exact = card_values(deal, shared_solver(deal, solvers))
                assert action.card is not None
                entry["chosen"] = CODES[action.card]
                entry["exact"] = {CODES[c]: v for c, v in sorted(exact.items())}
                entry["exact_loss"] = max(exact.values()) - exact[action.card]
                best = max(exact.values())
                assert deal.trump is not None
                total = sum(int(p) for p in POINTS[deal.trump]) + LAST_TRICK_BONUS
                graph.append([index, best if action.seat % 2 == 0 else total - best])
        if len(entry) > 2:
            steps.append(entry)
        deal.apply(action)
        if progress is not None:
            progress(index + 1)
    result: dict[str, Any] = {
        # A card's honest and exact values are both card points (a bid's honest
        # value deal points): a result stored before had deal points for cards.
        "play_unit": "card",
        "samples": samples,
        "steps": steps,
        "graph": graph,
        "accuracy": {str(seat): round(accuracy(ls) or 0.0, 1) for seat, ls in losses.items()},
    }
    if ready is not None:
        ready(dict(result))
    if par:
        contracts = None if par is True else par
        with clock("par"):
            table = par_table(record, contracts, solvers)
        result["par"] = [[t, s, v] for (t, s), v in sorted(table.items())]
    if timings is not None:
        timings["nodes"] = sum(s.nodes for s in solvers.values()) / 1e6
    return result


__all__ = ["Progress", "Ready", "analyse_record"]
