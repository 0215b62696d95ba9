"""An observation survives its JSON form: ``observation_from_dict`` rebuilds the
very observation ``to_dict`` wrote, at every step of random deals, for every
seat and for a spectator, so a bot playing through the Bot API decides from the
same observation as the site's own bots."""

from __future__ import annotations

import json
import random

import pytest

from engine import RuleSet, new_deal
from engine.ai import decide
from engine.observe import observe
from engine.observe_json import observation_from_dict
from engine.shuffle import shuffled_deck


@pytest.mark.parametrize("variant", ["belote", "open_blot"])
@pytest.mark.parametrize("seed", range(4))
def test_an_observation_comes_back_from_its_json_equal(variant, seed) -> None:
    rng = random.Random(seed)
    rules = RuleSet.build(variant)
    deal = new_deal(rules, rng.randrange(rules.seats), shuffled_deck(rng))
    steps = 0
    while not deal.is_over:
        for seat in [*range(rules.seats), None]:
            obs = observe(deal, seat)
            back = observation_from_dict(json.loads(json.dumps(obs.to_dict())))
            assert back == obs
        mover = observe(deal, deal.to_act)
        choice = decide("normal", mover, random.Random(steps))
        # The same decision from the rebuilt observation.
        rebuilt = observation_from_dict(mover.to_dict())
        assert decide("normal", rebuilt, random.Random(steps)) == choice
        deal.apply(rng.choice(mover.legal))
        steps += 1
    assert steps > 8
    for seat in range(rules.seats):  # the finished deal, with its result
        obs = observe(deal, seat)
        assert obs.result is not None
        assert observation_from_dict(json.loads(json.dumps(obs.to_dict()))) == obs


def test_it_refuses_what_is_not_an_observation() -> None:
    rules = RuleSet.build("open_blot")
    data = observe(new_deal(rules, 0, shuffled_deck(random.Random(1))), 0).to_dict()
    data["hand"] = ["ZZ"]
    with pytest.raises(ValueError):
        observation_from_dict(data)
    data["hand"] = []
    del data["stacks"]
    with pytest.raises(KeyError):
        observation_from_dict(data)


@pytest.mark.parametrize("seed", range(4))
def test_a_coinche_observation_comes_back_from_its_json_equal(seed) -> None:
    """Auction, contract, announcements (hidden ones included) and belote per suit."""
    rng = random.Random(seed)
    rules = RuleSet.build(
        "belote", {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True}
    )
    deal = new_deal(rules, rng.randrange(4), shuffled_deck(rng))
    deal.apply(next(a for a in deal.legal_actions() if a.type == "bid"))
    while not deal.is_over:
        for seat in [0, 1, 2, 3, None]:
            obs = observe(deal, seat)
            assert observation_from_dict(json.loads(json.dumps(obs.to_dict()))) == obs
        legal = deal.legal_actions()
        calls = [a for a in legal if a.type in ("pass", "coinche", "surcoinche", "declare")]
        deal.apply(calls[0] if calls and rng.random() < 0.7 else rng.choice(legal))
    obs = observe(deal, 0)
    assert obs.contract is not None and obs.result is not None
    assert observation_from_dict(json.loads(json.dumps(obs.to_dict()))) == obs
