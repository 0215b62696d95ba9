"""Hard: sampled deals consistent with everything the seat knows, searched.

For each decision the bot draws deals from :class:`engine.ai.sample.Sampler`
(every card it cannot see placed where the play and the bidding allow, likelier
places more often) and scores each legal action on every sample: by a playout
with the normal bot's policy for all four (two) players, or, once few cards are
left, by exact alpha-beta search of the sample. The action with the best mean
deal-point margin wins (ties go to the normal bot's choice). Bids and the trump
choice use the same samples: each option is applied to a sampled deal, the
rest of the bidding is played by the normal bot's rules and the play by
playouts. Declarations are never a question: all of them are declared.

Determinism: the time budget is turned into a number of simulated card plays
(:data:`PLAYS_PER_SECOND`, measured on the reference machine), never read from
the clock, so the same seed gives the same choice on any machine and load.
"""

from __future__ import annotations

import random

from engine.actions import CHOOSE, DECLARE, PASS, PLAY, TAKE, Action
from engine.ai import normal
from engine.ai.sample import Sampler
from engine.ai.sim import Sim, rollout_value, search
from engine.ai.view import read
from engine.belote import BeloteDeal
from engine.deal import Deal, new_deal
from engine.declarations import Declaration
from engine.observe import Observation
from engine.open_blot import OpenBlotDeal

#: Simulated card plays (playout moves or search nodes) per second of budget.
PLAYS_PER_SECOND = 200_000
MIN_SAMPLES = 8
MAX_SAMPLES = 600
#: What building a sampled deal, and one bid option on it (replaying the log,
#: finishing the bidding, starting the simulator), cost in card plays: measured,
#: so that bidding decisions keep to the budget too.
DEAL_COST = 30
OPTION_COST = 30
#: Search exactly once at most this many cards are left to play (all seats).
EXACT_CARDS = {4: 12, 2: 10}


def decide(obs: Observation, rng: random.Random, budget_s: float) -> Action:
    if obs.phase == "play":
        for a in obs.legal:
            if a.type == DECLARE:
                return a  # declaring costs nothing and only the best combination scores
        return _play(obs, rng, budget_s)
    return _bid(obs, rng, budget_s)


def _play(obs: Observation, rng: random.Random, budget_s: float) -> Action:
    table = read(obs)
    sampler = Sampler(obs, table, obs.rules)
    plays = [a for a in obs.legal if a.type == PLAY]
    side = table.seat % 2
    favourite = normal.decide(obs)
    limit = budget_s * PLAYS_PER_SECOND
    totals = [0.0] * len(plays)
    work = 0
    samples = 0
    while samples < MAX_SAMPLES:
        sim = sampler.sim(rng)
        exact = sim.cards_left() <= EXACT_CARDS[sim.seats]
        for i, a in enumerate(plays):
            child = sim.copy()
            child.play(a.card)  # type: ignore[arg-type]
            value, units = search(child, side) if exact else rollout_value(child, side)
            totals[i] += value
            work += units + 1
        samples += 1
        if sampler.certain and exact:
            break
        if work >= limit and samples >= MIN_SAMPLES:
            break
    return _best(plays, totals, favourite)


def _best(actions: list[Action], totals: list[float], favourite: Action) -> Action:
    """The best total; among equals the normal bot's choice, then the first listed."""
    def key(i: int) -> tuple[float, bool, int]:
        return (round(totals[i], 6), actions[i] == favourite, -i)

    return actions[max(range(len(actions)), key=key)]


# --- bidding ----------------------------------------------------------------------------


def _bid(obs: Observation, rng: random.Random, budget_s: float) -> Action:
    table = read(obs)
    rules = obs.rules
    sampler = Sampler(obs, table, rules)
    side = table.seat % 2
    favourite = normal.decide(obs)
    options = list(obs.legal)
    limit = budget_s * PLAYS_PER_SECOND
    totals = [0.0] * len(options)
    work = 0
    samples = 0
    while samples < MAX_SAMPLES:
        deal = new_deal(rules, obs.dealer, sampler.deck(rng))
        for a in obs.history:
            deal.apply(a)
        work += DEAL_COST
        for i, a in enumerate(options):
            d = deal.clone()
            d.apply(a)
            _finish_bidding(d)
            sim = start_sim(d)
            work += OPTION_COST
            if sim is None:  # everybody passed: a void deal scores nothing
                continue
            value, units = rollout_value(sim, side)
            totals[i] += value
            work += units
        samples += 1
        if work >= limit and samples >= MIN_SAMPLES:
            break
    return _best(options, totals, favourite)


def _finish_bidding(deal: Deal) -> None:
    """Play out the rest of the bidding with the normal bot's rules."""
    while deal.phase == "bidding":
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions()
        if isinstance(deal, BeloteDeal):
            hand = deal.hands[seat] | 1 << deal.proposed
            choice = normal.belote_choice(hand, deal.proposed >> 3, deal.bid_round)
        else:
            assert isinstance(deal, OpenBlotDeal)
            may_pass = any(a.type == PASS for a in legal)
            choice = normal.open_blot_choice(
                deal.face_up[seat], deal.face_up[1 - seat], deal.bid_round, may_pass
            )
        deal.apply(_bid_action(legal, choice))


def _bid_action(legal: list[Action], choice: int | None) -> Action:
    for a in legal:
        if choice is None and a.type == PASS:
            return a
        if choice is not None and (a.type == TAKE or (a.type == CHOOSE and a.trump == choice)):
            return a
    return legal[0]


def start_sim(deal: Deal) -> Sim | None:
    """The simulator at the start of play of a concrete (sampled) deal; None if void."""
    if deal.is_over or deal.trump is None or deal.taker is None:
        return None
    assert deal.to_act is not None
    if isinstance(deal, BeloteDeal):
        return Sim(deal.rules, deal.trump, deal.taker, deal.hands[:], deal.to_act,
                   bonus_seat=deal.belote_seat)
    assert isinstance(deal, OpenBlotDeal)
    decls: list[Declaration] = []
    for s in (deal.to_act, 1 - deal.to_act):  # the leader declares first
        for d in normal.greedy_declarations(s, deal.face_up[s], deal.trump):
            decls.append(Declaration(s, d.cards, len(decls)))
    return Sim(deal.rules, deal.trump, deal.taker, deal.face_up[:], deal.to_act,
               under=deal.under, decls=decls, bonus_seat=deal.blot_seat())

