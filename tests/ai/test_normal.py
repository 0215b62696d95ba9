import random

from engine.ai import decide
from engine.cards import card
from engine.observe import observe
from tests.ai.positions import belote_position


def test_normal_gives_points_to_a_master_partner() -> None:
    hands = {
        1: "7H JH 9H AH KS 7C 8C 9C",
        2: "AS TH KH QH 7D 8D 9D TC",
        3: "8S JC QC KC AC JD QD KD",
        0: "TS 9S 7S JS QS AD TD 8H",
    }
    # Partner (seat 2) wins with the ace of spades and seat 0 plays last.
    deal = belote_position(1, "7H", hands, "KS AS 8S")
    action = decide("normal", observe(deal, 0), random.Random(1))
    assert action.card == card("TS")


def test_normal_ruffs_a_lost_trick_with_a_small_trump_and_keeps_the_jack() -> None:
    hands = {
        1: "AC KC 7H 9H AH TH KH QH",
        2: "7C 9C TC QS JS 9S 8S 7S",
        3: "8C JC QC QD JD 9D 8D 7D",
        0: "JH 8H AS TS KS AD TD KD",
    }
    # The opponents lead and win clubs; seat 0, void, must trump: the eight will do.
    deal = belote_position(1, "7H", hands, "AC 7C 8C")
    action = decide("normal", observe(deal, 0), random.Random(1))
    assert action.card == card("8H")


def test_normal_plays_low_when_it_cannot_win_the_trick() -> None:
    hands = {
        1: "AC KC 7H 9H AH TH KH QH",
        2: "7C 9C TC QS JS 9S 8S 7S",
        3: "8C JC QC QD JD 9D 8D 7D",
        0: "JH 8H AS TS KS AD TD KD",
    }
    # The ace of clubs is led: seat 2 cannot beat it and keeps its ten.
    deal = belote_position(1, "7H", hands, "AC")
    action = decide("normal", observe(deal, 2), random.Random(1))
    assert action.card == card("7C")
