"""Bots are honest by construction: re-dealing every card a seat cannot see,
keeping all it can see identical, never changes its choice (same seed)."""

from __future__ import annotations

import random

import pytest

from engine.ai import LEVELS, WorkBudget, decide
from engine.deal import Deal, new_deal
from engine.errors import IllegalAction
from engine.observe import Observation, observe
from engine.rules import VARIANTS, RuleSet
from engine.shuffle import shuffled_deck

COINCHE = {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True}


def _positions(
    variant: str, count: int, seed: int, overrides: dict[str, bool] | None = None
) -> list[Deal]:
    rng = random.Random(seed)
    rules = RuleSet.build(variant, overrides)
    out: list[Deal] = []
    while len(out) < count:
        deal = new_deal(rules, rng.randrange(rules.seats), shuffled_deck(rng))
        stop = rng.randrange(0, 36)
        for _ in range(stop):
            if deal.is_over:
                break
            deal.apply(decide("normal", observe(deal, deal.to_act), rng))
        if not deal.is_over and len(deal.legal_actions()) >= 2:
            out.append(deal)
    return out


def _visible(obs: Observation) -> set[int]:
    seen = set(obs.hand)
    if obs.proposed is not None:
        seen.add(obs.proposed)
    for row in obs.stacks:
        seen.update(c for c, _ in row if c is not None)
    seen.update(c for _, c in obs.trick)
    for a in obs.history:
        if a.card is not None:
            seen.add(a.card)
    return seen


def _redeal(deal: Deal, seat: int, rng: random.Random) -> Deal | None:
    """Another deal the seat cannot tell apart from ``deal``, or None if the tries
    to find a consistent one failed. Every card the seat has not seen (other hands,
    the undealt cards, face-down cards) is shuffled among those places; the log
    must replay legally and the seat's observation must come out identical."""
    obs = observe(deal, seat)
    seen = _visible(obs)
    hidden = [i for i, c in enumerate(deal.deck) if c not in seen]
    for _ in range(40):
        cards = [deal.deck[i] for i in hidden]
        rng.shuffle(cards)
        deck = list(deal.deck)
        for i, c in zip(hidden, cards, strict=True):
            deck[i] = c
        if deck == list(deal.deck):
            continue
        twin = new_deal(deal.rules, deal.dealer, deck)
        try:
            for a in deal.history:
                twin.apply(a)
        except IllegalAction:
            continue
        if observe(twin, seat) == obs:
            return twin
    return None


@pytest.mark.parametrize(
    ("variant", "overrides"), [*((v, {}) for v in VARIANTS), ("belote", COINCHE)]
)
def test_choices_do_not_depend_on_cards_the_seat_cannot_see(
    variant: str, overrides: dict[str, bool]
) -> None:
    rng = random.Random(42)
    checked = 0
    for deal in _positions(variant, 10, seed=7, overrides=overrides):
        seat = deal.to_act
        assert seat is not None
        twin = _redeal(deal, seat, rng)
        if twin is None:
            continue
        assert twin.deck != deal.deck
        seen, other = observe(deal, seat), observe(twin, seat)
        assert seen == other
        for level in LEVELS:
            # A fixed amount of work: with a deadline the search's depth would
            # depend on the machine, and the comparison on luck.
            mine = decide(level, seen, random.Random(3), budget=WorkBudget(0.02))
            theirs = decide(level, other, random.Random(3), budget=WorkBudget(0.02))
            assert mine == theirs, (level, seen.phase)
            assert mine in seen.legal
        checked += 1
    assert checked >= 6
