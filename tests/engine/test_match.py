"""docs/rules.md §4 Matches: formats, the end condition, dealer rotation, litige points
carried to the next deal's winner, and the score table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import DealResult, EngineError, Match, MatchFormat, RuleSet, new_deal
from engine.actions import PASS_ACTIONS
from tests.engine.test_scoring import belote_result

VOID = DealResult(void=True)


def deal(points, outcome="made", held=0, capot=None, belote=None, trump="H", taker=1):
    return DealResult(
        void=False, trump=trump, taker=taker, tricks=(), card_points=tuple(points),
        declarations=(), belote=belote, outcome=outcome, capot=capot,
        deal_points=tuple(points), held_points=held,
    )


def match(fmt: str, variant: str = "belote", first_dealer: int = 0) -> Match:
    return Match(variant, MatchFormat.parse(fmt), first_dealer)


def fold(m: Match, *results: DealResult) -> Match:
    for r in results:
        m.add_deal(r)
    return m


# --- formats ------------------------------------------------------------------------------


def test_belote_default_format_is_first_to_1000():
    assert MatchFormat.default("belote") == MatchFormat("first_to", 1000)


def test_format_choices_are_first_to_501_1001_2001_and_best_of_1_3_5():
    assert [str(f) for f in MatchFormat.choices("open_blot")] == [
        "first_to:501", "first_to:1001", "first_to:2001",
        "best_of:1", "best_of:3", "best_of:5",
    ]
    assert "first_to:1000" in [str(f) for f in MatchFormat.choices("belote")]


@pytest.mark.parametrize(
    "text", ["first_to:500", "first_to:2000", "best_of:2", "best_of:7", "race:3", "first_to"]
)
def test_other_formats_are_refused(text):
    with pytest.raises(EngineError):
        MatchFormat.parse(text)


# --- first to N -----------------------------------------------------------------------------


def test_first_to_ends_after_the_deal_in_which_a_side_reaches_the_target():
    m = fold(match("first_to:501"), deal((250, 100)), deal((200, 100)))
    assert not m.is_over and m.winner is None
    fold(m, deal((51, 0)))
    assert m.totals == [501, 200]
    assert m.is_over and m.winner == 0


def test_first_to_higher_total_wins_when_both_pass_the_target():
    m = fold(match("first_to:1001"), deal((980, 990)))
    fold(m, deal((30, 40)))
    assert m.winner == 1


def test_first_to_equal_totals_play_one_more_deal_d5():
    m = fold(match("first_to:501"), deal((490, 490)), deal((20, 20)))
    assert m.totals == [510, 510] and not m.is_over
    fold(m, deal((0, 162)))
    assert m.winner == 1


def test_first_to_equal_totals_again_keeps_playing():
    m = fold(match("first_to:501"), deal((510, 510)), deal((81, 81)))
    assert not m.is_over
    fold(m, deal((162, 0)))
    assert m.winner == 0


def test_match_over_refuses_more_deals():
    m = fold(match("first_to:501"), deal((600, 0)))
    with pytest.raises(EngineError):
        m.add_deal(deal((0, 162)))


# --- best of N ------------------------------------------------------------------------------


def test_best_of_3_majority_of_deals_void_and_litige_not_counted_d11():
    m = match("best_of:3")
    fold(m, deal((100, 62)))
    fold(m, VOID)
    fold(m, deal((81, 0), outcome="litige", held=81))  # defenders scored more: still a tie
    fold(m, deal((81, 81), outcome="litige"))  # split
    assert [r.wins for r in m.rows] == [(1, 0)] * 4 and not m.is_over
    fold(m, deal((10, 152)))
    assert m.wins == [1, 1] and not m.is_over
    fold(m, deal((162, 0), outcome="inside"))
    assert m.wins == [2, 1] and m.winner == 0


def test_best_of_1_first_counted_deal_decides():
    m = fold(match("best_of:1"), VOID, deal((81, 81), outcome="litige"))
    assert not m.is_over
    fold(m, deal((20, 182), outcome="inside"))
    assert m.winner == 1


def test_best_of_5_needs_three_deals():
    m = fold(match("best_of:5"), deal((100, 62)), deal((100, 62)), deal((0, 162)), deal((0, 162)))
    assert not m.is_over
    fold(m, deal((0, 252), capot=1))
    assert m.winner == 1 and m.wins == [2, 3]


def test_best_of_counts_deals_not_points():
    m = fold(match("best_of:3"), deal((0, 500)), deal((82, 80)), deal((90, 72)))
    assert m.totals == [172, 652]
    assert m.winner == 0


# --- dealer rotation --------------------------------------------------------------------------


def test_deal_passes_to_next_seat_after_every_deal_void_included_belote():
    m = match("first_to:1001", "belote", first_dealer=2)
    assert m.next_dealer == 2
    fold(m, deal((81, 81), outcome="litige"), VOID, VOID, deal((100, 62)), VOID)
    assert [r.dealer for r in m.rows] == [2, 3, 0, 1, 2]
    assert m.next_dealer == 3


def test_deal_alternates_in_open_blot():
    m = fold(match("first_to:501", "open_blot", first_dealer=1), deal((100, 62)), deal((62, 100)))
    assert [r.dealer for r in m.rows] == [1, 0]
    assert m.next_dealer == 1


def test_first_dealer_must_be_a_seat():
    with pytest.raises(EngineError):
        match("first_to:501", "open_blot", first_dealer=2)


def test_void_belote_deal_is_redealt_by_the_next_seat():
    d = new_deal(RuleSet.build("belote"), 3, list(range(32)))
    for _ in range(8):
        d.apply(PASS_ACTIONS[d.to_act])
    m = fold(match("first_to:1000", first_dealer=3), d.result())
    assert m.rows[0].markers == ("void",) and m.rows[0].deal_points == (0, 0)
    assert m.next_dealer == 0


# --- litige points ----------------------------------------------------------------------------


def test_litige_points_go_to_the_winner_of_the_next_deal_with_a_result():
    m = match("first_to:1001")
    row = m.add_deal(deal((81, 0), outcome="litige", held=81))
    assert (row.totals, row.held_points, row.awarded) == ((81, 0), 81, None)
    row = m.add_deal(VOID)
    assert (row.totals, row.held_points, row.awarded) == ((81, 0), 81, None)
    row = m.add_deal(deal((81, 81), outcome="litige"))  # split: nobody wins it
    assert (row.totals, row.held_points, row.awarded) == ((162, 81), 81, None)
    row = m.add_deal(deal((60, 102)))
    assert (row.deal_points, row.awarded, row.held_points) == ((60, 102), (1, 81), 0)
    assert row.totals == (222, 264)


def test_litige_points_from_real_deals_carry_to_the_next_winner():
    litige = belote_result("litige")
    made = belote_result("made")
    m = fold(match("first_to:1000"), litige, made)
    assert [r.held_points for r in m.rows] == [81, 0]
    assert m.rows[1].awarded == (1, 81)
    assert m.totals == [81 + 72, 90 + 81]


def test_points_still_held_when_the_match_ends_are_not_awarded():
    m = fold(match("first_to:501"), deal((450, 400)))
    fold(m, deal((91, 20), outcome="litige", held=71, belote=1))
    assert m.is_over and m.winner == 0
    assert m.totals == [541, 420]
    assert m.held == 71


# --- the score table -------------------------------------------------------------------------


def test_score_table_rows_and_markers_belote():
    m = match("first_to:1000", first_dealer=1)
    fold(
        m,
        deal((72, 90)),
        deal((162, 20), outcome="inside", belote=1, taker=3, trump="C"),
        VOID,
        deal((0, 272), capot=1, belote=1),
        deal((81, 0), outcome="litige", held=81, trump="S", taker=0),
    )
    rows = [(r.number, r.dealer, r.trump, r.taker, r.deal_points, r.totals, r.markers)
            for r in m.rows]
    assert rows == [
        (1, 1, "H", 1, (72, 90), (72, 90), ()),
        (2, 2, "C", 3, (162, 20), (234, 110), ("inside", "belote")),
        (3, 3, None, None, (0, 0), (234, 110), ("void",)),
        (4, 0, "H", 1, (0, 272), (234, 382), ("capot", "belote")),
        (5, 1, "S", 0, (81, 0), (315, 382), ("litige",)),
    ]


def test_score_table_markers_open_blot():
    m = match("first_to:501", "open_blot")
    fold(m, deal((20, 410), capot=1, belote=0), deal((182, 0), outcome="inside", taker=1))
    assert [r.markers for r in m.rows] == [("kapout", "blot"), ("inside",)]


# --- resuming from the score table -------------------------------------------------------------

_results = st.one_of(
    st.just(VOID),
    st.builds(
        lambda a, b, outcome, held: deal((a, b), outcome=outcome, held=held),
        st.integers(0, 260),
        st.integers(0, 260),
        st.sampled_from(["made", "inside", "litige"]),
        st.sampled_from([0, 0, 81, 91]),
    ),
)


@given(
    fmt=st.sampled_from(["first_to:501", "first_to:1001", "best_of:3", "best_of:5"]),
    first_dealer=st.integers(0, 3),
    results=st.lists(_results, min_size=0, max_size=12),
    cut=st.integers(0, 12),
)
def test_a_match_resumed_from_its_rows_goes_on_like_the_folded_one(
    fmt, first_dealer, results, cut
):
    folded = match(fmt, first_dealer=first_dealer)
    for result in results:
        if folded.is_over:
            break
        folded.add_deal(result)
    rows = folded.rows[: min(cut, len(folded.rows))]
    resumed = Match.resume("belote", MatchFormat.parse(fmt), first_dealer, rows)
    replayed = fold(match(fmt, first_dealer=first_dealer), *results[: len(rows)])
    assert (resumed.totals, resumed.wins, resumed.held, resumed.winner) == (
        replayed.totals,
        replayed.wins,
        replayed.held,
        replayed.winner,
    )
    assert resumed.next_dealer == replayed.next_dealer
    # The deals after the cut score the same from either.
    fold(resumed, *results[len(rows) : len(folded.rows)])
    assert resumed.rows == folded.rows and resumed.winner == folded.winner


def test_a_match_resumed_from_no_rows_is_a_new_match():
    resumed = Match.resume("open_blot", MatchFormat.parse("first_to:501"), 1, [])
    assert (resumed.rows, resumed.totals, resumed.held, resumed.winner) == ([], [0, 0], 0, None)
    assert resumed.next_dealer == 1
