"""Hard: sampled deals consistent with everything the seat knows, searched.

For each decision the bot draws deals from :class:`engine.ai.sample.Sampler`
(every card it cannot see placed where the play and the bidding allow, likelier
places more often) and scores each legal action on every sample: by a playout
with the normal bot's policy for all four (two) players, or, once few cards are
left, by exact alpha-beta search of the sample. The action with the best mean
deal-point margin wins (ties go to the normal bot's choice). Bids and the trump
choice use the same samples: each option is applied to a sampled deal, the
rest of the bidding is played by the normal bot's rules and the play by
playouts. In a coinche auction the options are a few candidates around the
normal bot's call (:func:`coinche_candidates`), and the samples follow the
auction (:mod:`engine.ai.sample`). Declarations are never a question: all of
them are declared (docs/DECISIONS.md P-30).

The search is anytime and its budget (:mod:`engine.ai.budget`) says when to
stop: by default a deadline on the clock, checked after every playout and every
few dozen nodes of an exact search, so a decision keeps to its time however busy
the machine is; or a fixed amount of work (:class:`~engine.ai.budget.WorkBudget`),
read from no clock, so that the same seed gives the same choice on any machine.
"""

from __future__ import annotations

import random

from engine.actions import BID, CHOOSE, COINCHE, DECLARE, PASS, PLAY, SURCOINCHE, TAKE, Action
from engine.ai import auction, normal
from engine.ai.budget import Budget, Deadline, OutOfTime
from engine.ai.sample import Sampler, announce_all
from engine.ai.sim import Sim, rollout_value, search
from engine.ai.view import read
from engine.belote import BeloteDeal
from engine.cards import mask_of
from engine.deal import Deal, new_deal
from engine.declarations import Declaration
from engine.observe import Observation
from engine.open_blot import OpenBlotDeal

MAX_SAMPLES = 600
#: What building a sampled deal, and one bid option on it (replaying the log,
#: finishing the bidding, starting the simulator), cost in card plays: measured,
#: so that bidding decisions keep to the budget too.
DEAL_COST = 30
OPTION_COST = 30
#: Search exactly once at most this many cards are left to play (all seats).
EXACT_CARDS = {4: 12, 2: 10}


def decide(obs: Observation, rng: random.Random, budget: float | Budget) -> Action:
    """The hard bot's action; ``budget`` in seconds is a :class:`Deadline` from now."""
    if isinstance(budget, int | float):
        budget = Deadline(budget)
    if obs.phase == "play":
        for a in obs.legal:
            if a.type == DECLARE:
                return a  # declaring costs nothing and only the best combination scores
        return _play(obs, rng, budget)
    if obs.rules.coinche:
        return _coinche_bid(obs, rng, budget)
    return _bid(obs, rng, budget)


def _play(obs: Observation, rng: random.Random, budget: Budget) -> Action:
    table = read(obs)
    sampler = Sampler(obs, table, obs.rules)
    plays = [a for a in obs.legal if a.type == PLAY]
    side = table.seat % 2
    favourite = normal.decide(obs)
    totals = [0.0] * len(plays)
    samples = 0
    try:
        while samples < MAX_SAMPLES:
            sim = sampler.sim(rng)
            exact = sim.cards_left() <= EXACT_CARDS[sim.seats]
            values = []
            for a in plays:
                if budget.out():
                    raise OutOfTime
                child = sim.copy()
                child.play(a.card)  # type: ignore[arg-type]
                value, units = search(child, side, budget) if exact else rollout_value(child, side)
                values.append(value)
                budget.spend(units + 1)
            for i, value in enumerate(values):  # only complete samples count
                totals[i] += value
            samples += 1
            if sampler.certain and exact:
                break
            if budget.enough(samples):
                break
    except OutOfTime:
        pass
    return _best(plays, totals, favourite)


def _best(actions: list[Action], totals: list[float], favourite: Action) -> Action:
    """The best total; among equals the normal bot's choice, then the first listed."""
    def key(i: int) -> tuple[float, bool, int]:
        return (round(totals[i], 6), actions[i] == favourite, -i)

    return actions[max(range(len(actions)), key=key)]


# --- bidding ----------------------------------------------------------------------------


def _bid(obs: Observation, rng: random.Random, budget: Budget) -> Action:
    table = read(obs)
    rules = obs.rules
    sampler = Sampler(obs, table, rules)
    side = table.seat % 2
    favourite = normal.decide(obs)
    options = list(obs.legal)
    totals = [0.0] * len(options)
    samples = 0
    try:
        while samples < MAX_SAMPLES:
            deal = new_deal(rules, obs.dealer, sampler.deck(rng))
            for a in obs.history:
                deal.apply(a)
            budget.spend(DEAL_COST)
            values = []
            for a in options:
                if budget.out():
                    raise OutOfTime
                d = deal.clone()
                d.apply(a)
                finish_bidding(d)
                sim = start_sim(d)
                budget.spend(OPTION_COST)
                if sim is None:  # everybody passed: a void deal scores nothing
                    values.append(0.0)
                    continue
                value, units = rollout_value(sim, side)
                values.append(value)
                budget.spend(units)
            for i, value in enumerate(values):  # only complete samples count
                totals[i] += value
            samples += 1
            if budget.enough(samples):
                break
    except OutOfTime:
        pass
    return _best(options, totals, favourite)


#: Hard leaves the normal bot's call only for one whose sampled mean beats it by
#: this many deal points (the samples are few and a deal's points spread widely).
CALL_MARGIN = 15.0


def coinche_candidates(obs: Observation, favourite: Action) -> list[Action]:
    """The calls worth sampling: the normal bot's, pass, coinche or surcoinche when
    legal, and the best trump's bids just below, at and above what the hand is
    worth (those that are legal)."""
    assert obs.seat is not None
    hand = mask_of(obs.hand)
    calls = auction.calls_of(obs.history)
    out = [favourite]

    def add(a: Action | None) -> None:
        if a is not None and a not in out:
            out.append(a)

    by_type = {a.type: a for a in obs.legal if a.type in (PASS, COINCHE, SURCOINCHE)}
    for kind in (PASS, COINCHE, SURCOINCHE):
        add(by_type.get(kind))
    trumps = auction.bid_trumps(obs.legal)
    if trumps:
        best = max(trumps, key=lambda t: auction.estimate(hand, t, calls, obs.seat))  # type: ignore[arg-type]
        worth = auction.estimate(hand, best, calls, obs.seat)
        centre = int(worth // 10) * 10
        for value in (centre - 10, centre, centre + 10):
            for a in obs.legal:
                if a.type == BID and a.trump == best and a.value == value:
                    add(a)
    return out


def _coinche_bid(obs: Observation, rng: random.Random, budget: Budget) -> Action:
    """Sample deals consistent with the hand and the auction, finish each auction
    with the normal bot's calls after each candidate, play it out, and keep the
    normal call unless another one's mean margin is clearly better."""
    favourite = normal.decide(obs)
    options = coinche_candidates(obs, favourite)
    if len(options) == 1:
        return favourite
    table = read(obs)
    sampler = Sampler(obs, table, obs.rules)
    side = table.seat % 2
    totals = [0.0] * len(options)
    samples = 0
    try:
        while samples < MAX_SAMPLES:
            deal = new_deal(obs.rules, obs.dealer, sampler.deck(rng))
            for a in obs.history:
                deal.apply(a)
            budget.spend(DEAL_COST)
            values = []
            for a in options:
                if budget.out():
                    raise OutOfTime
                d = deal.clone()
                d.apply(a)
                finish_bidding(d)
                sim = start_sim(d)
                budget.spend(OPTION_COST)
                if sim is None:
                    values.append(0.0)
                    continue
                value, units = rollout_value(sim, side)
                values.append(value)
                budget.spend(units)
            for i, value in enumerate(values):
                totals[i] += value
            samples += 1
            if budget.enough(samples):
                break
    except OutOfTime:
        pass
    if not samples:
        return favourite
    best = max(range(len(options)), key=lambda i: (totals[i], -i))
    if totals[best] - totals[0] > CALL_MARGIN * samples:
        return options[best]
    return favourite


def finish_bidding(deal: Deal) -> None:
    """Play out the rest of the bidding with the normal bot's rules."""
    while deal.phase == "bidding":
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions()
        if isinstance(deal, BeloteDeal) and deal.coinche:
            calls = auction.calls_of(deal.auction)
            deal.apply(auction.normal_call(deal.hands[seat], seat, calls, legal))
            continue
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
        high = deal.high_bid
        contract = None
        if deal.coinche:
            assert high is not None and high.value is not None
            contract = (high.value, deal.multiplier)
        announced = (0, 0)
        if deal.rules.announcements:
            # Everyone will announce every combination (as the bots do).
            announced = announce_all(deal.hands, deal.to_act, deal.trump)
        sides = tuple(seat % 2 for seat in deal.belote_by_suit if seat is not None)
        return Sim(deal.rules, deal.trump, deal.taker, deal.hands[:], deal.to_act,
                   bonus_seat=deal.belote_seat, contract=contract, announced=announced,
                   belote_sides=sides)
    assert isinstance(deal, OpenBlotDeal)
    decls: list[Declaration] = []
    for s in (deal.to_act, 1 - deal.to_act):  # the leader declares first
        for d in normal.greedy_declarations(s, deal.face_up[s], deal.trump):
            decls.append(Declaration(s, d.cards, len(decls)))
    return Sim(deal.rules, deal.trump, deal.taker, deal.face_up[:], deal.to_act,
               under=deal.under, decls=decls, bonus_seat=deal.blot_seat())

