"""Coinche bidding, all-trump and no-trump contracts (docs/rules.md §7.2, §7.3): the
deal, the auction's legal calls, the trick rules, and whole deals scored by hand."""

from __future__ import annotations

import json

import pytest

from engine import DealRecord, IllegalAction, Match, MatchFormat, RuleSet, new_deal, observe, replay
from engine.actions import PASS_ACTIONS, Action, bid
from engine.belote import BeloteDeal
from engine.cards import ALL_TRUMP, NO_TRUMP, TRUMP_CODES, card
from engine.layout import coinche_deal
from engine.tricks import beats, legal_plays
from tests.engine.helpers import call, cards, coinche_new, legal_cards, play, play_out

# Each seat holds one whole suit: whoever leads his suit wins every trick he leads.
SUITED = {
    0: "7S 8S 9S TS JS QS KS AS",
    1: "7H 8H 9H TH JH QH KH AH",
    2: "7C 8C 9C TC JC QC KC AC",
    3: "7D 8D 9D TD JD QD KD AD",
}


def bids(deal: BeloteDeal) -> set[tuple[int, str]]:
    return {
        (a.value, TRUMP_CODES[a.trump])  # type: ignore[index]
        for a in deal.legal_actions()
        if a.type == "bid"
    }


def kinds(deal: BeloteDeal) -> set[str]:
    return {a.type for a in deal.legal_actions()}


def mask(text: str) -> int:
    return sum(1 << c for c in cards(text))


# --- the deal --------------------------------------------------------------------------


def test_the_coinche_deal_gives_3_then_2_then_3_cards_from_the_dealers_left() -> None:
    table = coinche_deal(2)
    assert table[:12] == (3, 3, 3, 0, 0, 0, 1, 1, 1, 2, 2, 2)
    assert table[12:20] == (3, 3, 0, 0, 1, 1, 2, 2)
    assert table[20:] == (3, 3, 3, 0, 0, 0, 1, 1, 1, 2, 2, 2)


def test_a_coinche_deal_deals_every_card_before_the_auction_and_turns_none() -> None:
    deck = list(range(32))
    deal = new_deal(RuleSet.build("belote", {"coinche": True}), 0, deck)
    assert isinstance(deal, BeloteDeal)
    assert [h.bit_count() for h in deal.hands] == [8, 8, 8, 8]
    assert deal.phase == "bidding" and deal.to_act == 1
    # Seat 1 gets deck indices 0-2, 12-13 and 20-22.
    assert deal.hands[1] == sum(1 << i for i in (0, 1, 2, 12, 13, 20, 21, 22))
    seen = observe(deal, 1)
    assert seen.proposed is None and seen.trump is None and seen.contract is None
    assert len(seen.hand) == 8


# --- the auction -----------------------------------------------------------------------


def test_the_first_call_is_a_pass_or_any_bid_of_an_allowed_trump() -> None:
    deal = coinche_new(SUITED)
    values = [80, 90, 100, 110, 120, 130, 140, 150, 160, 250]
    assert bids(deal) == {(v, t) for v in values for t in ("C", "D", "H", "S", "AT", "NT")}
    assert kinds(deal) == {"pass", "bid"}  # nothing to coinche yet


def test_all_trump_and_no_trump_bids_need_their_switch() -> None:
    deal = coinche_new(SUITED, rules={"coinche": True})
    assert {t for _, t in bids(deal)} == {"C", "D", "H", "S"}
    with pytest.raises(IllegalAction):
        deal.apply(bid(1, 80, ALL_TRUMP))
    deal = coinche_new(SUITED, rules={"coinche": True, "no_trump": True})
    assert {t for _, t in bids(deal)} == {"C", "D", "H", "S", "NT"}


def test_a_bid_must_be_higher_than_the_current_one_whatever_its_trump() -> None:
    deal = coinche_new(SUITED)
    call(deal, "100 H")
    assert min(v for v, _ in bids(deal)) == 110
    with pytest.raises(IllegalAction):
        deal.apply(bid(2, 100, 0))
    call(deal, "pass", "110 C")  # the bidder's partner may bid over him
    assert deal.high_bid == bid(3, 110, 0)
    call(deal, "250 S")
    assert bids(deal) == set()  # nothing is above capot
    assert kinds(deal) == {"pass", "coinche"}


def test_only_the_other_side_of_the_current_bid_may_coinche() -> None:
    deal = coinche_new(SUITED)
    call(deal, "80 H")  # seat 1
    assert "coinche" in kinds(deal)  # seat 2, the other side
    call(deal, "pass")
    assert "coinche" not in kinds(deal)  # seat 3, the bidder's partner
    call(deal, "pass")
    assert "coinche" in kinds(deal)  # seat 0
    assert observe(deal, 0).can_coinche and not observe(deal, 0).can_surcoinche


def test_after_a_coinche_the_next_seat_alone_may_surcoinche_or_pass_and_bidding_ends() -> None:
    deal = coinche_new(SUITED)
    call(deal, "80 H", "coinche")
    assert deal.to_act == 3 and kinds(deal) == {"pass", "surcoinche"}
    assert observe(deal, 3).can_surcoinche
    call(deal, "surcoinche")
    assert deal.phase == "play" and deal.to_act == 1
    assert deal.contract() == {"value": 80, "trump": "H", "taker": 1, "multiplier": 4}

    deal = coinche_new(SUITED)
    call(deal, "80 H", "pass", "pass", "coinche", "pass")
    assert deal.phase == "play"
    assert observe(deal, None).contract == {"value": 80, "trump": "H", "taker": 1,
                                            "multiplier": 2}


def test_a_bid_followed_by_three_passes_is_the_contract() -> None:
    deal = coinche_new(SUITED, dealer=3)
    call(deal, "pass", "90 D", "120 S", "pass", "pass")
    assert deal.phase == "bidding"  # only two passes since the last bid
    call(deal, "pass")
    assert deal.phase == "play" and deal.to_act == 0 and deal.trump == 3 and deal.taker == 2
    seen = observe(deal, 1)
    assert seen.contract == {"value": 120, "trump": "S", "taker": 2, "multiplier": 1}
    assert seen.highest_bid == {"seat": 2, "value": 120, "trump": "S"}
    assert [a["type"] for a in seen.auction] == ["pass", "bid", "bid", "pass", "pass", "pass"]
    assert seen.auction[1] == {"seat": 1, "type": "bid", "value": 90, "trump": "D"}


def test_four_passes_and_no_bid_make_the_deal_void() -> None:
    deal = coinche_new(SUITED)
    call(deal, "pass", "pass", "pass")
    assert not deal.is_over
    call(deal, "pass")
    assert deal.is_over and deal.result().void
    assert deal.result().to_dict()["trump"] is None


# --- all trump and no trump ---------------------------------------------------------------


def test_in_all_trump_you_follow_and_beat_the_best_card_of_the_led_suit_if_you_can() -> None:
    hand = mask("7H 9H KH AS")
    # Led the ace of hearts: the nine beats it (J 9 A 10 K Q 8 7), the king does not.
    assert legal_plays(hand, card("AH"), card("AH"), False, ALL_TRUMP) == mask("9H")
    # Nothing higher than the jack: any heart.
    assert legal_plays(hand, card("8H"), card("JH"), False, ALL_TRUMP) == mask("7H 9H KH")
    # No heart: any card, and the partner winning changes nothing.
    no_heart = mask("AS 7C JD")
    assert legal_plays(no_heart, card("TH"), card("TH"), True, ALL_TRUMP) == no_heart
    assert legal_plays(no_heart, card("TH"), card("TH"), False, ALL_TRUMP) == no_heart


def test_in_all_trump_only_the_led_suit_wins_a_trick_in_the_trump_order() -> None:
    assert beats(card("9H"), card("AH"), ALL_TRUMP)
    assert not beats(card("AH"), card("9H"), ALL_TRUMP)
    assert beats(card("JH"), card("9H"), ALL_TRUMP)
    assert not beats(card("JS"), card("7H"), ALL_TRUMP)


def test_in_no_trump_you_follow_suit_if_you_can_and_nothing_more() -> None:
    hand = mask("7H AH 7S")
    assert legal_plays(hand, card("KH"), card("KH"), False, NO_TRUMP) == mask("7H AH")
    assert legal_plays(mask("7S JC"), card("KH"), card("KH"), False, NO_TRUMP) == mask("7S JC")
    assert beats(card("AH"), card("TH"), NO_TRUMP)
    assert not beats(card("JS"), card("7H"), NO_TRUMP)


def test_an_all_trump_deal_is_played_with_the_all_trump_duties() -> None:
    deal = coinche_new({
        0: "JH 7C 8C 9C TC JC QC KC",
        1: "AH 7D 8D 9D TD JD QD KD",
        2: "9H 8H AC AD 7S 8S 9S TS",
        3: "KH 7H QH TH JS QS KS AS",
    })
    call(deal, "90 AT", "pass", "pass", "pass")
    play(deal, "AH")  # seat 1 leads the ace of hearts
    assert legal_cards(deal) == {"9H"}  # seat 2 must beat it
    play(deal, "9H")
    assert legal_cards(deal) == {"KH", "7H", "QH", "TH"}  # seat 3 cannot beat the nine
    play(deal, "7H")
    assert legal_cards(deal) == {"JH"}
    play(deal, "JH")
    assert deal.tricks[0][2] == 0
    # J 14 + 9 9 + A 6 + 7 0 in all trump.
    assert deal.tricks[0][3] == 29


# --- whole deals, scored by hand ------------------------------------------------------------


def finish(deal: BeloteDeal) -> dict[str, object]:
    play_out(deal)
    result = deal.result()
    assert result is not None
    return result.to_dict()


def test_an_unbid_capot_counts_the_capot_points_and_the_contract() -> None:
    # Seat 1 holds every heart and bids 80: leading hearts he takes all eight tricks.
    deal = coinche_new(SUITED)
    call(deal, "80 H", "pass", "pass", "pass")
    result = finish(deal)
    assert result["card_points"] == [0, 162]
    assert result["contract"] == {"value": 80, "trump": "H", "taker": 1, "multiplier": 1}
    assert result["outcome"] == "made" and result["capot"] == 1 and result["belote"] == 1
    # 252 for the unbid capot + 20 belote + the 80 bid; the defenders nothing.
    assert result["deal_points"] == [0, 252 + 20 + 80]


def test_a_capot_no_trump_contract_made_scores_162_and_250() -> None:
    deal = coinche_new(SUITED)
    call(deal, "250 NT", "pass", "pass", "pass")
    result = finish(deal)
    assert result["trump"] == "NT" and result["belote"] is None
    assert result["deal_points"] == [0, 162 + 250]  # the worked score: 412


def test_a_failed_surcoinched_contract_gives_the_defenders_four_times_160_plus_value() -> None:
    # Seat 1 bids 80 spades without a spade; seat 0 holds all eight and the belote.
    deal = coinche_new(SUITED)
    call(deal, "80 S", "coinche", "surcoinche")
    result = finish(deal)
    assert result["card_points"] == [162, 0]
    assert result["outcome"] == "inside" and result["capot"] is None
    assert result["contract"]["multiplier"] == 4
    assert result["deal_points"] == [(160 + 80) * 4 + 20, 0]


def test_a_failed_capot_bid_gives_the_defenders_160_plus_250() -> None:
    # Dealer 3: seat 0 leads its spades, which nobody can follow in no trump, and
    # so takes every trick; seat 1's capot no-trump fails.
    deal = coinche_new(SUITED, dealer=3)
    call(deal, "pass", "250 NT", "pass", "pass", "pass")
    result = finish(deal)
    assert result["outcome"] == "inside" and result["capot"] is None
    assert result["card_points"] == [162, 0]
    assert result["deal_points"] == [160 + 250, 0]


def test_all_trump_counts_a_belote_for_each_king_and_queen_pair() -> None:
    deal = coinche_new(SUITED, rules={"coinche": True, "all_trump": True})
    call(deal, "90 AT", "pass", "pass", "pass")
    result = finish(deal)
    # Clubs (seat 2), diamonds (seat 3), hearts (seat 1), spades (seat 0), by suit.
    assert result["belote"] == [0, 1, 1, 0]
    assert result["card_points"] == [0, 162]
    # Takers: unbid capot 252 + two belotes 40 + 90; defenders their two belotes.
    assert result["deal_points"] == [40, 252 + 40 + 90]


def test_a_coinche_deal_replays_from_its_record_with_its_contract() -> None:
    deal = coinche_new(SUITED)
    call(deal, "80 H", "coinche", "pass")
    finish(deal)
    record = json.loads(json.dumps(deal.to_record().to_dict()))
    assert record["rules"] == {"coinche": True, "announcements": True, "all_trump": True,
                               "no_trump": True}
    assert record["actions"][:3] == [
        {"seat": 1, "type": "bid", "value": 80, "trump": "H"},
        {"seat": 2, "type": "coinche"},
        {"seat": 3, "type": "pass"},
    ]
    again = replay(DealRecord.from_dict(record))
    assert again.error is None
    assert again.result["contract"] == {"value": 80, "trump": "H", "taker": 1, "multiplier": 2}
    assert again.steps[1]["legal"] == [{"seat": 2, "type": "pass"}] + [
        {"seat": 2, "type": "bid", "value": v, "trump": t}
        for v in (90, 100, 110, 120, 130, 140, 150, 160, 250)
        for t in ("C", "D", "H", "S", "NT", "AT")
    ] + [{"seat": 2, "type": "coinche"}]
    # Made, coinched: (160 + 80) x 2, and the takers' belote.
    assert again.result["deal_points"] == [0, 480 + 20]


def test_a_record_with_a_call_out_of_turn_or_an_illegal_coinche_stops_there() -> None:
    deal = coinche_new(SUITED)
    record = deal.to_record().to_dict()
    record["actions"] = [
        {"seat": 1, "type": "bid", "value": 80, "trump": "H"},
        {"seat": 2, "type": "pass"},
        {"seat": 3, "type": "coinche"},
    ]
    again = replay(DealRecord.from_dict(record))
    assert again.error is not None and again.error["index"] == 2
    record["actions"] = [{"seat": 1, "type": "bid", "value": 85, "trump": "H"}]
    again = replay(DealRecord.from_dict(record))
    assert again.error is not None and again.error["index"] == 0
    assert "malformed" in again.error["message"]


def test_a_coinche_bid_is_not_a_classic_action_and_take_is_not_a_coinche_one() -> None:
    classic = new_deal(RuleSet.build("belote"), 0, list(range(32)))
    with pytest.raises(IllegalAction):
        classic.apply(bid(1, 80, 0))
    deal = coinche_new(SUITED)
    with pytest.raises(IllegalAction):
        deal.apply(Action(1, "take"))
    with pytest.raises(IllegalAction):
        deal.apply(Action(1, "coinche"))
    deal.apply(PASS_ACTIONS[1])
    assert deal.to_act == 2


def test_the_score_table_marks_a_coinched_or_surcoinched_deal_and_all_trump_belotes() -> None:
    match = Match("belote", MatchFormat("first_to", 1000), first_dealer=0)
    for calls, trump, marker in (
        (("80 H", "coinche", "pass"), "H", "coinche"),
        (("80 S", "coinche", "surcoinche"), "S", "surcoinche"),
    ):
        deal = coinche_new(SUITED, dealer=match.next_dealer)
        call(deal, *calls)
        finish(deal)
        row = match.add_deal(deal.result())
        assert row.trump == trump and marker in row.markers and "belote" in row.markers
    deal = coinche_new(SUITED, dealer=match.next_dealer, rules={"coinche": True, "no_trump": True})
    call(deal, "250 NT", "pass", "pass", "pass")
    finish(deal)
    row = match.add_deal(deal.result())
    assert not {"belote", "coinche", "surcoinche"} & set(row.markers)
