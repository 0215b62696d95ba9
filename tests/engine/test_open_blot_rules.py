"""docs/rules.md §3 (Open Blot) on literal deals: layout, choosing trump, turn-up,
duties and card values. Declarations: test_declarations.py; scores: test_scoring.py."""

from __future__ import annotations

import pytest

from engine import IllegalAction, observe
from engine.actions import CHOOSE_ACTIONS, PASS_ACTIONS
from engine.cards import CODES, NO_TRUMP, parse_trump
from engine.layout import OPEN_BLOT_SECOND_BATCH, open_blot_layout
from tests.engine.helpers import (
    legal_cards,
    open_blot_deck,
    open_blot_in_play,
    open_blot_new,
    play,
    play_out,
)

IDENTITY = {}  # open_blot_new(None) with nothing given: deck index i holds card i
TRUMPS = ("C", "D", "H", "S", "NT")


def identity_deal(dealer: int):
    deal = open_blot_new(IDENTITY, dealer)
    assert list(deal.deck) == list(range(32))
    return deal


def choices(seat: int) -> set[str]:
    return {str(CHOOSE_ACTIONS[seat][parse_trump(t)]) for t in TRUMPS}


def actions(deal) -> set[str]:
    return {str(a) for a in deal.legal_actions()}


def view(deal, seat: int) -> list[tuple[str | None, bool]]:
    """A seat's 8 stacks as a spectator sees them: (top face-up card, face-down under)."""
    return [
        (None if top is None else CODES[top], down)
        for top, down in observe(deal, None).stacks[seat]
    ]


# --- layout (D-6) ----------------------------------------------------------------------


def test_layout_table_follows_the_source_order_d6():
    # Dealer 0, non-dealer 1: face-down 4 to n, 4 to d, 4 to n (stacks 4-7), 4 to d;
    # face-up 4 to n, 4 to d on stacks 0-3; the second batch the same on stacks 4-7.
    expected = (
        [(1, k, False) for k in range(4)] + [(0, k, False) for k in range(4)]
        + [(1, k, False) for k in range(4, 8)] + [(0, k, False) for k in range(4, 8)]
        + [(1, k, True) for k in range(4)] + [(0, k, True) for k in range(4)]
        + [(1, k, True) for k in range(4, 8)] + [(0, k, True) for k in range(4, 8)]
    )
    assert list(open_blot_layout(0)) == expected
    assert list(open_blot_layout(1)) == [(1 - s, k, up) for s, k, up in expected]
    assert OPEN_BLOT_SECOND_BATCH == 24


@pytest.mark.parametrize("dealer", [0, 1])
def test_first_batch_face_up_on_stacks_0_to_3_and_stacks_4_to_7_face_down_only(dealer):
    n, d = (dealer + 1) % 2, dealer
    deal = identity_deal(dealer)
    assert view(deal, n) == [(CODES[16 + k], True) for k in range(4)] + [(None, True)] * 4
    assert view(deal, d) == [(CODES[20 + k], True) for k in range(4)] + [(None, True)] * 4
    assert observe(deal, n).hand == ()  # the owner does not see his face-down cards either
    assert observe(deal, None).hand_sizes == (12, 12)  # 8 face down + 4 face up


@pytest.mark.parametrize("dealer", [0, 1])
def test_second_batch_on_stacks_4_to_7_and_every_face_down_card_where_the_table_says(dealer):
    n, d = (dealer + 1) % 2, dealer
    deal = identity_deal(dealer)
    deal.apply(CHOOSE_ACTIONS[n][0])
    assert view(deal, n) == [(CODES[16 + k], True) for k in range(4)] + [
        (CODES[24 + k], True) for k in range(4)
    ]
    assert view(deal, d) == [(CODES[20 + k], True) for k in range(4)] + [
        (CODES[28 + k], True) for k in range(4)
    ]
    # Every face-up card is played at some point; each reveals the card dealt under it.
    under = {}
    for event in play_out(deal):
        if event.kind == "turned_up":
            under[event.data["under"]] = (event.seat, event.data["card"])
    expected = {}
    for k in range(4):
        expected[CODES[16 + k]] = (n, CODES[k])
        expected[CODES[20 + k]] = (d, CODES[4 + k])
        expected[CODES[24 + k]] = (n, CODES[8 + k])
        expected[CODES[28 + k]] = (d, CODES[12 + k])
    assert under == expected


def test_helper_places_stacks_where_the_table_says():
    deck = open_blot_deck(0, {1: [("7H", "AS")], 0: [None, None, None, None, ("JH", "KD")]})
    assert [CODES[deck[i]] for i in (0, 16, 12, 28)] == ["7H", "AS", "JH", "KD"]
    assert sorted(deck) == list(range(32))


# --- choosing trump ----------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_round_one_non_dealer_first_chooses_a_suit_or_no_trump_or_passes(dealer):
    n = (dealer + 1) % 2
    deal = identity_deal(dealer)
    assert deal.to_act == n
    assert actions(deal) == choices(n) | {str(PASS_ACTIONS[n])}
    with pytest.raises(IllegalAction):
        deal.apply(PASS_ACTIONS[dealer])


def test_round_one_dealer_may_choose_or_pass_after_non_dealer_passes():
    deal = identity_deal(0)
    events = deal.apply(PASS_ACTIONS[1])
    assert [e.kind for e in events] == ["passed"]
    assert view(deal, 1)[4:] == [(None, True)] * 4  # no second batch yet
    assert deal.to_act == 0
    assert actions(deal) == choices(0) | {str(PASS_ACTIONS[0])}


@pytest.mark.parametrize("chooser", [1, 0])
def test_round_one_choice_deals_the_second_batch_at_once(chooser):
    deal = identity_deal(0)
    if chooser == 0:
        deal.apply(PASS_ACTIONS[1])
    events = deal.apply(CHOOSE_ACTIONS[chooser][NO_TRUMP])
    assert [e.kind for e in events] == ["chose", "dealt"]
    assert events[1].data["face_up"] == {
        "1": [CODES[24 + k] for k in range(4)], "0": [CODES[28 + k] for k in range(4)]
    }
    assert (deal.trump, deal.taker, deal.phase) == (NO_TRUMP, chooser, "play")
    assert observe(deal, None).to_dict()["trump"] == "NT"


def test_both_pass_round_one_deals_second_batch_then_round_two_starts_with_non_dealer():
    deal = identity_deal(0)
    deal.apply(PASS_ACTIONS[1])
    events = deal.apply(PASS_ACTIONS[0])
    assert [e.kind for e in events] == ["passed", "dealt"]
    assert view(deal, 1)[4:] == [(CODES[24 + k], True) for k in range(4)]
    assert (deal.bid_round, deal.to_act, deal.phase) == (2, 1, "bidding")
    assert actions(deal) == choices(1) | {str(PASS_ACTIONS[1])}


def test_round_two_dealer_must_choose_no_pass():
    deal = identity_deal(1)
    deal.apply(PASS_ACTIONS[0])
    deal.apply(PASS_ACTIONS[1])
    deal.apply(PASS_ACTIONS[0])
    assert deal.to_act == 1
    assert actions(deal) == choices(1)
    with pytest.raises(IllegalAction):
        deal.apply(PASS_ACTIONS[1])
    events = deal.apply(CHOOSE_ACTIONS[1][2])
    assert [e.kind for e in events] == ["chose"]  # the second batch was already dealt
    assert (deal.trump, deal.taker) == (2, 1)


@pytest.mark.parametrize(
    ("dealer", "bids"),
    [
        (0, "n"), (0, "pd"), (0, "ppn"), (0, "pppd"),
        (1, "n"), (1, "pd"), (1, "ppn"), (1, "pppd"),
    ],
)
def test_non_dealer_always_leads_whoever_chose(dealer, bids):
    n = (dealer + 1) % 2
    deal = identity_deal(dealer)
    for b in bids:
        if b == "p":
            deal.apply(PASS_ACTIONS[deal.to_act])
        else:
            assert deal.to_act == (n if b == "n" else dealer)
            deal.apply(CHOOSE_ACTIONS[deal.to_act][0])
    assert deal.phase == "play" and deal.to_act == n
    assert deal.taker == (n if bids[-1] == "n" else dealer)
    assert {a.type for a in deal.legal_actions()} <= {"play", "declare"}
    assert legal_cards(deal) == {CODES[c] for c, _ in observe(deal, None).stacks[n]}


# --- turn-up --------------------------------------------------------------------------------


def test_playing_a_face_up_card_turns_up_the_card_under_it_which_becomes_playable():
    deal = open_blot_in_play({1: [("KD", "AS")], 0: [("8S", "7S")]}, "H")
    assert "KD" not in legal_cards(deal)
    events = play(deal, "AS")
    turned = [e for e in events if e.kind == "turned_up"]
    assert [(e.seat, e.data) for e in turned] == [(1, {"card": "KD", "under": "AS"})]
    assert view(deal, 1)[0] == ("KD", False)
    play(deal, "7S")  # seat 0's 8S turns up
    assert view(deal, 0)[0] == ("8S", False)
    assert deal.to_act == 1 and "KD" in legal_cards(deal)
    play(deal, "KD")
    assert view(deal, 1)[0] == (None, False)  # an empty stack


# --- duties (dealer 0: seat 1 leads, seat 0 answers) ------------------------------------------


def answer(lead: str, ups: str, trump: str, downs: str = "") -> set[str]:
    d_stacks = list(zip(downs.split() or [None] * 8, ups.split(), strict=False))
    deal = open_blot_in_play({1: [(None, lead)], 0: d_stacks}, trump)
    play(deal, lead)
    return legal_cards(deal)


def test_must_follow_suit_with_a_playable_card():
    assert answer("AS", "7S KS 9H 7C 8C 9C 7D 8D", "H") == {"7S", "KS"}


def test_trump_led_must_play_a_higher_trump_if_possible():
    assert answer("AH", "9H QH 7H 7S 7C 8C 7D 8D", "H") == {"9H"}


def test_trump_led_any_trump_when_unable_to_beat():
    assert answer("JH", "9H 7H 7S 8S 7C 8C 7D 8D", "H") == {"9H", "7H"}


def test_cannot_follow_must_trump_with_any_trump():
    assert answer("AS", "7H 9H 7C 8C 9C 7D 8D 9D", "H") == {"7H", "9H"}


def test_cannot_follow_nor_trump_any_card():
    ups = "7C 8C 9C TC 7D 8D 9D TD"
    assert answer("AS", ups, "H") == set(ups.split())


def test_face_down_cards_never_count_for_duties():
    # Seat 0 holds a spade and trumps, but only face down: he may play anything.
    ups = "7C 8C 9C TC 7D 8D 9D TD"
    downs = "7S 8S JH 9H 8H 7H QS KS"
    assert answer("AS", ups, "H", downs) == set(ups.split())


def test_no_trump_game_follow_suit_only_need_not_beat():
    assert answer("TS", "AS 7S KH 7C 8C 9C 7D 8D", "NT") == {"AS", "7S"}


def test_no_trump_game_any_card_when_unable_to_follow():
    ups = "KH 7H 7C 8C 9C 7D 8D 9D"
    assert answer("AS", ups, "NT") == set(ups.split())


# --- card values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trump", "lead", "ups", "reply", "points"),
    [
        pytest.param("NT", "AC", "7C 8D 9D TD JD QD KD AD", "7C", 19, id="no_trump_ace_19"),
        pytest.param("NT", "TC", "AC 8D 9D 7D JD QD KD AD", "AC", 29, id="no_trump_ace_and_ten"),
        pytest.param("NT", "KC", "QC JC 9D 7D 8D TD 9C AD", "QC", 7, id="no_trump_king_queen"),
        pytest.param("NT", "JC", "9C 8D 9D 7D TD QD KD AD", "9C", 2, id="no_trump_jack_2_nine_0"),
        pytest.param("H", "JH", "9H 8D 9D 7D TD QD KD AD", "9H", 34, id="trump_jack_20_nine_14"),
        pytest.param("H", "AC", "TC 8D 9D 7D JD QD KD AD", "TC", 21, id="plain_ace_11_ten_10"),
        pytest.param("H", "JC", "9C 8D 9D 7D TD QD KD AD", "9C", 2, id="plain_jack_2_nine_0"),
    ],
)
def test_card_points_per_trick(trump, lead, ups, reply, points):
    deal = open_blot_in_play({1: [(None, lead)], 0: [(None, u) for u in ups.split()]}, trump)
    play(deal, f"{lead} {reply}")
    assert deal.trick_records()[0].points == points


@pytest.mark.parametrize("trump", TRUMPS)
def test_card_points_of_a_deal_add_up_to_162(trump):
    deal = open_blot_in_play({}, trump)
    play_out(deal)
    result = deal.result()
    assert sum(result.card_points) == 162
    assert sum(t.points for t in result.tricks) == 152  # + the last trick's 10
    assert len(result.tricks) == 16
