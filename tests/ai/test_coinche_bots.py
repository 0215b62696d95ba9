"""The bots in a coinche auction and its play (docs/rules.md §7.2-§7.4): always
legal, strong hands bid, and Hard's sampled deals agree with the auction."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import BID, COINCHE, DECLARE, PASS, PASS_ACTIONS, bid
from engine.ai import LEVELS, WorkBudget, decide
from engine.ai.sample import Sampler
from engine.ai.view import read
from engine.belote import BeloteDeal
from engine.cards import SUIT_MASKS, card, mask_of
from engine.deal import Deal, new_deal
from engine.layout import coinche_deal
from engine.observe import observe
from engine.rules import RuleSet
from engine.shuffle import shuffled_deck

COINCHE_RULES = RuleSet.build(
    "belote", {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True}
)
HEARTS = 2


def coinche_deck(dealer: int, hands: dict[int, str]) -> list[int]:
    """A coinche deck dealing ``hands`` (seat -> eight card codes; the seats left
    out share the remaining cards)."""
    piles = {s: [card(c) for c in codes.split()] for s, codes in hands.items()}
    rest = [c for c in range(32) if all(c not in p for p in piles.values())]
    for s in range(4):
        if s not in piles:
            piles[s], rest = rest[:8], rest[8:]
    deck = [piles[s].pop() for s in coinche_deal(dealer)]
    assert sorted(deck) == list(range(32)), "the hands must hold the 32 cards"
    return deck


def play_out(deal: Deal, levels: list[str], rng: random.Random) -> None:
    """Every seat asks its bot; each action must be among the legal ones."""
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        obs = observe(deal, seat)
        action = decide(levels[seat], obs, rng, budget=WorkBudget(0.001))
        assert action in obs.legal
        deal.apply(action)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    levels=st.lists(st.sampled_from(("easy", "normal")), min_size=4, max_size=4),
)
def test_easy_and_normal_only_ever_take_legal_actions_in_coinche_deals(
    seed: int, levels: list[str]
) -> None:
    rng = random.Random(seed)
    deal = new_deal(COINCHE_RULES, rng.randrange(4), shuffled_deck(rng))
    play_out(deal, levels, rng)
    assert deal.result() is not None


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_hard_only_ever_takes_legal_actions_in_coinche_deals(seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(COINCHE_RULES, rng.randrange(4), shuffled_deck(rng))
    play_out(deal, ["hard", "normal", "hard", "easy"], rng)
    assert deal.result() is not None


def test_every_level_announces_the_combinations_it_holds() -> None:
    # Seat 1 leads the first trick holding a tierce of spades and a carré of jacks.
    deck = coinche_deck(0, {1: "JC JD JH JS 9S TS 7C 8D"})
    for level in LEVELS:
        deal = new_deal(COINCHE_RULES, 0, deck)
        deal.apply(bid(1, 80, HEARTS))
        for seat in (2, 3, 0):
            deal.apply(PASS_ACTIONS[seat])
        announced = 0
        while True:
            action = decide(level, observe(deal, 1), random.Random(1), budget=WorkBudget(0.01))
            if action.type != DECLARE:
                break
            deal.apply(action)
            announced += 1
        assert announced == 2, level


STRONG = "JH 9H AH TH KH QH AS AC"


def test_every_level_bids_a_strong_hand() -> None:
    deal = new_deal(COINCHE_RULES, 0, coinche_deck(0, {1: STRONG}))
    for level in LEVELS:
        action = decide(level, observe(deal, 1), random.Random(2), budget=WorkBudget(0.02))
        assert action.type == BID, level
        assert action.trump == HEARTS or level == "hard", level


def test_normal_and_hard_bid_more_than_the_minimum_with_a_strong_hand() -> None:
    deal = new_deal(COINCHE_RULES, 0, coinche_deck(0, {1: STRONG}))
    for level in ("normal", "hard"):
        action = decide(level, observe(deal, 1), random.Random(2), budget=WorkBudget(0.02))
        assert action.type == BID and (action.value or 0) > 80, level


def test_a_weak_hand_passes_at_every_level() -> None:
    deal = new_deal(COINCHE_RULES, 0, coinche_deck(0, {1: "7C 8C 9D 8D 7H 8H 9S 8S"}))
    for level in ("easy", "normal"):
        assert decide(level, observe(deal, 1), random.Random(2)).type == PASS, level


def test_normal_coinches_a_contract_its_hand_breaks() -> None:
    deal = new_deal(COINCHE_RULES, 0, coinche_deck(0, {2: "JH 9H 8H AS TS AC AD TD"}))
    deal.apply(bid(1, 130, HEARTS))
    obs = observe(deal, 2)
    assert obs.can_coinche
    assert decide("normal", obs, random.Random(1)).type == COINCHE


def test_easy_never_coinches() -> None:
    deal = new_deal(COINCHE_RULES, 0, coinche_deck(0, {2: "JH 9H 8H AS TS AC AD TD"}))
    deal.apply(bid(1, 130, HEARTS))
    assert decide("easy", observe(deal, 2), random.Random(1)).type == PASS


def test_hard_samples_give_a_suit_bidder_its_trumps_and_keep_what_the_seat_sees() -> None:
    rng = random.Random(5)
    deal = new_deal(COINCHE_RULES, 0, shuffled_deck(rng))
    assert isinstance(deal, BeloteDeal)
    mine = deal.hands[0]
    assert (~mine & SUIT_MASKS[HEARTS]).bit_count() >= 3, "seat 1 must be able to hold 3"
    deal.apply(bid(1, 110, HEARTS))
    deal.apply(PASS_ACTIONS[2])
    deal.apply(PASS_ACTIONS[3])
    obs = observe(deal, 0)
    sampler = Sampler(obs, read(obs), obs.rules)
    for _ in range(200):
        sample = new_deal(COINCHE_RULES, 0, sampler.deck(rng))
        assert isinstance(sample, BeloteDeal)
        assert sample.hands[0] == mine
        assert (sample.hands[1] & SUIT_MASKS[HEARTS]).bit_count() >= 3
    # In the play too: seat 0 passes, seat 1 (the taker) leads, and seat 0's
    # samples still give seat 1 three hearts, counting the card it led.
    deal.apply(PASS_ACTIONS[0])
    while deal.to_act != 0:
        deal.apply(decide("normal", observe(deal, deal.to_act), rng))  # type: ignore[arg-type]
    obs = observe(deal, 0)
    led = sum(1 for s, c in obs.trick if s == 1 and c >> 3 == HEARTS)
    sampler = Sampler(obs, read(obs), obs.rules)
    for _ in range(200):
        sim = sampler.sim(rng)
        assert sim.hands[0] == mask_of(obs.hand)
        assert (sim.hands[1] & SUIT_MASKS[HEARTS]).bit_count() + led >= 3


def test_hard_samples_give_an_announcer_the_combination_whose_cards_are_hidden() -> None:
    from engine.announcements import TIERCE, combinations, kind_of

    rng = random.Random(8)
    deal = new_deal(COINCHE_RULES, 0, coinche_deck(0, {1: "7C 8C 9C KD 7H JS QS AH"}))
    deal.apply(bid(1, 80, 3))
    for seat in (2, 3, 0):
        deal.apply(PASS_ACTIONS[seat])
    tierce = next(a for a in deal.legal_actions() if a.type == DECLARE)
    deal.apply(tierce)
    deal.apply(decide("normal", observe(deal, 1), rng))
    obs = observe(deal, 2)
    assert [(d.kind, d.cards) for d in obs.declarations] == [(TIERCE, ())]
    sampler = Sampler(obs, read(obs), obs.rules)
    led = mask_of(c for s, c in obs.trick if s == 1)
    fits = 0
    for _ in range(100):
        dealt = sampler.sim(rng).hands[1] | led
        fits += any(kind_of(m) == TIERCE for m in combinations(dealt))
    assert fits >= 90
