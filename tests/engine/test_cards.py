"""Card masks: listing a mask's cards is exact for every set of the 32 cards."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.cards import card_list, cards_in, mask_of


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_it_lists_every_card_of_a_mask_once_lowest_first(mask: int) -> None:
    cards = cards_in(mask)
    assert list(cards) == [c for c in range(32) if mask >> c & 1]
    assert mask_of(cards) == mask
    assert card_list(mask) == list(cards)


def test_it_lists_the_edges_of_the_deck() -> None:
    assert cards_in(0) == ()
    assert cards_in(1) == (0,)
    assert cards_in(1 << 31) == (31,)
    assert cards_in(2**32 - 1) == tuple(range(32))
