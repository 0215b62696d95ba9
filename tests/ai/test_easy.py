import random

from engine.ai import decide
from engine.cards import card
from engine.observe import observe
from tests.ai.positions import belote_position

HANDS = {
    1: "7H JH 9H AH KS 7C 8C 9C",
    2: "AS TH KH QH 7D 8D 9D TC",
    3: "8S JC QC KC AC JD QD KD",
    0: "TS 9S 7S JS QS AD TD 8H",
}


def test_easy_plays_the_lowest_card_of_the_suit_led() -> None:
    deal = belote_position(1, "7H", HANDS, "KS AS 8S")
    action = decide("easy", observe(deal, 0), random.Random(1))
    assert action.card == card("7S")


def test_easy_plays_its_lowest_trump_when_it_cannot_overtrump() -> None:
    deal = belote_position(1, "7H", HANDS, "AH")
    # Seat 2 holds TH KH QH, none above the ace: any trump, and easy picks the queen.
    action = decide("easy", observe(deal, 2), random.Random(1))
    assert action.card == card("QH")


def test_easy_takes_with_the_jack_and_one_more_trump_only() -> None:
    from engine.deal import new_deal
    from engine.rules import RuleSet
    from tests.ai.positions import belote_deck

    deal = new_deal(RuleSet.build("belote"), 0, belote_deck(0, 1, "7H", HANDS))
    # Seat 1 holds JH 9H (first five cards: 7H excluded) and the proposed 7H.
    assert decide("easy", observe(deal, 1), random.Random(1)).type == "take"
    deal.apply(decide("easy", observe(deal, 1), random.Random(1)))
    deal = new_deal(RuleSet.build("belote"), 3, belote_deck(3, 0, "7H", {
        0: "7H TS 9S 7S JS QS AD TD", 1: "JH 9H AH KS 7C 8C 9C 8H",
        2: "AS TH KH QH 7D 8D 9D TC", 3: "8S JC QC KC AC JD QD KD"}))
    # Seat 0 (first to speak) has hearts only through the proposed card: pass.
    assert decide("easy", observe(deal, 0), random.Random(1)).type == "pass"
