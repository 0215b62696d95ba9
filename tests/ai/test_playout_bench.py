"""The playout benchmark compares like with like: its bare loop (the yardstick) and
the engine's simulator play the very same cards from the same draws, and so does
the public interface; the simulator's table of trick winners is the engine's rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bench_playouts import (
    bare_of,
    bare_playout,
    deal_playout,
    engine_playout,
    start_positions,
)
from engine.rules import VARIANTS
from engine.tricks import TAKES, beats


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), draws=st.integers(0, 2**32 - 1))
def test_bare_loop_simulator_and_deal_play_the_same_cards(
    variant: str, seed: int, draws: int
) -> None:
    ((deal, sim),) = start_positions(variant, 1, seed)
    bare = bare_playout(bare_of(sim), random.Random(draws))
    simulated = engine_playout(sim, random.Random(draws))
    played = deal_playout(deal, random.Random(draws))
    assert bare == simulated == played
    assert sum(bare) == 162  # every card point and the last trick's ten


def test_the_trick_winner_table_is_the_rule() -> None:
    for trump in range(5):
        for best in range(32):
            for card in range(32):
                assert bool(TAKES[trump][best] >> card & 1) == beats(card, best, trump)
