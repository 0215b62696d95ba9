"""Duplicate-deal arena: ``python -m engine.arena --variant belote --a hard --b normal``.

Each shuffled deck is played twice with the two sides' seats swapped (A on side
0 then on side 1, bots seeded alike), so the luck of the cards cancels and the
difference measures play. A deal's score is its deal points (docs/rules.md §2/§3/§7.2, via
the engine's scoring); a void deal scores 0 for both.

Reported, as the last line, one JSON object:

- ``points_per_deal``: the mean over decks of A's deal points minus B's, each deck
  averaged over its two plays; ``ci95`` its normal-approximation 95% interval;
- ``match_win_rate_a``: the deals of each seating are folded, in deck order, into
  consecutive matches in the variant's default format (Belote first to 1000, Open
  Blot first to 501) with :class:`engine.match.Match`; the share of completed
  matches won by A (null when none completed; a trailing unfinished match is
  dropped);
- ``decision_ms``: per player, the p50 and p95 time of real decisions (positions
  with two or more legal actions; forced moves are not decisions), on ``clock``.

Players: the bots' levels, and two that only the arena has:

- ``hard-work``: the hard bot with a fixed amount of work for its budget
  (:class:`~engine.ai.budget.WorkBudget`), which is how it was before its budget
  became a deadline: the yardstick for the deadline's cost or gain in strength;
- ``perfect``: a player that sees every card (:mod:`engine.perfect`), the
  ceiling the bots are measured against.

``--clock cpu`` puts the hard bot's deadline (and the decision times) on this
process's CPU time instead of the wall clock: on a busy machine that plays as the
bot would on a quiet one, to measure its strength when the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from engine.actions import Action
from engine.ai import DEFAULT_BUDGET_S, LEVELS, Deadline, WorkBudget, decide
from engine.deal import Deal, new_deal
from engine.match import Match, MatchFormat
from engine.observe import observe
from engine.perfect import PerfectPlayer
from engine.result import DealResult
from engine.rules import VARIANTS, RuleSet
from engine.shuffle import shuffled_deck


@dataclass
class PairOutcome:
    """One deck played with both seatings: ``results[k]`` has A on side ``k``."""

    index: int
    results: list[DealResult]
    diff: float
    times: dict[str, list[float]] = field(default_factory=dict)
    #: Per player: contracts taken, made, coinched by it, and of those, failed.
    contracts: dict[str, list[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Config:
    variant: str
    a: str
    b: str
    seed: int
    budget_s: float | None
    clock: str = "wall"
    #: Rule-setting overrides (``--rules``), as a deal record's ``rules``.
    rules: tuple[tuple[str, Any], ...] = ()

    def rule_set(self) -> RuleSet:
        return RuleSet.build(self.variant, dict(self.rules))


#: ``--rules`` presets: the rule sets the site offers beside the default one.
RULE_PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "announcements": {"announcements": True},
    "coinche": {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True},
}


def parse_rules(text: str) -> dict[str, Any]:
    """A preset name or a JSON object of rule settings; ``ValueError`` otherwise."""
    if text in RULE_PRESETS:
        return dict(RULE_PRESETS[text])
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict):
        names = ", ".join(RULE_PRESETS)
        raise ValueError(f"--rules takes a preset ({names}) or a JSON object, not {text!r}")
    return data


PLAYERS = (*LEVELS, "hard-work", "perfect")
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


class Seat:
    """One seat's player for one deal."""

    def __init__(self, cfg: Config, player: str, rng: random.Random,
                 perfect: PerfectPlayer | None) -> None:
        self.cfg, self.player, self.rng, self.perfect = cfg, player, rng, perfect

    def decide(self, deal: Deal) -> Action:
        if self.perfect is not None:
            return self.perfect.decide(deal)
        seat = deal.to_act
        assert seat is not None
        obs = observe(deal, seat)
        seconds = DEFAULT_BUDGET_S if self.cfg.budget_s is None else self.cfg.budget_s
        if self.player == "hard-work":
            return decide("hard", obs, self.rng, budget=WorkBudget(seconds))
        if self.player == "hard":
            budget = Deadline(seconds, clock=CLOCKS[self.cfg.clock])
            return decide("hard", obs, self.rng, budget=budget)
        return decide(self.player, obs, self.rng)


def deck_for(seed: int, index: int) -> list[int]:
    return shuffled_deck(random.Random(f"arena:{seed}:{index}"))


def play_deal(
    cfg: Config, index: int, a_side: int, times: dict[str, list[float]]
) -> DealResult:
    rules = cfg.rule_set()
    seats = rules.seats
    deal = new_deal(rules, index % seats, deck_for(cfg.seed, index))
    levels = [cfg.a if s % 2 == a_side else cfg.b for s in range(seats)]
    # One generator per seat, seeded by deck and seat only: the A bot in seat s
    # draws the same numbers whichever seating it plays in. A perfect side shares
    # one player (and its search table) between its seats.
    perfect = [PerfectPlayer(), PerfectPlayer()]
    players = [
        Seat(cfg, levels[s], random.Random(f"bot:{cfg.seed}:{index}:{s}:{levels[s]}"),
             perfect[s % 2] if levels[s] == "perfect" else None)
        for s in range(seats)
    ]
    clock = CLOCKS[cfg.clock]
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        real = len(deal.legal_actions()) > 1
        start = clock()
        action = players[seat].decide(deal)
        if real:
            times.setdefault(levels[seat], []).append(clock() - start)
        deal.apply(action)
    result = deal.result()
    assert result is not None
    return result


def a_minus_b(result: DealResult, a_side: int) -> int:
    if result.void or result.deal_points is None:
        return 0
    return result.deal_points[a_side] - result.deal_points[1 - a_side]


def play_pair(job: tuple[Config, int]) -> PairOutcome:
    cfg, index = job
    times: dict[str, list[float]] = {}
    results = [play_deal(cfg, index, side, times) for side in (0, 1)]
    diff = sum(a_minus_b(r, side) for side, r in enumerate(results)) / 2
    contracts: dict[str, list[int]] = {}
    for a_side, r in enumerate(results):
        side0, side1 = (cfg.a, cfg.b) if a_side == 0 else (cfg.b, cfg.a)
        count_contract(contracts, r, side0, side1)
    return PairOutcome(index, results, diff, times, contracts)


def count_contract(
    counts: dict[str, list[int]], result: DealResult, side0: str, side1: str
) -> None:
    """Add one deal to ``counts[player] = [taken, made, coinched, coinches won]``."""
    if result.void or result.taker is None:
        return
    takers = result.taker % 2
    taker, defender = (side0, side1) if takers == 0 else (side1, side0)
    made = result.outcome == "made"
    row = counts.setdefault(taker, [0, 0, 0, 0])
    row[0] += 1
    row[1] += made
    contract = result.to_dict().get("contract")
    if contract and contract.get("multiplier", 1) > 1:
        row = counts.setdefault(defender, [0, 0, 0, 0])
        row[2] += 1
        row[3] += not made


def run_pairs(cfg: Config, deals: int, jobs: int) -> Iterator[PairOutcome]:
    work = [(cfg, i) for i in range(deals)]
    if jobs <= 1:
        yield from map(play_pair, work)
        return
    with Pool(jobs) as pool:
        yield from pool.imap_unordered(play_pair, work, chunksize=1)


def match_win_rate(variant: str, outcomes: list[PairOutcome]) -> tuple[float | None, int]:
    fmt = MatchFormat.default(variant)
    seats = RuleSet.build(variant).seats
    won = played = 0
    for a_side in (0, 1):
        match: Match | None = None
        for o in outcomes:
            if match is None:
                match = Match(variant, fmt, o.index % seats)
            match.add_deal(o.results[a_side])
            if match.is_over:
                played += 1
                won += match.winner == a_side
                match = None
    return (won / played if played else None), played


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def progress(done: int, total: int, mean: float, started: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / max(time.perf_counter() - started, 1e-9)
    eta = (total - done) / rate if rate else 0.0
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals"
        f"  A-B {mean:+.1f}/deal  eta {eta:4.0f}s "
    )
    sys.stderr.flush()


def summarize(cfg: Config, outcomes: list[PairOutcome]) -> dict[str, Any]:
    n = len(outcomes)
    diffs = [o.diff for o in outcomes]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    times: dict[str, list[float]] = {}
    for o in outcomes:
        for level, ts in o.times.items():
            times.setdefault(level, []).extend(ts)
    rate, _ = match_win_rate(cfg.variant, outcomes)
    counts: dict[str, list[int]] = {}
    for o in outcomes:
        for player, row in o.contracts.items():
            total = counts.setdefault(player, [0, 0, 0, 0])
            for i, x in enumerate(row):
                total[i] += x
    return {
        "variant": cfg.variant,
        "rules": dict(cfg.rules),
        "a": cfg.a,
        "b": cfg.b,
        "deals": n,
        "clock": cfg.clock,
        "points_per_deal": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "match_win_rate_a": None if rate is None else round(rate, 3),
        "decision_ms": {
            level: {
                "p50": round(percentile(ts, 0.5) * 1000, 3),
                "p95": round(percentile(ts, 0.95) * 1000, 3),
            }
            for level, ts in sorted(times.items())
            if ts
        },
        "contracts": {
            player: {
                "taken": row[0],
                "made": row[1],
                "made_rate": round(row[1] / row[0], 3) if row[0] else None,
                "made_ci95": _share_interval(row[1], row[0]),
                "coinched": row[2],
                "coinches_won": row[3],
            }
            for player, row in sorted(counts.items())
        },
    }


def _share_interval(k: int, n: int) -> list[float] | None:
    """The Wilson 95% interval of the share ``k / n``."""
    if not n:
        return None
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 3), round(centre + half, 3)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=VARIANTS, default="belote")
    parser.add_argument("--a", choices=PLAYERS, required=True, help="player of side A")
    parser.add_argument("--b", choices=PLAYERS, required=True, help="player of side B")
    parser.add_argument("--deals", type=int, default=400, help="decks, each played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds per hard decision (default: the bot's own)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="stop starting new deals after this long; report those played")
    parser.add_argument("--rules", default="default",
                        help="rule settings: a preset (" + ", ".join(RULE_PRESETS)
                        + ") or a JSON object, e.g. '{\"coinche\": true}'")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="the clock of hard's deadline and of the decision times")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        rules = parse_rules(args.rules)
        RuleSet.build(args.variant, rules)
    except ValueError as exc:  # RuleSetError is a ValueError
        parser.error(str(exc))
    cfg = Config(args.variant, args.a, args.b, args.seed, args.budget, args.clock,
                 tuple(sorted(rules.items())))
    outcomes: list[PairOutcome] = []
    total = 0.0
    started = time.perf_counter()
    shown = 0.0
    for o in run_pairs(cfg, args.deals, max(1, args.jobs)):
        outcomes.append(o)
        total += o.diff
        now = time.perf_counter()
        if now - shown >= 0.2 or len(outcomes) == args.deals:
            shown = now
            progress(len(outcomes), args.deals, total / len(outcomes), started)
        if args.seconds is not None and now - started >= args.seconds:
            break  # the decks are independent: those played are a fair sample
    sys.stderr.write("\n")
    outcomes.sort(key=lambda o: o.index)
    report = summarize(cfg, outcomes)
    _, matches = match_win_rate(cfg.variant, outcomes)
    lo, hi = report["ci95"]
    print(f"{cfg.variant}: {cfg.a} (A) vs {cfg.b} (B), {report['deals']} duplicate deals "
          f"in {time.perf_counter() - started:.0f}s")
    print(f"  A minus B: {report['points_per_deal']:+.2f} points/deal"
          f" (95% CI {lo:+.2f} .. {hi:+.2f})")
    rate = report["match_win_rate_a"]
    print(f"  matches won by A: {'n/a' if rate is None else f'{rate:.1%}'} of {matches}")
    for level, t in report["decision_ms"].items():
        print(f"  {level} decision time: p50 {t['p50']:.2f} ms, p95 {t['p95']:.2f} ms")
    for player, c in report["contracts"].items():
        made = "n/a" if c["made_rate"] is None else f"{c['made_rate']:.1%}"
        print(f"  {player} contracts: {c['made']} made of {c['taken']} ({made});"
              f" coinched {c['coinched']}, of which {c['coinches_won']} failed")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
