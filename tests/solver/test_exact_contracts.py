"""The exact solver on all-trump and no-trump contracts (docs/rules.md §7.3): every
card value against the brute force of :mod:`tests.solver.test_exact`, over
endings of coinche deals reached by a random auction and random legal cards."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import DealRecord, RuleSet, new_deal, shuffled_deck
from engine.actions import PLAY, bid
from engine.cards import ALL_TRUMP, CODES, NO_TRUMP, cards_in
from engine.deal import PLAYING, Deal
from engine.solver.solve import card_values, par_table, solve_record
from tests.solver.test_exact import brute_force_values

COINCHE = RuleSet.build(
    "belote", {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True}
)


def contract_ending(trump: int, seed: int, tricks_left: int, mid_trick: int) -> Deal:
    """A coinche deal with ``trump`` as contract, in play with ``tricks_left`` tricks
    to go (``mid_trick`` cards of the current one played), by random legal cards."""
    rng = random.Random(seed)
    deal = new_deal(COINCHE, rng.randrange(4), shuffled_deck(rng))
    assert deal.to_act is not None
    deal.apply(bid(deal.to_act, rng.choice([80, 120, 160]), trump))
    while deal.phase != PLAYING:
        deal.apply(rng.choice([a for a in deal.legal_actions() if a.type in ("pass", "coinche")]))
    played = 0
    while played < 32 - 4 * tricks_left + mid_trick:
        action = rng.choice(deal.legal_actions())
        deal.apply(action)
        played += action.type == PLAY
    while deal.legal_actions()[0].type != PLAY:
        deal.apply(deal.legal_actions()[0])  # an announcement changes no card
    return deal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    trump=st.sampled_from([ALL_TRUMP, NO_TRUMP, 2]),
    seed=st.integers(0, 2**32),
    tricks_left=st.integers(1, 3),
    mid_trick=st.integers(0, 3),
)
def test_every_card_value_equals_brute_force_in_every_contract_type(
    trump: int, seed: int, tricks_left: int, mid_trick: int
) -> None:
    deal = contract_ending(trump, seed, tricks_left, mid_trick)
    assert deal.trump == trump
    assert card_values(deal) == brute_force_values(deal)


def test_four_trick_all_trump_and_no_trump_endings_equal_brute_force() -> None:
    rng = random.Random(35)
    for trump in (ALL_TRUMP, NO_TRUMP):
        for _ in range(3):
            deal = contract_ending(trump, rng.randrange(2**32), 4, rng.randrange(4))
            assert card_values(deal) == brute_force_values(deal)


def test_a_coinche_deals_par_table_has_every_allowed_trump_and_matches_the_play() -> None:
    deal = contract_ending(ALL_TRUMP, 7, 8, 0)
    assert deal.taker is not None
    record = deal.to_record()
    table = par_table(record)
    assert {t for t, _ in table} == {0, 1, 2, 3, NO_TRUMP, ALL_TRUMP}
    lead = {"seat": deal.to_act, "type": "play",
            "card": CODES[min(cards_in(deal.legal_play_mask()))]}
    played = DealRecord.from_dict({**record.to_dict(), "actions": [*record.actions, lead]})
    first = next(solve_record(played))
    best = max(first.values.values())
    taker_side = deal.taker % 2
    expected = best if first.seat % 2 == taker_side else 162 - best
    assert table[(ALL_TRUMP, deal.taker)] == expected
