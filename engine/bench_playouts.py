"""Random playouts per second: the engine's simulator against a bare bitmask loop.

The hard bot (and the honest values of the analysis) spend their time playing
deals to the end from a position. ``engine.ai.sim.Sim`` does it with the engine's
own legality (:func:`engine.tricks.legal_plays`), trick winners and scoring. The
yardstick, :func:`bare_playout`, is the least a Python playout can do: four (two)
hand masks in local variables, the duties written out inline, card points summed,
no scoring, no object. It exists only to be measured against; nothing plays with
it, and ``tests/ai/test_playout_bench.py`` checks it plays the very same cards as
the simulator (so the two loops do the same work).

Both loops draw each card the same way (:func:`pick`: one ``random()`` per card,
the n-th legal card), from the same start positions (the start of play of deals
bid by the normal bot), so the ratio measures the loop and nothing else.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.actions import BID, DECLARE, PASS, PLAY_ACTIONS
from engine.ai import decide
from engine.ai.hard import start_sim
from engine.ai.sim import NO_CARD, Sim
from engine.belote import BeloteDeal
from engine.cards import (
    ALL_TRUMP,
    BEATS,
    LAST_TRICK_BONUS,
    NO_TRUMP,
    POINTS,
    STRENGTH,
    SUIT_MASKS,
)
from engine.deal import Deal, new_deal
from engine.observe import observe
from engine.rules import BELOTE, OPEN_BLOT, RuleSet
from engine.shuffle import shuffled_deck


def pick(legal: int, r: float) -> int:
    """The legal card a uniform ``r`` in [0, 1) selects: the same draw for both loops."""
    for _ in range(int(r * legal.bit_count())):
        legal &= legal - 1
    return (legal & -legal).bit_length() - 1


#: The rule set of the coinche playouts: every Belote version 2 switch on.
COINCHE = {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True}


def start_positions(
    variant: str, count: int, seed: int = 1, overrides: dict[str, Any] | None = None
) -> list[tuple[Deal, Sim]]:
    """``count`` deals at the start of play and their simulators, dealt from seeded
    shuffles and bid by the normal bot (a deal everyone passed is dealt again). A
    coinche deal's auction is drawn instead, so every contract type comes up: the
    first seat bids a random value with the allowed trumps in turn (C D H S NT AT),
    the others pass."""
    rules = RuleSet.build(variant, overrides)
    rng = random.Random(seed)
    out: list[tuple[Deal, Sim]] = []
    while len(out) < count:
        deal = new_deal(rules, rng.randrange(rules.seats), shuffled_deck(rng))
        if isinstance(deal, BeloteDeal) and deal.coinche:
            trumps = sorted(deal.allowed_trumps)
            trump = trumps[len(out) % len(trumps)]
            while deal.phase == "bidding":
                legal = deal.legal_actions()
                bids = [a for a in legal if a.type == BID and a.trump == trump]
                deal.apply(rng.choice(bids[:5]) if bids else next(a for a in legal
                                                                   if a.type == PASS))
        while deal.phase == "bidding":
            deal.apply(decide("normal", observe(deal, deal.to_act), rng))
        sim = start_sim(deal)
        if sim is not None:
            out.append((deal, sim))
    return out


def engine_playout(start: Sim, rng: random.Random) -> tuple[int, int]:
    """Play a copy of ``start`` to the end with uniformly random legal cards, through
    the engine's simulator, and score it; returns the card points per side."""
    sim = start.copy()
    sim.random_playout(rng.random)
    sim.deal_points()
    return sim.points[0], sim.points[1]


def deal_playout(start: Deal, rng: random.Random) -> tuple[int, int]:
    """The same playout through the engine's public interface (:class:`Deal`:
    ``legal_actions``, ``apply`` with its events, the result), declaring every
    Open Blot combination as the simulator assumes."""
    deal = start.clone()
    rnd = rng.random
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        actions = deal.legal_actions()
        if actions[0].type == DECLARE:
            deal.apply(actions[0])
            continue
        deal.apply(PLAY_ACTIONS[seat][pick(deal.legal_play_mask(), rnd())])
    result = deal.result()
    assert result is not None and result.card_points is not None
    return result.card_points[0], result.card_points[1]


@dataclass(frozen=True)
class Bare:
    """A start position as the bare loop wants it: plain tuples."""

    seats: int
    trump: int
    hands: tuple[int, ...]
    under: tuple[int, ...]
    leader: int


def bare_of(sim: Sim) -> Bare:
    assert not sim.trick, "the bare loop starts at a trick's lead"
    return Bare(sim.seats, sim.trump, tuple(sim.hands), sim.under, sim.to_act)


def bare_playout(start: Bare, rng: random.Random) -> tuple[int, int]:
    """The yardstick: the same random playout written as one bare loop."""
    seats = start.seats
    trump = start.trump
    hands = list(start.hands)
    under = start.under
    points = POINTS[trump]
    strength = STRENGTH[trump]
    beats_t = BEATS[trump]
    trump_mask = SUIT_MASKS[trump] if trump < NO_TRUMP else 0
    # All trump: the led suit's duty to beat its best card holds in every suit.
    all_trump = trump == ALL_TRUMP
    rnd = rng.random
    leader = start.leader
    score = [0, 0]
    tricks = 32 // seats
    for t in range(tricks):
        seat = leader
        best = best_seat = -1
        led_suit = -1
        won = 0
        for i in range(seats):
            hand = hands[seat]
            if i == 0:
                legal = hand
            else:
                follow = hand & SUIT_MASKS[led_suit]
                if follow:
                    legal = follow
                    if led_suit == trump or all_trump:
                        legal = follow & beats_t[best] or follow
                elif not trump_mask or (seats == 4 and i >= 2 and best_seat == seat ^ 2):
                    legal = hand
                else:
                    trumps = hand & trump_mask
                    if not trumps:
                        legal = hand
                    elif best >> 3 == trump:
                        legal = trumps & beats_t[best] or trumps
                    else:
                        legal = trumps
            c = pick(legal, rnd())
            hands[seat] = hand & ~(1 << c)
            u = under[c]
            if u != NO_CARD:
                hands[seat] |= 1 << u
            if i == 0:
                led_suit = c >> 3
                best, best_seat = c, seat
            elif (c >> 3 == best >> 3 and strength[c] > strength[best]) or (
                c >> 3 == trump and best >> 3 != trump
            ):
                best, best_seat = c, seat
            won += points[c]
            seat = (seat + 1) % seats
        side = best_seat % 2
        score[side] += won
        if t == tricks - 1:
            score[side] += LAST_TRICK_BONUS
        leader = best_seat
    return score[0], score[1]


def measure(
    variant: str, seconds: float, positions: int = 50, seed: int = 1,
    overrides: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Playouts per second of each loop, taking turns in slices over the same
    positions and random streams, so that a change in the machine's load hits all;
    timed in this process's CPU time, so time spent waiting for a core is not counted."""
    starts = start_positions(variant, positions, seed, overrides)
    loops: dict[str, tuple[Callable[[Any, random.Random], tuple[int, int]], list[Any]]] = {
        "bare": (bare_playout, [bare_of(s) for _, s in starts]),
        "engine": (engine_playout, [s for _, s in starts]),
        "deal": (deal_playout, [d for d, _ in starts]),
    }
    counts = dict.fromkeys(loops, 0)
    spent = dict.fromkeys(loops, 0.0)
    end = time.perf_counter() + seconds
    round_ = 0
    while time.perf_counter() < end:
        for name, (playout, items) in loops.items():
            rng = random.Random(f"{seed}:{round_}")
            started = time.process_time()
            for item in items:
                playout(item, rng)
            spent[name] += time.process_time() - started
            counts[name] += len(items)
        round_ += 1
    rate = {name: counts[name] / spent[name] for name in loops}
    return {
        "bare_playouts_per_s": round(rate["bare"]),
        "engine_playouts_per_s": round(rate["engine"]),
        "ratio": round(rate["engine"] / rate["bare"], 3),
        "deal_playouts_per_s": round(rate["deal"]),
        "deal_ratio": round(rate["deal"] / rate["bare"], 3),
    }


def run(seconds: float) -> dict[str, Any]:
    """Each variant's playouts, and Belote's coinche deals beside classic Belote
    (``coinche_vs_classic``: the simulator's rate on coinche deals over its rate on
    classic ones)."""
    report: dict[str, Any] = {}
    for variant in (BELOTE, OPEN_BLOT):
        report[variant] = measure(variant, seconds)
        print(f"{variant} playouts: {report[variant]}", flush=True)
    report["coinche"] = measure(BELOTE, seconds, overrides=COINCHE)
    report["coinche"]["coinche_vs_classic"] = round(
        report["coinche"]["engine_playouts_per_s"] / report[BELOTE]["engine_playouts_per_s"], 3
    )
    print(f"coinche playouts: {report['coinche']}", flush=True)
    return report
