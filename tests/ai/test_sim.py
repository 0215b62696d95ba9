"""The hard bot's lean simulator agrees with the engine move by move and on the
final score (it reuses the engine's legality and scoring, this checks the glue)."""

from __future__ import annotations

import random

import pytest

from engine.actions import DECLARE, PLAY_ACTIONS
from engine.ai import decide
from engine.ai.hard import start_sim
from engine.deal import new_deal
from engine.observe import observe
from engine.rules import VARIANTS, RuleSet
from engine.shuffle import shuffled_deck

COINCHE = {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True}


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [*((v, {}) for v in VARIANTS), ("belote", {"announcements": True}), ("belote", COINCHE)],
)
def test_simulator_plays_and_scores_like_the_engine(
    variant: str, overrides: dict[str, bool]
) -> None:
    rng = random.Random(11)
    rules = RuleSet.build(variant, overrides)
    played = 0
    while played < 30:
        deal = new_deal(rules, rng.randrange(rules.seats), shuffled_deck(rng))
        while deal.phase == "bidding":
            deal.apply(decide("normal", observe(deal, deal.to_act), rng))
        sim = start_sim(deal)
        if sim is None:
            continue
        while not deal.is_over:
            declares = [a for a in deal.legal_actions() if a.type == DECLARE]
            if declares:  # the simulator assumes everything available is declared
                deal.apply(declares[0])
                continue
            assert sim.to_act == deal.to_act
            assert sim.legal() == deal.legal_play_mask()
            card = rng.choice([c for c in range(32) if sim.legal() >> c & 1])
            deal.apply(PLAY_ACTIONS[deal.to_act][card])  # type: ignore[index]
            sim.play(card)
        result = deal.result()
        assert result is not None and sim.over
        assert tuple(result.deal_points or ()) == sim.deal_points()
        played += 1
