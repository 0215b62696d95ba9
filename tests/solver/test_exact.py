"""The exact solver against a brute-force minimax over the engine's own deal.

The brute force knows nothing of the solver: it clones the engine's
:class:`~engine.deal.Deal`, applies every legal card through the public
interface and takes the max (the acting side's points) at every node, with no
pruning, no table and no merged cards. Endings of one to four tricks are drawn at
random (random bidding, random legal play up to that point), in both variants.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RuleSet, new_deal, shuffled_deck
from engine.actions import PLAY
from engine.deal import PLAYING, Deal
from engine.rules import BELOTE, OPEN_BLOT
from engine.solvebench import normal_deal
from engine.solver.solve import card_values, par_table, solve_record


def random_ending(variant: str, seed: int, tricks_left: int, mid_trick: int) -> Deal:
    """A deal in play with ``tricks_left`` tricks to go (``mid_trick`` cards of the
    current one already played), reached by random bids and random legal cards."""
    rng = random.Random(seed)
    rules = RuleSet.build(variant)
    while True:
        deal = new_deal(rules, rng.randrange(rules.seats), shuffled_deck(rng))
        while deal.phase == "bidding":
            legal = deal.legal_actions()
            bids = [a for a in legal if a.type != "pass"]
            deal.apply(rng.choice(bids) if bids and rng.random() < 0.4 else rng.choice(legal))
        if deal.phase != PLAYING:
            continue  # everybody passed
        target = 32 - tricks_left * rules.seats + mid_trick
        played = 0
        while played < target:
            action = rng.choice(deal.legal_actions())
            deal.apply(action)
            played += action.type == PLAY
        while deal.legal_actions()[0].type != PLAY:
            deal.apply(deal.legal_actions()[0])  # Open Blot: declare, it changes no card
        return deal


def brute_force(deal: Deal, side: int) -> int:
    """``side``'s card points at the end with perfect play by all, by exhaustion."""
    if deal.is_over:
        return deal.card_points[side]
    assert deal.to_act is not None
    mine = deal.to_act % 2 == side
    values = []
    for action in deal.legal_actions():
        if action.type != PLAY:
            continue
        child = deal.clone()
        child.apply(action)
        values.append(brute_force(child, side))
    return max(values) if mine else min(values)


def brute_force_values(deal: Deal) -> dict[int, int]:
    assert deal.to_act is not None
    side = deal.to_act % 2
    out = {}
    for action in deal.legal_actions():
        if action.type == PLAY:
            child = deal.clone()
            child.apply(action)
            assert action.card is not None
            out[action.card] = brute_force(child, side)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from([BELOTE, OPEN_BLOT]),
    seed=st.integers(0, 2**32),
    tricks_left=st.integers(1, 3),
    mid_trick=st.integers(0, 3),
)
def test_every_card_value_equals_brute_force_on_short_endings(
    variant: str, seed: int, tricks_left: int, mid_trick: int
) -> None:
    seats = 4 if variant == BELOTE else 2
    deal = random_ending(variant, seed, tricks_left, mid_trick % seats)
    assert card_values(deal) == brute_force_values(deal)


def test_every_card_value_equals_brute_force_on_four_trick_endings() -> None:
    rng = random.Random(26)
    for variant in (BELOTE, OPEN_BLOT):
        seats = 4 if variant == BELOTE else 2
        for _ in range(6 if variant == BELOTE else 25):
            deal = random_ending(variant, rng.randrange(2**32), 4, rng.randrange(seats))
            assert card_values(deal) == brute_force_values(deal)


def test_the_par_of_the_contract_played_is_its_first_decisions_best_value() -> None:
    for variant in (BELOTE, OPEN_BLOT):
        deal = normal_deal(variant, random.Random(9))
        assert deal.trump is not None and deal.taker is not None
        record = deal.to_record()
        first = next(solve_record(record))
        best = max(first.values.values())
        taker_side = deal.taker % 2
        expected = best if first.seat % 2 == taker_side else 162 - best
        assert par_table(record, [(deal.trump, deal.taker)]) == {(deal.trump, deal.taker): expected}
