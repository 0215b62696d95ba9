"""The coinche playouts of ``python -m engine bench`` compare like with like: from
coinche start positions of every contract type, the bare loop, the simulator and
the public interface play the very same cards from the same draws."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bench_playouts import (
    COINCHE,
    bare_of,
    bare_playout,
    deal_playout,
    engine_playout,
    start_positions,
)
from engine.cards import TRUMP_CODES


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), draws=st.integers(0, 2**32 - 1))
def test_bare_loop_simulator_and_deal_play_the_same_cards_in_coinche(seed, draws) -> None:
    for deal, sim in start_positions("belote", 6, seed, COINCHE):
        bare = bare_playout(bare_of(sim), random.Random(draws))
        assert bare == engine_playout(sim, random.Random(draws))
        assert bare == deal_playout(deal, random.Random(draws))
        assert sum(bare) == 162


def test_coinche_start_positions_cover_every_contract_type() -> None:
    starts = start_positions("belote", 6, 1, COINCHE)
    assert {TRUMP_CODES[d.trump] for d, _ in starts} == {"C", "D", "H", "S", "NT", "AT"}
    assert all(d.contract() is not None for d, _ in starts)
