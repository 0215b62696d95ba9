"""Every scoring case of docs/rules.md §7.1 (classic bidding with announcements) and
§7.2 (coinche contracts), each worked by hand in the test."""

from __future__ import annotations

import pytest

from engine import RuleSet
from engine.cards import ALL_TRUMP, NO_TRUMP
from engine.scoring import score_belote, score_coinche

RULES = RuleSet.build("belote", {"coinche": True, "all_trump": True, "no_trump": True})
H, S, C = 2, 3, 0


def coinche(
    *, value: int, trump: int = H, taker: int = 1, multiplier: int = 1,
    card_points: tuple[int, int], tricks_won: tuple[int, int] | None = None,
    belote: tuple[int, ...] = (), announced: tuple[int, int] = (0, 0),
) -> tuple[str, tuple[int, ...]]:
    if tricks_won is None:
        tricks_won = (4, 4)
    result = score_coinche(
        rules=RULES, trump=trump, taker=taker, value=value, multiplier=multiplier,
        tricks=(), card_points=card_points, tricks_won=tricks_won, belote_sides=belote,
        announced=announced,
    )
    assert result.deal_points is not None and result.outcome is not None
    return result.outcome, result.deal_points


# --- the worked scores of §7.2 -------------------------------------------------------------


def test_110_hearts_made_with_the_belote() -> None:
    # Takers (side 1) 93 card points + 20 belote = 113 >= 110.
    assert coinche(value=110, card_points=(69, 93), belote=(1,)) == ("made", (69, 113 + 110))


def test_110_hearts_failed_without_the_belote() -> None:
    # 93 < 110: the defenders score 160 + 110, the takers nothing.
    assert coinche(value=110, card_points=(69, 93)) == ("inside", (270, 0))


def test_90_spades_coinched_made_with_the_defenders_belote() -> None:
    got = coinche(value=90, trump=S, multiplier=2, card_points=(67, 95), belote=(0,))
    assert got == ("made", (20, (160 + 90) * 2))


def test_a_coinched_winner_takes_every_counted_announcement_even_the_losers() -> None:
    # The defenders' tierce counts (20) but the takers make it: 500 + 20 to them.
    got = coinche(value=90, trump=S, multiplier=2, card_points=(67, 95), belote=(0,),
                  announced=(20, 0))
    assert got == ("made", (20, 520))


def test_capot_no_trump_made_not_coinched() -> None:
    got = coinche(value=250, trump=NO_TRUMP, card_points=(0, 162), tricks_won=(0, 8))
    assert got == ("made", (0, 162 + 250))


# --- the other cases -----------------------------------------------------------------------


def test_the_takers_make_a_contract_exactly_at_its_value_and_fail_one_point_below() -> None:
    # D-21: at least the value. 80 card points make 80; 79 + nothing fail it.
    assert coinche(value=80, card_points=(82, 80)) == ("made", (82, 160))
    assert coinche(value=80, card_points=(83, 79)) == ("inside", (240, 0))


def test_announcements_and_belote_count_towards_the_contract() -> None:
    # 60 cards + 20 belote + 50 cinquante = 130 >= 130.
    got = coinche(value=130, card_points=(102, 60), belote=(1,), announced=(0, 50))
    assert got == ("made", (102, 130 + 130))


def test_a_failed_contract_gives_the_defenders_every_counted_announcement() -> None:
    # Takers' cent counts (100) but 40 + 100 < 150: defenders 160 + 150 + 100 + belote.
    got = coinche(value=150, card_points=(122, 40), belote=(0,), announced=(0, 100))
    assert got == ("inside", (160 + 150 + 100 + 20, 0))


def test_a_surcoinched_contract_made_scores_four_times() -> None:
    got = coinche(value=100, trump=C, taker=0, multiplier=4, card_points=(110, 52),
                  belote=(1,))
    assert got == ("made", ((160 + 100) * 4, 20))


def test_a_coinched_contract_failed_gives_the_defenders_twice_and_each_side_its_belote() -> None:
    got = coinche(value=120, taker=0, multiplier=2, card_points=(90, 72), belote=(0,))
    # 90 + 20 = 110 < 120: defenders (side 1) (160 + 120) x 2; takers their belote.
    assert got == ("inside", (20, 560))


def test_an_unbid_capot_counts_the_capot_points_setting_as_card_points() -> None:
    got = coinche(value=100, card_points=(0, 162), tricks_won=(0, 8))
    assert got == ("made", (0, 252 + 100))
    rules = RuleSet.build("belote", {"coinche": True, "capot_points": 300})
    result = score_coinche(
        rules=rules, trump=H, taker=1, value=100, multiplier=1, tricks=(),
        card_points=(0, 162), tricks_won=(0, 8), belote_sides=(),
    )
    assert result.deal_points == (0, 300 + 100) and result.capot == 1


def test_a_capot_contract_fails_with_seven_tricks_whatever_the_points() -> None:
    got = coinche(value=250, card_points=(2, 160), tricks_won=(1, 7), belote=(1,))
    assert got == ("inside", (160 + 250, 20))


def test_a_coinched_capot_contract_made() -> None:
    got = coinche(value=250, multiplier=2, card_points=(0, 162), tricks_won=(0, 8))
    assert got == ("made", (0, (160 + 250) * 2))


def test_all_trump_belotes_each_count_twenty_for_their_side() -> None:
    result = score_coinche(
        rules=RULES, trump=ALL_TRUMP, taker=1, value=80, multiplier=1, tricks=(),
        card_points=(70, 92), tricks_won=(3, 5), belote_sides=(1, 0, 1),
    )
    assert result.belote == (1, 0, 1)
    assert result.deal_points == (70 + 20, 92 + 40 + 80)
    assert result.to_dict()["belote"] == [1, 0, 1]


def test_a_coinche_result_names_its_contract_and_never_a_litige() -> None:
    result = score_coinche(
        rules=RULES, trump=H, taker=2, value=80, multiplier=1, tricks=(),
        card_points=(81, 81), tricks_won=(4, 4), belote_sides=(),
    )
    assert result.outcome == "made" and result.held_points == 0
    assert result.to_dict()["contract"] == {"value": 80, "trump": "H", "taker": 2,
                                            "multiplier": 1}


# --- classic bidding with announcements (§7.1) ------------------------------------------------


def classic(
    *, card_points: tuple[int, int], taker: int = 0, announced: tuple[int, int] = (0, 0),
    belote: int | None = None, tricks_won: tuple[int, int] = (4, 4), litige: str | None = None,
) -> tuple[str, tuple[int, ...], int]:
    rules = RuleSet.build(
        "belote", {"announcements": True, **({"litige": litige} if litige else {})}
    )
    result = score_belote(
        rules=rules, trump=H, taker=taker, tricks=(), card_points=card_points,
        tricks_won=tricks_won, belote_side=belote, announced=announced,
    )
    assert result.outcome is not None and result.deal_points is not None
    assert "contract" not in result.to_dict()
    return result.outcome, result.deal_points, result.held_points or 0


def test_classic_made_each_side_scores_cards_announcements_and_belote() -> None:
    # Takers 70 + 50 = 120 > defenders 92 + 20 belote = 112.
    assert classic(card_points=(70, 92), announced=(50, 0), belote=1) == (
        "made", (120, 112), 0)


def test_classic_inside_the_defenders_take_162_and_every_counted_announcement() -> None:
    # Takers 60 + 20 tierce = 80 < 102: defenders 162 + 20 + their belote 20.
    assert classic(card_points=(60, 102), announced=(20, 0), belote=1) == (
        "inside", (0, 162 + 20 + 20), 0)


def test_classic_capot_scores_252_and_the_capot_sides_announcements() -> None:
    assert classic(card_points=(162, 0), announced=(100, 0), tricks_won=(8, 0)) == (
        "made", (252 + 100, 0), 0)


def test_classic_litige_holds_the_takers_card_points_and_announcements() -> None:
    # Takers 71 + 20 tierce = 91 = the defenders' 91: the defenders score 91 now,
    # the takers' 71 + 20 wait for the next deal's winner (D-19).
    got = classic(card_points=(71, 91), announced=(20, 0), taker=0)
    assert got == ("litige", (0, 91), 71 + 20)
    # Their belote is scored at once even so: 61 + 20 + 20 = 101 = the defenders' 101.
    got = classic(card_points=(61, 101), announced=(20, 0), belote=0, taker=0)
    assert got == ("litige", (20, 101), 61 + 20)


@pytest.mark.parametrize("litige", ["split", "takers_lose"])
def test_classic_litige_policies_with_announcements(litige: str) -> None:
    got = classic(card_points=(71, 91), announced=(20, 0), litige=litige)
    if litige == "split":
        assert got == ("litige", (91, 91), 0)
    else:
        assert got == ("inside", (0, 162 + 20), 0)
