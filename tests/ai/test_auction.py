"""The bots' coinche auction, judged from a seat's own eight cards and the public
calls (docs/rules.md §7.2, §7.4): pure functions, no deal involved."""

from __future__ import annotations

from engine.actions import BID, BID_VALUES, COINCHE, PASS, SURCOINCHE, Action, bid
from engine.ai.auction import (
    Call,
    easy_call,
    estimate,
    hand_value,
    normal_call,
    should_coinche,
    should_surcoinche,
)
from engine.cards import ALL_TRUMP, NO_TRUMP, card, mask_of

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def hand(codes: str) -> int:
    return mask_of(card(c) for c in codes.split())


def legal_bids(seat: int, above: int = 0, trumps: range = range(6)) -> list[Action]:
    """Pass and every bid above ``above`` (no coinche), as the engine would list them."""
    out = [Action(seat, PASS)]
    out += [bid(seat, v, t) for v in BID_VALUES if v > above for t in trumps]
    return out


STRONG_HEARTS = hand("JH 9H AH TH KH AS AC 7D")
WEAK = hand("7C 8C 9D 8D 7H 8H 9S 8S")


def test_a_strong_trump_hand_is_worth_more_in_its_suit_than_in_any_other() -> None:
    values = {t: hand_value(STRONG_HEARTS, t) for t in range(6)}
    assert max(values, key=lambda t: values[t]) == HEARTS


def test_all_trump_values_jacks_and_no_trump_values_aces() -> None:
    jacks = hand("JC 9C JD 9D JH JS 7D 8H")
    aces = hand("AC TC AD TD AH AS KC 7H")
    assert hand_value(jacks, ALL_TRUMP) > hand_value(jacks, NO_TRUMP)
    assert hand_value(aces, NO_TRUMP) > hand_value(aces, ALL_TRUMP)


def test_normal_opens_a_strong_hand_in_its_trump() -> None:
    action = normal_call(STRONG_HEARTS, 1, [], legal_bids(1))
    assert action.type == BID and action.trump == HEARTS
    assert action.value is not None and action.value >= 100


def test_normal_passes_a_weak_hand() -> None:
    assert normal_call(WEAK, 1, [], legal_bids(1)).type == PASS


def test_normal_never_bids_at_or_below_the_current_contract() -> None:
    calls = [Call(1, BID, 160, SPADES)]
    modest = hand("JH 9H 7H AS 7C 8C 7D 8D")
    action = normal_call(modest, 2, calls, [*legal_bids(2, 160), Action(2, COINCHE)])
    assert action.type != BID or (action.value or 0) > 160


def test_a_partners_bid_raises_with_its_jack_and_aces() -> None:
    calls = [Call(0, BID, 80, HEARTS), Call(1, PASS)]
    support = hand("JH 7H AS AC 7D 8D 9C 8S")
    alone = estimate(support, HEARTS, [], 2)
    raised = estimate(support, HEARTS, calls, 2)
    assert raised > alone
    action = normal_call(support, 2, calls, legal_bids(2, 80))
    assert action.type == BID and action.trump == HEARTS and (action.value or 0) > 80


def test_normal_does_not_take_its_partner_out_of_his_trump_on_a_small_difference() -> None:
    calls = [Call(0, BID, 100, HEARTS), Call(1, PASS)]
    spades = hand("JS 9S 7S 8C 9C 7D 8D 7H")
    action = normal_call(spades, 2, calls, legal_bids(2, 100))
    assert action.type == PASS


def test_a_defence_holding_the_trump_jack_nine_and_aces_coinches_a_high_bid() -> None:
    calls = [Call(1, BID, 130, HEARTS)]
    defence = hand("JH 9H 8H AS TS AC AD 7C")
    assert should_coinche(defence, 2, calls)
    legal = [Action(2, COINCHE), *legal_bids(2, 130)]
    action = normal_call(defence, 2, calls, legal)
    assert action.type in (COINCHE, BID)


def test_a_weak_hand_does_not_coinche() -> None:
    assert not should_coinche(WEAK, 2, [Call(1, BID, 80, HEARTS)])


def test_surcoinche_needs_a_contract_well_within_the_hand() -> None:
    coinched = [Call(1, BID, 80, HEARTS), Call(2, COINCHE)]
    assert should_surcoinche(STRONG_HEARTS, 1, coinched)
    assert not should_surcoinche(WEAK, 3, coinched)
    # Never on the other side's contract.
    assert not should_surcoinche(STRONG_HEARTS, 2, coinched)
    legal = [Action(3, PASS), Action(3, SURCOINCHE)]
    assert normal_call(WEAK, 3, coinched, legal).type == PASS


def test_easy_bids_80_in_its_longest_suit_holding_the_jack() -> None:
    cards = hand("JC 7C JS 9S 8S 7H 8H 9H")
    action = easy_call(cards, legal_bids(0))
    assert action == bid(0, 80, SPADES)


def test_easy_passes_without_a_jack_or_when_80_is_taken() -> None:
    assert easy_call(hand("7C 8C 9C AC AD AH AS TS"), legal_bids(0)).type == PASS
    assert easy_call(hand("JC 7C 8C 9C AD AH AS TS"), legal_bids(0, 80)).type == PASS
