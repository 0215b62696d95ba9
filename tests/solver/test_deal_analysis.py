"""A whole deal's analysis (engine.deal_analysis): the site's analyst and
``python -m engine bench-analysis`` run it. It shares one solver per trump
between the exact values of every step and the par table; these tests hold it
to the values of the analysis as it was computed before that sharing — a fresh
solver for the deal's cards, a fresh one for every par contract — kept below
as the reference, and to the exact values' meaning on short endings solved by
brute force."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import DECLARE, PLAY, Action
from engine.analysis import accuracy, action_key, honest_values, mark
from engine.cards import CODES, LAST_TRICK_BONUS, POINTS
from engine.deal import PLAYING, Deal
from engine.deal_analysis import analyse_record
from engine.record import DealRecord, deal_from
from engine.rules import VARIANTS
from engine.solvebench import normal_deal
from engine.solver.search import Solver
from engine.solver.solve import _bid_to, _masks, card_values, solver_for

SAMPLES = 4


def reference_analysis(
    record: DealRecord, seed: int, samples: int, exact_tricks: int | None, par: Any
) -> dict[str, Any]:
    """The analysis as the site computed it before the solvers were shared: the
    same steps, a solver of its own for the deal's cards, and every par contract
    solved by a solver of its own."""
    deal = deal_from(record)
    rng = random.Random(seed)
    steps: list[dict[str, Any]] = []
    graph: list[list[float]] = []
    losses: dict[int, list[float]] = {}
    solver: Solver | None = None
    for index, raw in enumerate(record.actions):
        action = Action.from_dict(raw)
        choices = [a for a in deal.legal_actions() if a.type != DECLARE]
        entry: dict[str, Any] = {"step": index, "seat": action.seat}
        if action.type != DECLARE and len(choices) > 1:
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
                solver = solver or solver_for(deal)
                exact = card_values(deal, solver)
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
    result: dict[str, Any] = {
        "play_unit": "card",
        "samples": samples,
        "steps": steps,
        "graph": graph,
        "accuracy": {str(seat): round(accuracy(ls) or 0.0, 1) for seat, ls in losses.items()},
    }
    if par:
        table = {}
        for trump, taker in par:
            alone = deal_from(record)
            _bid_to(alone, taker, trump)
            hands, down = _masks(alone)
            assert alone.to_act is not None
            side0 = solver_for(alone).value(hands, down, alone.to_act, [])
            table[(trump, taker)] = side0 if taker % 2 == 0 else 162 - side0
        result["par"] = [[t, s, v] for (t, s), v in sorted(table.items())]
    return result


def _played(record: DealRecord) -> tuple[int, int]:
    deal = deal_from(record)
    for raw in record.actions:
        deal.apply(Action.from_dict(raw))
    assert deal.trump is not None and deal.taker is not None
    return deal.trump, deal.taker


def _contracts(record: DealRecord) -> list[tuple[int, int]]:
    """The contract played, and its trump taken by the other side."""
    trump, taker = _played(record)
    seats = deal_from(record).seats
    return [(trump, taker), (trump, (taker + 1) % seats)]


# Deals whose par tables are among the cheapest to solve (the suite has no time to spare).
@pytest.mark.parametrize(
    ("variant", "seed"),
    [
        ("belote", 5),
        ("belote", 0),
        pytest.param("open_blot", 2, marks=pytest.mark.whole_deal_solves),
    ],
)
def test_the_shared_solvers_report_the_values_of_separate_ones(variant: str, seed: int) -> None:
    record = normal_deal(variant, random.Random(seed)).to_record()
    contracts = _contracts(record)
    got = analyse_record(record, seed=seed, samples=SAMPLES, exact_tricks=None, par=contracts)
    want = reference_analysis(record, seed, SAMPLES, None, contracts)
    assert got == want
    assert sum("exact" in step for step in got["steps"]) == 32 and len(got["par"]) == 2


@pytest.mark.whole_deal_solves
def test_a_whole_deal_with_its_par_table_is_analysed_as_before() -> None:
    # Every card's exact values and the whole par table (Open Blot: five trumps),
    # the played contract's solver shared by the cards and the table.
    record = normal_deal("open_blot", random.Random(6)).to_record()
    got = analyse_record(record, seed=1, samples=2)
    contracts = [(t, s) for t in range(5) for s in range(2)]
    assert got == reference_analysis(record, 1, 2, None, contracts)


def test_progress_is_told_after_every_action_and_the_parts_are_timed() -> None:
    record = normal_deal("belote", random.Random(5)).to_record()
    done: list[int] = []
    timings: dict[str, float] = {}
    analyse_record(
        record, seed=0, samples=2, exact_tricks=2, par=False, progress=done.append,
        timings=timings,
    )
    assert done == list(range(1, len(record.actions) + 1))
    assert set(timings) == {"honest", "exact", "nodes"}


def test_ready_is_told_everything_but_the_par_table_before_it_is_computed() -> None:
    # The site shows this much first; the par table then comes on top, and the
    # values are those of an analysis told nothing.
    record = normal_deal("belote", random.Random(5)).to_record()
    contracts = _contracts(record)[:1]
    first: list[dict[str, Any]] = []
    timings: dict[str, float] = {}

    def ready(values: dict[str, Any]) -> None:
        first.append(values)
        first.append(dict(timings))  # the parts timed when it was told

    got = analyse_record(
        record, seed=0, samples=2, exact_tricks=2, par=contracts, ready=ready, timings=timings
    )
    assert len(first) == 2 and "par" not in first[0] and "par" not in first[1]
    assert first[0] == {k: v for k, v in got.items() if k != "par"}
    assert got == analyse_record(record, seed=0, samples=2, exact_tricks=2, par=contracts)


def _brute(deal: Deal, side: int) -> int:
    """Card points ``side`` ends with under perfect play by everyone, by trying
    every legal card through the engine itself (no solver)."""
    if deal.phase != PLAYING:
        return deal.card_points[side]
    seat = deal.to_act
    assert seat is not None
    outcomes = []
    for action in deal.legal_actions():
        if action.type != PLAY:
            continue
        child = deal.clone()
        child.apply(action)
        outcomes.append(_brute(child, side))
    return max(outcomes) if seat % 2 == side else min(outcomes)


@pytest.mark.parametrize("variant", VARIANTS)
def test_exact_values_of_an_ending_are_those_of_trying_every_card(variant: str) -> None:
    # The last three tricks of a real deal: every legal card played, then every
    # line searched by the engine's own deal (Belote: 4^3 x 3^4 ... lines).
    record = normal_deal(variant, random.Random(6)).to_record()
    result = analyse_record(record, seed=0, samples=2, exact_tricks=3, par=False)
    deal = deal_from(record)
    checked = 0
    for index, raw in enumerate(record.actions):
        action = Action.from_dict(raw)
        step = next((s for s in result["steps"] if s["step"] == index), None)
        if step is not None and "exact" in step:
            seat = deal.to_act
            assert seat is not None
            for a in deal.legal_actions():
                if a.type != PLAY:
                    continue
                child = deal.clone()
                child.apply(a)
                assert step["exact"][CODES[a.card]] == _brute(child, seat % 2)  # type: ignore[index]
            checked += 1
        deal.apply(action)
    assert checked >= 3 * deal.seats - 2
