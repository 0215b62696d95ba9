"""docs/rules.md §3 "Declarations (combinations)" on literal Open Blot deals: the window,
the kinds and their values, whole runs, one card in one combination (D-7), growing
runs (D-8), which declarations count, and Blot. Dealer 0 throughout: seat 1 (the
non-dealer) leads and declares first, seat 0 answers."""

from __future__ import annotations

import pytest

from engine import IllegalAction, observe
from engine.actions import declare
from engine.cards import CODES
from tests.engine.helpers import (
    cards,
    declarable,
    declare_codes,
    open_blot_in_play,
    play,
    play_out,
)

N, D = 1, 0


def ups(text: str, downs: str = "") -> list[tuple[str | None, str | None]]:
    """Stacks with these face-up cards (and, in order, these face-down ones)."""
    down = downs.split()
    return [(down[k] if k < len(down) else None, c) for k, c in enumerate(text.split())]


def final(deal) -> list[tuple[int, str, list[str], int, bool]]:
    return [
        (d.seat, d.kind, list(d.cards), d.points, d.counted) for d in deal.result().declarations
    ]


def no_growth_stacks(n_ups: str, d_ups: str, n_avoid: str, d_avoid: str, n_down: str = ""):
    """Stacks with these face-up cards and every other card face down, where no card
    of a suit in ``X_avoid`` lies under seat X (so its declared runs cannot grow)."""
    taken = set(n_ups.split() + d_ups.split() + n_down.split())
    rest = [c for c in CODES if c not in taken]
    rest.sort(key=lambda c: (c[1] not in n_avoid + d_avoid))  # the constrained ones first
    downs = {N: n_down.split(), D: []}
    avoid = {N: n_avoid, D: d_avoid}
    for c in rest:
        seat = next(s for s in (N, D) if len(downs[s]) < 8 and c[1] not in avoid[s])
        downs[seat].append(c)
    return {N: ups(n_ups, " ".join(downs[N])), D: ups(d_ups, " ".join(downs[D]))}


def shown(deal) -> list[tuple[int, str, list[str], int]]:
    return [
        (d.seat, d.kind, [CODES[c] for c in d.cards], d.points)
        for d in observe(deal, None).declarations
    ]


# --- the window -----------------------------------------------------------------------------


def test_leader_declares_before_leading():
    deal = open_blot_in_play({N: ups("7C 8C 9C JD KD 7S 9S JH")}, "H")
    assert declarable(deal) == [["7C", "8C", "9C"]]
    events = declare_codes(deal, "7C 8C 9C")
    assert [(e.kind, e.seat, e.data) for e in events] == [
        ("declared", N, {"kind": "terz", "cards": ["7C", "8C", "9C"], "points": 20})
    ]
    assert deal.to_act == N and declarable(deal) == []
    assert shown(deal) == [(N, "terz", ["7C", "8C", "9C"], 20)]


def test_answerer_declares_before_answering_not_the_leader_after_leading():
    deal = open_blot_in_play(
        {N: ups("7C 8C 9C JD KD 7S 9S JH"), D: ups("7D 8D 9D JC KC 8S TS QH")}, "H"
    )
    play(deal, "JD")
    assert deal.to_act == D
    assert declarable(deal) == [["7D", "8D", "9D"]]
    with pytest.raises(IllegalAction):
        deal.apply(declare(N, cards("7C 8C 9C")))  # the leader's window has closed
    declare_codes(deal, "7D 8D 9D")
    play(deal, "7D")
    result_seats = [d.seat for d in observe(deal, None).declarations]
    assert result_seats == [D]


def test_no_declaration_after_the_first_trick():
    deal = open_blot_in_play(
        {N: ups("JD 8C 9C 7C KD 7S 9S JH"), D: ups("7D 8D 9D JC KC 8S TS QH")}, "H"
    )
    play(deal, "JD 7D")  # seat 1 wins and leads the second trick, terz still in hand
    assert deal.to_act == N
    assert [a for a in deal.legal_actions() if a.type == "declare"] == []
    with pytest.raises(IllegalAction):
        deal.apply(declare(N, cards("7C 8C 9C")))
    play(deal, "KD")
    assert declarable(deal) == []


def test_undeclared_combination_does_not_count():
    deal = open_blot_in_play({N: ups("7C 8C 9C JD KD 7S 9S JH")}, "H")
    play_out(deal)
    assert deal.result().declarations == ()


def test_blot_is_not_declared():
    deal = open_blot_in_play({N: ups("KH QH 7C 9C JD 7S 9S AD")}, "H")
    assert declarable(deal) == []


# --- kinds and values -----------------------------------------------------------------------


def four_of(rank: str) -> str:
    return " ".join(rank + s for s in "CDHS")


def filler_for(rank: str) -> str:
    a, b = ("9", "J") if rank in "7A" else ("7", "A")
    return f"{a}C {b}C {a}D {b}D"


@pytest.mark.parametrize(
    ("trump", "rank", "points"),
    [
        ("H", "J", 200), ("H", "9", 140), ("H", "A", 110),
        ("H", "T", 100), ("H", "K", 100), ("H", "Q", 100),
        ("NT", "A", 190), ("NT", "T", 100), ("NT", "K", 100), ("NT", "Q", 100), ("NT", "J", 100),
    ],
)
def test_four_of_a_kind_values(trump, rank, points):
    deal = open_blot_in_play({N: ups(f"{four_of(rank)} {filler_for(rank)}")}, trump)
    assert declarable(deal) == [sorted(four_of(rank).split(), key=lambda c: cards(c))]
    events = declare_codes(deal, four_of(rank))
    assert (events[0].data["kind"], events[0].data["points"]) == ("four", points)


@pytest.mark.parametrize(
    ("trump", "rank"), [("H", "8"), ("H", "7"), ("NT", "9"), ("NT", "8"), ("NT", "7")]
)
def test_worthless_fours_are_not_combinations(trump, rank):
    deal = open_blot_in_play({N: ups(f"{four_of(rank)} {filler_for(rank)}")}, trump)
    assert declarable(deal) == []
    with pytest.raises(IllegalAction):
        declare_codes(deal, four_of(rank))


@pytest.mark.parametrize(
    ("run", "kind", "points"),
    [
        ("7H 8H 9H", "terz", 20),
        ("9H TH JH QH", "fifty", 50),
        ("7H 8H 9H TH JH", "hundred", 100),
        ("7H 8H 9H TH JH QH KH AH", "hundred", 100),
    ],
)
def test_runs_by_length_terz_fifty_hundred(run, kind, points):
    filler = ["JC", "KC", "7D", "9D", "JS", "AS"][: 8 - len(run.split())]
    deal = open_blot_in_play({N: ups(" ".join([*run.split(), *filler]))}, "S")
    assert declarable(deal) == [run.split()]
    events = declare_codes(deal, run)
    assert (events[0].data["kind"], events[0].data["points"]) == (kind, points)


def test_a_run_is_declared_whole_only():
    deal = open_blot_in_play({N: ups("7H 8H 9H TH JC KC 7D 9D")}, "S")
    assert declarable(deal) == [["7H", "8H", "9H", "TH"]]
    for part in ("7H 8H 9H", "8H 9H TH"):
        with pytest.raises(IllegalAction):
            declare_codes(deal, part)


def test_only_face_up_cards_can_be_declared():
    # 9H lies face down under 8H: 7H 8H is no run, and 7-8-9 cannot be declared.
    deal = open_blot_in_play({N: [(None, "7H"), ("9H", "8H"), (None, "JC")]}, "S")
    with pytest.raises(IllegalAction):
        declare_codes(deal, "7H 8H 9H")


def test_after_four_jacks_the_rest_of_a_run_through_the_jack_is_declarable_d7():
    deal = open_blot_in_play({N: ups("JC JD JH JS 7H 8H 9H TH")}, "S")
    assert declarable(deal) == [["7H", "8H", "9H", "TH", "JH"], ["JC", "JD", "JH", "JS"]]
    declare_codes(deal, "JC JD JH JS")
    assert declarable(deal) == [["7H", "8H", "9H", "TH"]]
    events = declare_codes(deal, "7H 8H 9H TH")
    assert (events[0].data["kind"], events[0].data["points"]) == ("fifty", 50)


def test_a_card_is_in_one_combination_only():
    deal = open_blot_in_play({N: ups("JC JD JH JS 7H 8H 9H TH")}, "S")
    declare_codes(deal, "7H 8H 9H TH JH")
    assert declarable(deal) == []  # the four Jacks would reuse JH
    with pytest.raises(IllegalAction):
        declare_codes(deal, "JC JD JH JS")


# --- growing runs (D-8) ------------------------------------------------------------------


def grew(events) -> list[tuple[str, list[str]]]:
    return [(e.data["kind"], e.data["cards"]) for e in events if e.kind == "grew"]


def test_terz_grows_to_fifty_when_an_adjacent_card_turns_up_d8():
    deal = open_blot_in_play({N: ups("AS 7H 8H 9H JC KC 7D 9D", "TH")}, "C")
    declare_codes(deal, "7H 8H 9H")
    events = play(deal, "AS")
    assert grew(events) == [("fifty", ["7H", "8H", "9H", "TH"])]
    assert shown(deal) == [(N, "fifty", ["7H", "8H", "9H", "TH"], 50)]


def test_growth_takes_in_face_up_undeclared_cards_beyond_the_turned_card_d8():
    deal = open_blot_in_play({N: ups("AS 7H 8H 9H JH 7C 9C 7D", "TH")}, "C")
    declare_codes(deal, "7H 8H 9H")
    events = play(deal, "AS")
    assert grew(events) == [("hundred", ["7H", "8H", "9H", "TH", "JH"])]


def test_a_hundred_grows_too_and_stays_100_d8():
    deal = open_blot_in_play({N: ups("AS 7H 8H 9H TH JH 7C 9C", "QH")}, "C")
    declare_codes(deal, "7H 8H 9H TH JH")
    events = play(deal, "AS")
    assert grew(events) == [("hundred", ["7H", "8H", "9H", "TH", "JH", "QH"])]
    assert shown(deal) == [(N, "hundred", ["7H", "8H", "9H", "TH", "JH", "QH"], 100)]


def test_a_declared_run_grows_after_the_first_trick_too_d8():
    # Seat 1 wins the first trick with AS, then plays KS, under which lies TH.
    deal = open_blot_in_play(
        {N: ups("AS 7H 8H 9H KS 7C 9C 7D", "AC 8S AD QS TH"), D: ups("7S 8D QC KD JS 8C TC QD")},
        "C",
    )
    declare_codes(deal, "7H 8H 9H")
    play(deal, "AS 7S")
    assert deal.to_act == N
    events = play(deal, "KS")
    assert grew(events) == [("fifty", ["7H", "8H", "9H", "TH"])]


def test_no_growth_once_a_card_of_the_run_was_played_d8():
    deal = open_blot_in_play({N: ups("7H 8H 9H AS JC KC 7D 9D", "TH")}, "C")
    declare_codes(deal, "7H 8H 9H")
    events = play(deal, "7H")  # TH turns up under the played 7H
    assert [e.data["card"] for e in events if e.kind == "turned_up"] == ["TH"]
    assert grew(events) == []
    assert shown(deal) == [(N, "terz", ["7H", "8H", "9H"], 20)]


def test_no_growth_over_a_card_of_a_declared_four_d8():
    deal = open_blot_in_play({N: ups("JC JD JH JS 7H 8H 9H TH", "QH")}, "C")
    declare_codes(deal, "JC JD JH JS")
    declare_codes(deal, "7H 8H 9H TH")
    events = play(deal, "JC")  # QH turns up next to JH, which belongs to the four
    assert grew(events) == []
    assert shown(deal) == [
        (N, "four", ["JC", "JD", "JH", "JS"], 200),
        (N, "fifty", ["7H", "8H", "9H", "TH"], 50),
    ]


def test_no_growth_over_a_declared_run_that_has_a_played_card_d8():
    # TH lies under KH: playing KH breaks the J-Q-K terz, and TH joins only 7-8-9.
    deal = open_blot_in_play({N: ups("KH 7H 8H 9H JH QH 7C 9D", "TH")}, "C")
    declare_codes(deal, "7H 8H 9H")
    declare_codes(deal, "JH QH KH")
    events = play(deal, "KH")
    assert grew(events) == [("fifty", ["7H", "8H", "9H", "TH"])]
    assert shown(deal) == [
        (N, "fifty", ["7H", "8H", "9H", "TH"], 50),
        (N, "terz", ["JH", "QH", "KH"], 20),
    ]


def test_growth_joining_two_declared_runs_makes_one_keeping_the_earlier_declaration_d8():
    deal = open_blot_in_play({N: ups("AS 7H 8H 9H JH QH KH 7C", "TH")}, "C")
    declare_codes(deal, "7H 8H 9H")
    declare_codes(deal, "JH QH KH")
    events = play(deal, "AS")
    merged = ["7H", "8H", "9H", "TH", "JH", "QH", "KH"]
    assert ("hundred", merged) in grew(events)
    assert shown(deal) == [(N, "hundred", merged, 100)]
    assert [d.order for d in deal.declarations] == [0]  # the time of the earlier terz


# --- which declarations count ----------------------------------------------------------------


def counted(n_ups: str, n_declares: list[str], d_ups: str, d_declares: list[str], trump: str):
    """Both declare in the first trick, the deal is played out; (seat, cards, counted)."""
    run_suits = {  # the suit of each declared run (a four has one rank, a run one suit)
        seat: "".join(text[1] for text in texts if len({c[0] for c in text.split()}) > 1)
        for seat, texts in ((N, n_declares), (D, d_declares))
    }
    deal = open_blot_in_play(no_growth_stacks(n_ups, d_ups, run_suits[N], run_suits[D]), trump)
    for text in n_declares:
        declare_codes(deal, text)
    play(deal, n_ups.split()[-1])
    for text in d_declares:
        declare_codes(deal, text)
    play_out(deal)
    return [(d.seat, " ".join(d.cards), d.counted) for d in deal.result().declarations]


@pytest.mark.parametrize(
    ("n_ups", "n_decl", "d_ups", "d_decl", "trump", "winner"),
    [
        pytest.param("QC QD QH QS 7C 9D JD AD", "QC QD QH QS",
                     "7S 8S 9S TS JS 8C TC KD", "7S 8S 9S TS JS", "H", N,
                     id="any_four_beats_any_run"),
        pytest.param("AC AD AH AS 7C JC 7D JD", "AC AD AH AS",
                     "9C 9D 9H 9S 7S JS KC KD", "9C 9D 9H 9S", "H", D,
                     id="fours_by_value_nines_140_over_aces_110"),
        pytest.param("KC KD KH KS 7C 9C 7D JD", "KC KD KH KS",
                     "TC TD TH TS 7S 9S 8C 8D", "TC TD TH TS", "H", D,
                     id="equal_fours_trump_order_ten_over_king"),
        pytest.param("QC QD QH QS 7C 9C 7D JD", "QC QD QH QS",
                     "KC KD KH KS 7S 9S 8C 8D", "KC KD KH KS", "H", D,
                     id="equal_fours_trump_order_king_over_queen"),
        pytest.param("JC JD JH JS 7C 9C 7D 9D", "JC JD JH JS",
                     "QC QD QH QS 7S 9S 8C 8D", "QC QD QH QS", "NT", D,
                     id="equal_fours_no_trump_order_queen_over_jack"),
        pytest.param("TC TD TH TS 7C 8D 7D QD", "TC TD TH TS",
                     "KC KD KH KS 7S 9S 8C 9D", "KC KD KH KS", "NT", N,
                     id="equal_fours_no_trump_order_ten_over_king"),
        pytest.param("7C 8C 9C JD KD 7S 9S AH", "7C 8C 9C",
                     "7D 8D 9D TD QC KH 8S QS", "7D 8D 9D TD", "S", D,
                     id="longer_run_wins"),
        pytest.param("7C 8C 9C TC JC QC 7D AD", "7C 8C 9C TC JC QC",
                     "TS JS QS KS AS 9D JD 8H", "TS JS QS KS AS", "H", D,
                     id="run_length_capped_at_five_then_top_card"),
        pytest.param("7C 8C 9C JD KD 7S 9S AH", "7C 8C 9C",
                     "8D 9D TD QC KH 8S QS AC", "8D 9D TD", "S", D,
                     id="same_length_higher_top_card_wins"),
        pytest.param("QC KC AC 7D 9D 7S 9S 8H", "QC KC AC",
                     "QH KH AH 8D TD 8S TS 8C", "QH KH AH", "H", D,
                     id="same_top_card_trump_suit_wins"),
        pytest.param("QH KH AH 7D 9D 7S 9S 8C", "QH KH AH",
                     "QC KC AC 8D TD 8S TS 8H", "QC KC AC", "H", N,
                     id="same_top_card_trump_suit_wins_for_the_leader_too"),
        pytest.param("7C 8C 9C JD KD QS AS AH", "7C 8C 9C",
                     "7D 8D 9D JC KC 8S TS QH", "7D 8D 9D", "H", N,
                     id="same_run_otherwise_declared_first_wins"),
        pytest.param("7C 8C 9C JD KD QS AS AH", "7C 8C 9C",
                     "7D 8D 9D JC KC 8S TS QH", "7D 8D 9D", "NT", N,
                     id="same_run_declared_first_wins_no_trump"),
    ],
)
def test_only_the_best_combination_holder_scores(n_ups, n_decl, d_ups, d_decl, trump, winner):
    got = counted(n_ups, [n_decl], d_ups, [d_decl], trump)
    assert got == [(N, n_decl, winner == N), (D, d_decl, winner == D)]


def test_the_best_holder_scores_all_his_declarations_the_other_none():
    got = counted(
        "QC QD QH QS 7C 8C 9C AD", ["QC QD QH QS", "7C 8C 9C"],
        "7S 8S 9S TS 8D TD KD KC", ["7S 8S 9S TS"], "H",
    )
    assert got == [(N, "QC QD QH QS", True), (N, "7C 8C 9C", True), (D, "7S 8S 9S TS", False)]


def test_comparison_is_on_final_sizes_after_growth():
    # Seat 1's terz (top 9H) grows to a fifty when TH turns up and beats seat 0's
    # terz that was better at the time (top KS).
    stacks = no_growth_stacks("AS 7H 8H 9H JC KC 7D 9D", "JS QS KS 8C TC 8D TD QD", "H", "S", "TH")
    deal = open_blot_in_play(stacks, "C")
    declare_codes(deal, "7H 8H 9H")
    play(deal, "AS")
    declare_codes(deal, "JS QS KS")
    play_out(deal)
    assert final(deal) == [
        (N, "fifty", ["7H", "8H", "9H", "TH"], 50, True),
        (D, "terz", ["JS", "QS", "KS"], 20, False),
    ]


# --- Blot ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stacks", "trump", "blot"),
    [
        pytest.param({N: [("KH", "QH")]}, "H", N, id="king_face_down_queen_face_up"),
        pytest.param({D: [("KS", "7C"), ("QS", "8C")]}, "S", D, id="both_face_down"),
        pytest.param({D: [(None, "KS"), (None, "QS")]}, "S", D, id="both_face_up"),
        pytest.param({N: [("KH", "QH")]}, "NT", None, id="never_in_no_trump"),
        pytest.param({N: [("KH", "7C")], D: [("QH", "8C")]}, "H", None, id="split_no_blot"),
        pytest.param(
            {N: [("KH", "QH"), ("KS", None)], D: [("QS", None)]}, "S", None,
            id="plain_king_queen_no_blot",
        ),
    ],
)
def test_blot_is_king_and_queen_of_trump_dealt_to_one_player(stacks, trump, blot):
    deal = open_blot_in_play(stacks, trump)
    play_out(deal)
    assert deal.result().belote == blot
