"""Belote announcements (docs/rules.md §7.1): the combinations, the first-trick
window, which side's count, what each seat sees, and whole deals scored by hand."""

from __future__ import annotations

import pytest

from engine import IllegalAction, observe
from engine.announcements import (
    Announcement,
    combinations,
    counted_side,
    kind_of,
    points_of,
)
from engine.cards import ALL_TRUMP, NO_TRUMP, card
from tests.engine.helpers import (
    belote_in_play,
    call,
    cards,
    codes,
    coinche_new,
    declarable,
    declare_codes,
    play,
    play_out,
)

SUITED = {
    0: "7S 8S 9S TS JS QS KS AS",
    1: "7H 8H 9H TH JH QH KH AH",
    2: "7C 8C 9C TC JC QC KC AC",
    3: "7D 8D 9D TD JD QD KD AD",
}
H, S = 2, 3


def mask(text: str) -> int:
    return sum(1 << c for c in cards(text))


def found(text: str) -> list[list[str]]:
    return [codes(c for c in range(32) if m >> c & 1) for m in combinations(mask(text))]


# --- combinations ----------------------------------------------------------------------


def test_runs_are_taken_whole_and_named_by_length() -> None:
    assert found("7H 8H 9H TH JH AS KS 7C") == [["7H", "8H", "9H", "TH", "JH"]]
    assert kind_of(mask("7H 8H 9H")) == "tierce" and points_of(mask("7H 8H 9H")) == 20
    assert kind_of(mask("TS JS QS KS")) == "cinquante" and points_of(mask("TS JS QS KS")) == 50
    assert kind_of(mask("7D 8D 9D TD JD QD KD AD")) == "cent"  # D-13: one cent
    assert points_of(mask("7D 8D 9D TD JD QD KD AD")) == 100


def test_two_runs_of_one_suit_with_a_gap_are_two_combinations() -> None:
    assert found("7C 8C 9C JC QC KC 7D 8D") == [["7C", "8C", "9C"], ["JC", "QC", "KC"]]


@pytest.mark.parametrize(
    ("rank", "points"), [("J", 200), ("9", 150), ("A", 100), ("T", 100), ("K", 100), ("Q", 100)]
)
def test_a_carre_is_worth_its_ranks_points(rank: str, points: int) -> None:
    four = f"{rank}C {rank}D {rank}H {rank}S"
    assert kind_of(mask(four)) == "carre" and points_of(mask(four)) == points
    assert found(four + " 7C 8D 7H 8S") == [four.split()]


def test_four_eights_or_sevens_are_nothing() -> None:
    assert found("8C 8D 8H 8S 7C 7D 7H 7S") == []


def test_a_card_may_be_in_one_run_and_one_carre() -> None:
    # D-14: the jack of hearts is in the carré and in the tierce 9H TH JH.
    assert found("JC JD JH JS 9H TH 7C 7D") == [["JC", "JD", "JH", "JS"], ["9H", "TH", "JH"]]


# --- which side's announcements count -------------------------------------------------------


def side(*made: tuple[int, str], trump: int = H) -> int | None:
    return counted_side([Announcement(seat, mask(text)) for seat, text in made], trump)


def test_more_points_win() -> None:
    assert side((0, "7H 8H 9H"), (1, "7C 8C 9C TC")) == 1
    assert side((0, "9C 9D 9H 9S"), (1, "JC QC KC AC 7C 8C 9C TC")) == 0


def test_at_equal_points_a_carre_beats_a_run() -> None:
    assert side((0, "7C 8C 9C TC JC"), (1, "QC QD QH QS")) == 1  # D-17


def test_carres_of_100_rank_ace_ten_king_queen() -> None:
    assert side((0, "KC KD KH KS"), (1, "TC TD TH TS")) == 1
    assert side((0, "AC AD AH AS"), (1, "TC TD TH TS")) == 0
    assert side((0, "KC KD KH KS"), (1, "QC QD QH QS")) == 0


def test_equal_runs_go_to_the_longer_then_the_higher_top_then_the_trump_suit() -> None:
    assert side((0, "7C 8C 9C TC JC"), (1, "TD JD QD KD AD 9D")) == 1  # six beats five
    assert side((0, "8C 9C TC"), (1, "7D 8D 9D")) == 0  # higher top card
    assert side((0, "8C 9C TC"), (1, "8H 9H TH")) == 1  # hearts are trump
    assert side((0, "8C 9C TC"), (1, "8H 9H TH"), trump=S) is None  # D-18


def test_in_all_trump_and_no_trump_no_run_is_in_trump() -> None:
    for trump in (ALL_TRUMP, NO_TRUMP):
        assert side((0, "8C 9C TC"), (1, "8H 9H TH"), trump=trump) is None


def test_the_best_of_each_side_decides_for_both_partners() -> None:
    assert side((0, "7C 8C 9C"), (2, "7D 8D 9D TD"), (1, "QH KH AH")) == 0
    assert side() is None
    assert side((3, "7C 8C 9C")) == 1


# --- the first-trick window -------------------------------------------------------------------


def test_each_seat_may_announce_its_combinations_before_its_first_card_only() -> None:
    deal = coinche_new(SUITED)
    call(deal, "80 H", "pass", "pass", "pass")
    assert declarable(deal) == [["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]]
    declare_codes(deal, "7H 8H 9H TH JH QH KH AH")
    assert declarable(deal) == []  # announced once
    with pytest.raises(IllegalAction):
        declare_codes(deal, "7H 8H 9H TH JH QH KH AH")
    play(deal, "AH")
    assert deal.to_act == 2
    assert declarable(deal) == [["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]]
    play(deal, "7C")  # seat 2 keeps its cent: it will never score
    assert declarable(deal) == [["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]]
    play(deal, "7D 7S")
    assert deal.to_act == 1 and len(deal.tricks) == 1
    assert declarable(deal) == []  # the window is over


def test_a_seat_may_announce_only_a_combination_it_holds() -> None:
    deal = coinche_new(SUITED)
    call(deal, "80 H", "pass", "pass", "pass")
    for text in ("7C 8C 9C", "7H 8H 9H", "JH QH KH AH"):  # not his, or not whole
        with pytest.raises(IllegalAction):
            declare_codes(deal, text)
    assert deal.announced == []


def test_announcements_need_their_switch() -> None:
    deal = coinche_new(SUITED, rules={"coinche": True})
    call(deal, "80 H", "pass", "pass", "pass")
    assert declarable(deal) == []


def test_classic_bidding_has_the_same_first_trick_window() -> None:
    deal = belote_in_play(
        {0: "JC JD JH JS 7C 8C 9C 7D", 1: "TC QC KC AC 8D 9D TD QD",
         2: "KD AD 7H 8H 9H TH QH KH", 3: "AH 7S 8S 9S TS QS KS AS"},
        proposed="JS", taker=0, rules={"announcements": True},
    )
    play(deal, "TC")  # seat 1 leads
    assert declarable(deal) == [["7H", "8H", "9H", "TH"]]
    play(deal, "7H")
    assert declarable(deal) == [["7S", "8S", "9S", "TS"], ["QS", "KS", "AS"]]
    declare_codes(deal, "7S 8S 9S TS")
    play(deal, "7S")
    assert declarable(deal) == [["7C", "8C", "9C"], ["JC", "JD", "JH", "JS"]]


# --- what each seat sees --------------------------------------------------------------------


def test_a_runs_cards_are_hidden_until_the_first_trick_ends_then_shown_if_its_side_counts() -> None:
    deal = coinche_new({
        1: "7H 8H 9H TH JS JD JC JH",
        2: "QH KH AH 7C 8C 9C TC QC",
        3: "KC AC 7D 8D 9D TD QD KD",
        0: "AD 7S 8S 9S TS QS KS AS",
    })
    call(deal, "80 H", "pass", "pass", "pass")
    declare_codes(deal, "7H 8H 9H TH JH")  # a cent
    declare_codes(deal, "JC JD JH JS")  # a carré of jacks
    play(deal, "JS")
    declare_codes(deal, "7C 8C 9C TC")  # seat 2's cinquante
    seen = observe(deal, 0)
    assert [(d.seat, d.kind, d.points) for d in seen.declarations] == [
        (1, "cent", 100), (1, "carre", 200), (2, "cinquante", 50)]
    assert [codes(d.cards) for d in seen.declarations] == [
        [], ["JC", "JD", "JH", "JS"], []]  # a carré's cards are its public rank
    assert codes(observe(deal, 1).declarations[0].cards) == ["7H", "8H", "9H", "TH", "JH"]
    assert seen.counted_side is None
    play(deal, "QH KC 7S")
    after = observe(deal, 3)
    assert after.counted_side == 1
    assert [codes(d.cards) for d in after.declarations] == [
        ["7H", "8H", "9H", "TH", "JH"], ["JC", "JD", "JH", "JS"], []]
    assert codes(observe(deal, 2).declarations[2].cards) == ["7C", "8C", "9C", "TC"]
    assert observe(deal, None).declarations[0].cards == tuple(cards("7H 8H 9H TH JH"))


# --- whole deals, scored by hand --------------------------------------------------------------


def test_four_equal_cents_count_for_the_side_whose_cent_is_in_trump() -> None:
    deal = coinche_new(SUITED)
    call(deal, "80 H", "pass", "pass", "pass")
    for _ in range(4):
        (a,) = [x for x in deal.legal_actions() if x.type == "declare"]
        deal.apply(a)
        play(deal, codes([min(a.cards or ())])[0])
    play_out(deal)
    result = deal.result().to_dict()
    assert [(d["seat"], d["kind"], d["points"], d["counted"]) for d in result["declarations"]] == [
        (1, "cent", 100, True), (2, "cent", 100, False), (3, "cent", 100, True),
        (0, "cent", 100, False)]
    # Unbid capot 252 + belote 20 + two cents 200 + the 80 bid.
    assert result["deal_points"] == [0, 252 + 20 + 200 + 80]


def test_four_equal_cents_in_all_trump_count_for_nobody() -> None:
    deal = coinche_new(SUITED)
    call(deal, "80 AT", "pass", "pass", "pass")
    for _ in range(4):
        (a,) = [x for x in deal.legal_actions() if x.type == "declare"]
        deal.apply(a)
        play(deal, codes([min(a.cards or ())])[0])
    play_out(deal)
    result = deal.result().to_dict()
    assert [d["counted"] for d in result["declarations"]] == [False] * 4
    assert result["belote"] == [0, 1, 1, 0]
    # Unbid capot 252 + hearts and diamonds belotes 40 + 80; defenders their 40.
    assert result["deal_points"] == [40, 252 + 40 + 80]


def test_a_classic_deal_without_announcements_has_no_declarations_and_no_contract() -> None:
    deal = belote_in_play(
        {0: "JC JD JH JS 7C 8C 9C 7D", 1: "TC QC KC AC 8D 9D TD QD",
         2: "KD AD 7H 8H 9H TH QH KH", 3: "AH 7S 8S 9S TS QS KS AS"},
        proposed="JS", taker=0,
    )
    assert all(a.type == "play" for a in deal.legal_actions())
    play_out(deal)
    result = deal.result().to_dict()
    assert result["declarations"] == [] and "contract" not in result
    assert card("JS") in [c for _, t, _, _ in deal.tricks for c in t]
