"""docs/rules.md §2 (classic team Belote) on literal deals: dealing, bidding, duties,
trick winners and belote-rebelote. Scoring is in test_scoring.py."""

from __future__ import annotations

import pytest

from engine import IllegalAction, RuleSet, new_deal, observe
from engine.actions import CHOOSE_ACTIONS, PASS_ACTIONS, PLAY_ACTIONS, TAKE_ACTIONS
from engine.cards import CODES, card
from engine.layout import belote_completion, belote_first_deal
from tests.engine.helpers import (
    belote_deck,
    belote_in_play,
    cards,
    codes_of_hand,
    legal_cards,
    play,
    play_out,
)

IDENTITY = list(range(32))  # deck index i holds card i: 7C 8C 9C TC JC QC KC AC 7D ...


def hand_of(deal, seat: int) -> set[str]:
    return {CODES[c] for c in observe(deal, seat).hand}


def at_index(*indices: int) -> set[str]:
    return {CODES[i] for i in indices}


def fresh(dealer: int = 0, deck=None, **overrides):
    return new_deal(RuleSet.build("belote", overrides), dealer, deck or IDENTITY)


# --- dealing ---------------------------------------------------------------------------


def test_dealing_table_is_three_each_then_two_each_from_dealer_left():
    # docs/rules.md §2 Deal, written out for dealer 0 (seat 1 first) and dealer 2 (seat 3 first).
    assert belote_first_deal(0) == (1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 0, 1, 1, 2, 2, 3, 3, 0, 0)
    assert belote_first_deal(2) == (3, 3, 3, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2)


def test_completion_table_is_three_each_from_dealer_left_taker_two():
    assert belote_completion(0, 2) == (1, 1, 1, 2, 2, 3, 3, 3, 0, 0, 0)
    assert belote_completion(0, 0) == (1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0)
    assert belote_completion(3, 0) == (0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3)


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [
        (0, {1: (0, 1, 2, 12, 13), 2: (3, 4, 5, 14, 15),
             3: (6, 7, 8, 16, 17), 0: (9, 10, 11, 18, 19)}),
        (1, {2: (0, 1, 2, 12, 13), 3: (3, 4, 5, 14, 15),
             0: (6, 7, 8, 16, 17), 1: (9, 10, 11, 18, 19)}),
        (3, {0: (0, 1, 2, 12, 13), 1: (3, 4, 5, 14, 15),
             2: (6, 7, 8, 16, 17), 3: (9, 10, 11, 18, 19)}),
    ],
)
def test_deal_three_then_two_from_dealer_left_and_proposed_card_is_index_20(dealer, expected):
    deal = fresh(dealer)
    for seat, indices in expected.items():
        assert hand_of(deal, seat) == at_index(*indices)
    assert observe(deal, 0).proposed == 20
    assert observe(deal, None).hand_sizes == (5, 5, 5, 5)


@pytest.mark.parametrize(
    ("taker", "expected"),
    [
        # dealer 0: completion goes 1, 2, 3, 0 from index 21; the taker gets index 20 + 2.
        (2, {1: (21, 22, 23), 2: (20, 24, 25), 3: (26, 27, 28), 0: (29, 30, 31)}),
        (1, {1: (20, 21, 22), 2: (23, 24, 25), 3: (26, 27, 28), 0: (29, 30, 31)}),
        (0, {1: (21, 22, 23), 2: (24, 25, 26), 3: (27, 28, 29), 0: (20, 30, 31)}),
    ],
)
def test_completion_taker_gets_proposed_card_and_two_others_three_from_dealer_left(
    taker, expected
):
    deal = fresh(0)
    first = {seat: hand_of(deal, seat) for seat in range(4)}
    while deal.to_act != taker:
        deal.apply(PASS_ACTIONS[deal.to_act])
    deal.apply(TAKE_ACTIONS[taker])
    for seat, indices in expected.items():
        assert hand_of(deal, seat) - first[seat] == at_index(*indices)
        assert len(hand_of(deal, seat)) == 8


def test_completion_after_round_two_choice_also_gives_taker_the_proposed_card():
    deal = fresh(0)
    first = hand_of(deal, 3)
    for _ in range(4):
        deal.apply(PASS_ACTIONS[deal.to_act])
    deal.apply(PASS_ACTIONS[1])
    deal.apply(PASS_ACTIONS[2])
    deal.apply(CHOOSE_ACTIONS[3][0])  # clubs; the proposed 7H is a heart
    assert hand_of(deal, 3) - first == at_index(20, 27, 28)


# --- bidding ---------------------------------------------------------------------------


def bids(deal) -> set[str]:
    return {str(a) for a in deal.legal_actions()}


def test_round_one_starts_at_dealer_left_with_take_or_pass():
    deal = fresh(2, belote_deck(2, proposed="7H"))
    assert deal.to_act == 3
    assert bids(deal) == {str(PASS_ACTIONS[3]), str(TAKE_ACTIONS[3])}


def test_round_one_take_makes_proposed_suit_trump_and_bidding_ends_at_once():
    deal = fresh(0, belote_deck(0, proposed="9S"))
    deal.apply(PASS_ACTIONS[1])
    deal.apply(PASS_ACTIONS[2])
    events = deal.apply(TAKE_ACTIONS[3])
    assert [e.kind for e in events] == ["took", "dealt"]
    assert (deal.trump, deal.taker, deal.phase) == (3, 3, "play")
    assert all(a.type == "play" for a in deal.legal_actions())
    with pytest.raises(IllegalAction):
        deal.apply(PASS_ACTIONS[0])  # the dealer does not get a bidding turn any more


def test_bidding_goes_round_from_dealer_left_and_refuses_out_of_turn():
    deal = fresh(1, belote_deck(1, proposed="9S"))
    order = []
    for _ in range(4):
        order.append(deal.to_act)
        with pytest.raises(IllegalAction):
            deal.apply(PASS_ACTIONS[(deal.to_act + 1) % 4])
        deal.apply(PASS_ACTIONS[deal.to_act])
    assert order == [2, 3, 0, 1]
    assert deal.to_act == 2  # round 2 starts at dealer + 1 again


def test_round_two_choose_any_suit_but_the_proposed_one():
    deal = fresh(0, belote_deck(0, proposed="9S"))
    for _ in range(4):
        deal.apply(PASS_ACTIONS[deal.to_act])
    assert deal.to_act == 1
    assert bids(deal) == {str(PASS_ACTIONS[1])} | {str(CHOOSE_ACTIONS[1][t]) for t in (0, 1, 2)}
    with pytest.raises(IllegalAction):
        deal.apply(CHOOSE_ACTIONS[1][3])  # spades, the proposed suit
    with pytest.raises(IllegalAction):
        deal.apply(TAKE_ACTIONS[1])
    deal.apply(PASS_ACTIONS[1])
    events = deal.apply(CHOOSE_ACTIONS[2][1])
    assert events[0].kind == "chose"
    assert (deal.trump, deal.taker, deal.phase) == (1, 2, "play")


def test_void_deal_after_everyone_passes_twice():
    deal = fresh(0, belote_deck(0, proposed="9S"))
    for _ in range(7):
        deal.apply(PASS_ACTIONS[deal.to_act])
        assert not deal.is_over
    events = deal.apply(PASS_ACTIONS[deal.to_act])
    assert [e.kind for e in events] == ["passed", "void"]
    assert deal.is_over and deal.legal_actions() == [] and deal.to_act is None
    result = deal.result()
    assert result.void is True
    assert (result.trump, result.taker, result.deal_points, result.outcome) == (None,) * 4


@pytest.mark.parametrize(("dealer", "taker"), [(0, 1), (0, 0), (2, 1), (3, 3)])
def test_dealer_left_leads_the_first_trick_whoever_takes(dealer, taker):
    deal = fresh(dealer, belote_deck(dealer, proposed="9S"))
    while deal.to_act != taker:
        deal.apply(PASS_ACTIONS[deal.to_act])
    deal.apply(TAKE_ACTIONS[taker])
    assert deal.to_act == (dealer + 1) % 4
    assert legal_cards(deal) == {CODES[c] for c in observe(deal, deal.to_act).hand}


# --- duties (dealer 0: seat 1 leads, then 2, 3, 0; trump hearts) ------------------------

LOW = "7C 8C 9C TC JC QC KC"  # a filler of clubs for the leader


def legal_after(hands, played, proposed="7C", taker=1, trump="H"):
    deal = belote_in_play(hands, proposed, taker, trump)
    play(deal, played)
    return legal_cards(deal)


def test_must_follow_suit_led_even_holding_trump():
    hands = {1: f"AS {LOW}", 2: "7S KS 9H TD JD QD KD AD"}
    assert legal_after(hands, "AS") == {"7S", "KS"}


def test_trump_led_must_play_higher_trump_when_able():
    hands = {1: f"AH {LOW}", 2: "9H QH 7H 7S TD JD QD KD"}
    assert legal_after(hands, "AH") == {"9H"}


def test_trump_led_any_trump_when_unable_to_beat():
    hands = {1: f"JH {LOW}", 2: "9H 7H 7S KS TD JD QD KD"}
    assert legal_after(hands, "JH") == {"9H", "7H"}


def test_partner_master_may_discard_any_card_instead_of_trumping():
    hands = {
        1: f"AS {LOW}",
        2: "7S 8D 9D TD JD QD KD AD",
        3: "9H 7H AH 8H KH QH JH TH",  # no spade: partner 1 wins the trick
    }
    assert legal_after(hands, "AS 7S") == set(hands[3].split())


def test_partner_master_by_trump_may_discard_without_overtrumping():
    hands = {
        1: f"7S {LOW}",
        2: "7H AC 7D 8D 9D TD JD QD",  # no spade: must trump, only the 7H
        3: "KS AS 8S 9S TS JS QS KD",
        0: "8H QH 9H JH AD KH TH AH",  # partner 2 wins with 7H; no spade
    }
    assert legal_after(hands, "7S 7H KS") == set(hands[0].split())


def test_partner_winning_must_still_follow_suit():
    hands = {1: f"AS {LOW}", 2: "7S 8D 9D TD JD QD KD AD", 3: "KS 9H 7H 8H AH QH JH TH"}
    assert legal_after(hands, "AS 7S") == {"KS"}


def test_partner_winning_and_trump_led_must_still_overtrump():
    hands = {1: f"QH {LOW}", 2: "7H 7S 8D 9D TD JD QD KD", 3: "9H 8H AS KS JS TS 9S 8S"}
    assert legal_after(hands, "QH 7H") == {"9H"}


def test_must_trump_when_opponent_wins_and_cannot_follow():
    hands = {1: f"AS {LOW}", 2: "9H 7H AD 7D 8D 9D TD JD"}
    assert legal_after(hands, "AS") == {"9H", "7H"}


def test_must_trump_when_partner_led_but_opponent_is_winning():
    hands = {
        1: f"7S {LOW}",
        2: "AS 7D 8D 9D TD JD QD KD",
        3: "8H 9H AC AD JH QH KH AH",  # no spade; partner 1 led but opponent 2 wins
    }
    assert legal_after(hands, "7S AS") == {"8H", "9H", "JH", "QH", "KH", "AH"}


def test_must_overtrump_an_opponents_trump():
    hands = {
        1: f"7S {LOW}",
        2: "9H 7D 8D 9D TD JD QD KD",  # no spade: trumps with 9H
        3: "JH 8H AC AD 7H QH KH AH",  # no spade
    }
    assert legal_after(hands, "7S 9H") == {"JH"}


def test_undertrump_when_unable_to_overtrump_d3():
    hands = {
        1: f"7S {LOW}",
        2: "9H 7D 8D 9D TD JD QD KD",
        3: "8H 7H AC AD TH QH KH AH",  # no trump beats 9H: still a trump, not a discard
    }
    assert legal_after(hands, "7S 9H") == {"8H", "7H", "TH", "QH", "KH", "AH"}


def test_discard_any_card_without_the_suit_or_trump():
    hands = {1: f"AS {LOW}", 2: "AD 7D 8D 9D TD JD QD KD"}
    assert legal_after(hands, "AS") == set(hands[2].split())


def test_trump_led_without_trump_any_card():
    hands = {1: f"JH {LOW}", 2: "AD 7D 8D 9D TD AS 7S 8S"}
    assert legal_after(hands, "JH") == set(hands[2].split())


def test_leader_may_lead_any_card():
    hands = {1: "AS 7H 7C 8C 9C TC JD QD"}
    assert legal_after(hands, "") == set(hands[1].split())


def test_illegal_card_is_refused_and_leaves_the_deal_unchanged():
    deal = belote_in_play({1: f"AS {LOW}", 2: "7S KS 9H TD JD QD KD AD"}, "7C", 1, "H")
    play(deal, "AS")
    before = (list(deal.trick), deal.to_act, codes_of_hand(deal, 2), len(deal.history))
    with pytest.raises(IllegalAction):
        deal.apply(PLAY_ACTIONS[2][card("9H")])
    with pytest.raises(IllegalAction):
        deal.apply(PLAY_ACTIONS[3][card("7D")])  # not seat 3's turn
    assert (list(deal.trick), deal.to_act, codes_of_hand(deal, 2), len(deal.history)) == before


# --- trick winners -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "trick", "winner"),
    [
        pytest.param(
            {1: "7S 7C 8C 9C TC JC QC KC", 2: "8H AC 7D 8D 9D TD JD QD",
             3: "AS KS QS JS TS 9S 8S KD", 0: "9H JH QH KH AH TH 7H AD"},
            "7S 8H AS 9H", 0, id="highest_trump_wins",
        ),
        pytest.param(
            {1: "7S 7C 8C 9C TC JC QC KC", 2: "AC 7D 8D 9D TD JD QD KD",
             3: "TS 8S 9S JS QS KS AD 7H", 0: "AS 8H 9H TH JH QH KH AH"},
            "7S AC TS AS", 0, id="no_trump_highest_of_suit_led_wins",
        ),
        pytest.param(
            {1: "9H 7C 8C 9C TC JC QC KC", 2: "JH AC 7D 8D 9D TD JD QD",
             3: "AH KD AD 7S 8S 9S TS JS", 0: "TH QS KS AS 7H 8H QH KH"},
            "9H JH AH TH", 2, id="trump_order_J_9_A_10",
        ),
        pytest.param(
            {1: "TS 7C 8C 9C TC JC QC KC", 2: "KS AC 7D 8D 9D TD JD QD",
             3: "JS KD AD 7H 8H 9H TH JH", 0: "9S QH KH AH 7S 8S QS AS"},
            "TS KS JS 9S", 1, id="plain_order_A_10_K_Q_J_9",
        ),
    ],
)
def test_trick_winner_and_winner_leads_next(hands, trick, winner):
    deal = belote_in_play(hands, "7C", 1, "H")
    events = play(deal, trick)
    assert events[-1].kind == "trick" and events[-1].seat == winner
    record = deal.trick_records()[0]
    assert (record.leader, list(record.cards), record.winner) == (1, trick.split(), winner)
    assert deal.to_act == winner


# --- belote-rebelote ---------------------------------------------------------------------

# Dealer 1: seat 2 leads and takes the proposed KH, holding QH: seat 2 has belote.
BELOTE_HANDS = {
    2: "QH KH 7C 8C 9C TC JC QC",
    3: "JH 9H AH TH KC AC 7D 8D",
    0: "7H 8H 9D TD JD QD KD AD",
    1: "7S 8S 9S TS JS QS KS AS",
}


@pytest.mark.parametrize(
    "line",
    ["QH JH 7H 7S 9H 8H 8S KH", "KH JH 7H 7S 9H 8H 8S QH"],
    ids=["queen_first", "king_first"],
)
def test_belote_then_rebelote_announced_for_holder_of_trump_king_and_queen(line):
    deal = belote_in_play(BELOTE_HANDS, "KH", taker=2, dealer=1)
    first = play(deal, " ".join(line.split()[:4]))
    assert [(e.kind, e.seat) for e in first if e.kind in ("belote", "rebelote")] == [("belote", 2)]
    second = play(deal, " ".join(line.split()[4:]))
    assert [(e.kind, e.seat) for e in second if e.kind in ("belote", "rebelote")] == [
        ("rebelote", 2)
    ]
    assert deal.announcements == [(2, "belote"), (2, "rebelote")]
    assert observe(deal, 1).announcements == ((2, "belote"), (2, "rebelote"))
    play_out(deal)
    assert deal.result().belote == 0


def test_no_belote_when_trump_king_and_queen_are_in_different_hands():
    hands = {
        2: "KH 7C 8C 9C TC JC QC KC",
        3: "QH AC 7D 8D 9D TD JD QD",
        0: "JH 9H AH TH 7H 8H KD AD",
        1: "7S 8S 9S TS JS QS KS AS",
    }
    deal = belote_in_play(hands, "KH", taker=2, dealer=1)
    events = play(deal, "KH QH JH 7S")
    assert not [e for e in events if e.kind in ("belote", "rebelote")]
    play_out(deal)
    assert deal.announcements == []
    assert deal.result().belote is None


def test_no_belote_for_king_and_queen_of_a_plain_suit():
    hands = {
        2: "KS QS 7C 8C 9C TC JC KH",
        3: "JH 9H AH TH QH AC 7D 8D",
        0: "7H 8H 9D TD JD QD KD AD",
        1: "7S 8S 9S TS JS AS QC KC",
    }
    deal = belote_in_play(hands, "KH", taker=2, dealer=1)
    events = play(deal, "KS 9H 7H AS") + play_out(deal)
    assert not [e for e in events if e.kind in ("belote", "rebelote")]
    assert deal.result().belote is None


def test_belote_counts_for_the_holder_even_when_the_queen_comes_in_the_completion():
    # Seat 3 gets QH in the completion (index 26..28 for dealer 0, taker 1).
    deck = belote_deck(
        0, hands={1: "7C 8C 9C TC JC", 3: "KH 7D 8D 9D TD"}, proposed="AH",
        completion={3: "QH JD QD"}, taker=1,
    )
    deal = new_deal(RuleSet.build("belote"), 0, deck)
    deal.apply(TAKE_ACTIONS[1])
    assert {"KH", "QH"} <= set(codes_of_hand(deal, 3))
    assert deal.belote_seat == 3
    play_out(deal)
    assert deal.result().belote == 1
    assert [w for _, w in deal.announcements] == ["belote", "rebelote"]
    assert {s for s, _ in deal.announcements} == {3}


def test_helper_places_cards_where_the_tables_say():
    deck = belote_deck(0, hands={2: "JH 9H AH TH KH"}, proposed="QH")
    assert [CODES[deck[i]] for i in (3, 4, 5, 14, 15, 20)] == ["JH", "9H", "AH", "TH", "KH", "QH"]
    assert sorted(deck) == IDENTITY
    assert cards("JH 9H") == [card("JH"), card("9H")]
