"""Scoring a deal (docs/rules.md §2 "Scoring a deal" and §3 "Scoring a deal") on whole
literal deals: the final hands (or stacks), the bids and every card played.

Belote deals: dealer 0, seat 1 takes the proposed card in round 1 unless the test
says otherwise, so the takers are side 1 (seats 1 & 3). Open Blot deals: dealer
0, seat 1 (the non-dealer) chooses in round 1 unless the test says otherwise.
"""

from __future__ import annotations

import pytest

from tests.engine.helpers import (
    belote_in_play,
    declare_codes,
    open_blot_in_play,
    play,
    play_out,
)

# --- Belote ------------------------------------------------------------------------------

BELOTE_DEALS = {
    "made": dict(
        hands={0: "KC 7D 8D JD 7H 9H TH TS", 1: "TD QD KD 8H JH AH 9S KS",
               2: "7C 8C TC 9D AD KH JS AS", 3: "9C JC QC AC QH 7S 8S QS"},
        proposed="JH",
        plays="TD 9D 9C 8D  9S JS 8S TS  9H JH KH QH  KS AS QS 7D "
              "8C QC KC 8H  KD AD JC JD  7C AC TH AH  QD TC 7S 7H",
    ),
    "made_with_takers_belote": dict(
        hands={0: "KC 8H 9H QH 7S 9S JS AS", 1: "TC AC 8D TD AH TS QS KS",
               2: "9C QC JD AD 7H TH JH KH", 3: "7C 8C JC 7D 9D QD KD 8S"},
        proposed="TD",
        plays="TS AD 8S 9S  TH KD 9H AH  7C KC TC QC  AC 9C JC QH "
              "QS JD 7D AS  7H 9D 8H KS  QD 7S TD KH  8D JH 8C JS",
    ),
    "inside": dict(
        hands={0: "8C 9C TC AC KD 8H 7S KS", 1: "KC 7D 7H 9H TH KH 8S JS",
               2: "8D JD AD JH QH AH QS AS", 3: "7C JC QC 9D TD QD 9S TS"},
        proposed="KC",
        plays="8S QS 9S 7S  JD 9D KD 7D  9C KC AH JC  TS KS JS AS "
              "JH QC 8H KH  7C TC TH QH  AC 7H AD QD  8C 9H 8D TD",
    ),
    "inside_with_defenders_belote": dict(
        hands={0: "7C TC KC 8D 9D 8S 9S AS", 1: "7D AD 7H 8H TH JH QH AH",
               2: "JC QD KD KH 7S TS JS KS", 3: "8C 9C QC AC TD JD 9H QS"},
        proposed="7D",
        plays="AD KD JD 8D  TD 9D 7D QD  9S TH 7S QS  QC KC 7H JC "
              "7C AH JS AC  8C TC 8H KH  8S JH KS 9C  TS 9H AS QH",
    ),
    "inside_with_takers_belote": dict(
        hands={0: "7C 8C 7D QD 8H 9H QH AS", 1: "QC KC AC 9D JD AD JH KH",
               2: "9C JC 7H AH 7S 9S TS QS", 3: "TC 8D TD KD TH 8S JS KS"},
        proposed="AC",
        plays="JD 9C TD QD  TS KS AS QC  JH AH TH 8H  7H TC QH KH "
              "JS 8C KC 7S  AD JC KD 7D  9S 8S 9H AC  9D QS 8D 7C",
    ),
    "made_by_belote": dict(
        hands={0: "9C 7D KD AD AH 9S TS QS", 1: "KC TD TH JH QH KH 8S AS",
               2: "QC AC 8D 9D 7H 8H 9H 7S", 3: "7C 8C TC JC JD QD JS KS"},
        proposed="KH",
        plays="TD 9D QD AD  QS 8S 7S JS  TS AS 9H KS  8D JD KD QH "
              "JH 7H TC AH  KH 8H JC 9S  KC AC 8C 9C  QC 7C 7D TH",
    ),
    "inside_by_defenders_belote": dict(
        hands={0: "JC QC KC TD QD KD 9H AS", 1: "9C 7D 8D JD TH QH AH KS",
               2: "8C AC AD 7H 8H JH 8S QS", 3: "7C TC 9D KH 7S 9S TS JS"},
        proposed="7D",
        plays="QH 8H KH 9H  9S AS KS 8S  KD JD AD 9D  7D JH TC QD "
              "KC 9C AC 7C  7H TS TD TH  JC 8D 8C 7S  AH QS JS QC",
    ),
    "litige": dict(
        hands={0: "9C QC AC TD QD 8H JH QH", 1: "7D 9D 7H 9H AH 8S KS AS",
               2: "7C TC KC JD KD 7S JS QS", 3: "8C JC 8D AD TH KH 9S TS"},
        proposed="7D",
        plays="AH KD KH 8H  JS TS QD 8S  QC 9D TC JC  9H JD TH QH "
              "7S 9S TD KS  9C 7D KC 8C  7H 7C AD JH  8D AC AS QS",
    ),
    "litige_with_takers_belote": dict(
        hands={0: "8C QD 8H TH JH 7S JS QS", 1: "JC AC KD 9H KH 9S TS KS",
               2: "7C 9C TC 7D JD AD AH 8S", 3: "QC KC 8D 9D TD 7H QH AS"},
        proposed="AC",
        plays="9H AH 7H TH  7C KC 8C JC  AC 9C QC JS  7D 9D QD KD "
              "KH TC QH JH  JD TD QS 9S  8D 7S TS AD  8S AS 8H KS",
    ),
    "litige_with_defenders_belote": dict(
        hands={0: "9C 7D 8D 7H 9H QH 9S TS", 1: "8C TC AC KH 8S JS QS AS",
               2: "JC QC KC 9D TD QD 8H JH", 3: "7C JD KD AD TH AH 7S KS"},
        proposed="TC",
        plays="QS KC 7S TS  TD JD 8D TC  AC JC 7C 9C  8H TH 7H KH "
              "KD 7D 8C QD  JS QC KS 9S  JH AH 9H 8S  AD QH AS 9D",
    ),
    # Seat 1 holds every trump and leads them all: the takers win all 8 tricks.
    "capot_by_takers": dict(
        hands={1: "7H 8H 9H TH JH QH KH AH"},
        proposed="7H",
        plays=None,
    ),
    # Seat 2 takes; seat 1 (a defender) strips the trumps and wins all 8 tricks.
    # Seat 2 was dealt KH and QH: the takers are inside but keep their belote.
    "capot_by_defenders": dict(
        hands={1: "JH 9H AH TH AS TS AC AD", 2: "KH QH 7C 8C 9C 7D 8D 9D",
               3: "8H 7H 7S 8S 9S JS QS KS", 0: "TC JC QC KC TD JD QD KD"},
        proposed="KH",
        taker=2,
        plays=None,
    ),
}


def belote_result(name: str, **rules):
    spec = BELOTE_DEALS[name]
    deal = belote_in_play(spec["hands"], spec["proposed"], spec.get("taker", 1), rules=rules)
    if spec["plays"] is None:
        play_out(deal)
    else:
        play(deal, spec["plays"])
    assert deal.is_over
    result = deal.result()
    assert sum(result.card_points) == 162
    return result


def summary(result):
    return (result.outcome, result.card_points, result.deal_points, result.held_points)


@pytest.mark.parametrize(
    ("name", "outcome", "card_points", "deal_points", "belote"),
    [
        pytest.param("made", "made", (72, 90), (72, 90), None,
                     id="takers_greater_made_each_side_scores_its_points"),
        pytest.param("made_with_takers_belote", "made", (55, 107), (55, 127), 1,
                     id="made_belote_20_to_its_side"),
        pytest.param("inside", "inside", (104, 58), (162, 0), None,
                     id="takers_less_inside_defenders_score_162"),
        pytest.param("inside_with_defenders_belote", "inside", (90, 72), (182, 0), 0,
                     id="inside_defenders_162_plus_their_belote"),
        pytest.param("inside_with_takers_belote", "inside", (100, 62), (162, 20), 1,
                     id="belote_never_lost_takers_inside_keep_20"),
    ],
)
def test_belote_made_and_inside(name, outcome, card_points, deal_points, belote):
    result = belote_result(name)
    assert summary(result) == (outcome, card_points, deal_points, 0)
    assert (result.belote, result.capot, result.taker) == (belote, None, 1)


@pytest.mark.parametrize(
    ("name", "outcome", "card_points", "deal_points"),
    [
        pytest.param("made_by_belote", "made", (83, 79), (83, 99),
                     id="takers_fewer_card_points_made_with_their_belote"),
        pytest.param("inside_by_defenders_belote", "inside", (75, 87), (182, 0),
                     id="takers_more_card_points_inside_against_defenders_belote"),
    ],
)
def test_belote_counts_in_the_made_or_inside_comparison(name, outcome, card_points, deal_points):
    result = belote_result(name)
    assert summary(result) == (outcome, card_points, deal_points, 0)


@pytest.mark.parametrize(
    ("name", "policy", "outcome", "deal_points", "held"),
    [
        pytest.param("litige", "hold_for_next", "litige", (81, 0), 81, id="hold_for_next"),
        pytest.param("litige", "split", "litige", (81, 81), 0, id="split"),
        pytest.param("litige", "takers_lose", "inside", (162, 0), 0, id="takers_lose"),
        pytest.param("litige_with_takers_belote", "hold_for_next", "litige", (91, 20), 71,
                     id="hold_for_next_takers_belote_scored_at_once_cards_held"),
        pytest.param("litige_with_takers_belote", "split", "litige", (91, 91), 0,
                     id="split_takers_belote"),
        pytest.param("litige_with_takers_belote", "takers_lose", "inside", (162, 20), 0,
                     id="takers_lose_keep_belote"),
        pytest.param("litige_with_defenders_belote", "hold_for_next", "litige", (91, 0), 91,
                     id="hold_for_next_defenders_belote"),
        pytest.param("litige_with_defenders_belote", "split", "litige", (91, 91), 0,
                     id="split_defenders_belote"),
        pytest.param("litige_with_defenders_belote", "takers_lose", "inside", (182, 0), 0,
                     id="takers_lose_defenders_belote"),
    ],
)
def test_belote_litige_policies(name, policy, outcome, deal_points, held):
    default = belote_result(name)
    result = belote_result(name, **({} if policy == "hold_for_next" else {"litige": policy}))
    assert default.deal_points == belote_result(name, litige="hold_for_next").deal_points
    assert (result.outcome, result.deal_points, result.held_points) == (outcome, deal_points, held)
    takers, defenders = 1, 0
    belote = [0, 0]
    if result.belote is not None:
        belote[result.belote] = 20
    assert result.card_points[takers] + belote[takers] == (
        result.card_points[defenders] + belote[defenders]
    )


@pytest.mark.parametrize(
    ("rules", "deal_points"), [({}, (0, 272)), ({"capot_points": 300}, (0, 320))]
)
def test_belote_capot_by_takers_scores_capot_points_plus_belote(rules, deal_points):
    result = belote_result("capot_by_takers", **rules)
    assert [t.winner for t in result.tricks] == [1] * 8
    assert result.card_points == (0, 162)
    assert (result.outcome, result.capot, result.belote) == ("made", 1, 1)
    assert (result.deal_points, result.held_points) == (deal_points, 0)


@pytest.mark.parametrize(
    ("rules", "deal_points"), [({}, (20, 252)), ({"capot_points": 162}, (20, 162))]
)
def test_belote_capot_by_defenders_takers_inside_keep_belote(rules, deal_points):
    result = belote_result("capot_by_defenders", **rules)
    assert [t.winner % 2 for t in result.tricks] == [1] * 8
    assert (result.taker, result.outcome, result.capot, result.belote) == (2, "inside", 1, 0)
    assert result.deal_points == deal_points


def test_belote_trick_points_and_last_trick_ten():
    result = belote_result("made")  # hearts trump
    assert [t.points for t in result.tricks] == [10, 12, 41, 18, 7, 19, 32, 13]
    won = [0, 0]
    for t in result.tricks:
        won[t.winner % 2] += t.points
    won[result.tricks[-1].winner % 2] += 10
    assert tuple(won) == result.card_points == (72, 90)


# --- Open Blot ---------------------------------------------------------------------------

def stacks_of(downs: str, ups: str) -> list[tuple[str, str]]:
    return list(zip(downs.split(), ups.split(), strict=True))


OPEN_BLOT_DEALS = {
    "made": dict(
        trump="H",
        stacks={
            1: [("7D", "7H"), ("QC", "AC"), ("TH", "8C"), ("JH", "KS"),
                ("KH", "9C"), ("QS", "JC"), ("KD", "AS"), ("9H", "JD")],
            0: [("9S", "8H"), ("QD", "TS"), ("KC", "7C"), ("9D", "7S"),
                ("JS", "AH"), ("QH", "TC"), ("8S", "8D"), ("TD", "AD")],
        },
        steps="7H AH AD 7D TD JD 8D 9H KS TS 7C JC QS JS AC TC JH QH QC KC 8S AS 8C 8H "
              "7S TH 9C 9D KH 9S KD QD",
    ),
    "no_trump_made": dict(
        trump="NT",
        stacks={
            1: [("KH", "8H"), ("AS", "JS"), ("QC", "7S"), ("KC", "JH"),
                ("TC", "7C"), ("9H", "KD"), ("JC", "AC"), ("7H", "QD")],
            0: [("TH", "9S"), ("8C", "7D"), ("JD", "QH"), ("8S", "TS"),
                ("TD", "8D"), ("9C", "KS"), ("QS", "AD"), ("9D", "AH")],
        },
        steps="8H QH AH KH AD KD 8D QD 9H QS 7S KS 7D JH 9D 7H 8C KC 7C 9C 9S JS AS TS "
              "QC TH AC JD JC TD TC 8S",
    ),
    "equal_totals": dict(
        trump="C",
        stacks={
            1: [("TD", "AD"), ("JS", "9H"), ("AH", "QC"), ("JD", "JH"),
                ("7D", "QS"), ("7H", "9C"), ("AC", "9D"), ("9S", "KS")],
            0: [("7S", "KC"), ("QD", "KD"), ("JC", "KH"), ("8S", "TS"),
                ("TH", "7C"), ("TC", "AS"), ("8H", "QH"), ("8C", "8D")],
        },
        steps="QS AS KC 9C 7H KH TS KS KD AD 9D 8D AC JC QH JH TC QC 7C 7D 8C 9H 8H AH "
              "9S 7S TD QD JD TH JS 8S",
    ),
    "equal_totals_with_declaration": dict(
        trump="S",
        stacks={
            1: [("JD", "AH"), ("8C", "QH"), ("7S", "KC"), ("QS", "KH"),
                ("AS", "AC"), ("7D", "JH"), ("8H", "AD"), ("9C", "JC")],
            0: [("8D", "TC"), ("9S", "8S"), ("QD", "TD"), ("TS", "KD"),
                ("7C", "9H"), ("9D", "TH"), ("7H", "JS"), ("QC", "KS")],
        },
        steps="declare:JH,QH,KH,AH JH TH TD 7D QD AD KH 9H JC TC JS QS 7C AC AH 7H 9C KS "
              "8D JD AS 8S QH 9S 9D 8C KD KC QC 7S 8H TS",
    ),
    "failed_with_counted_declaration": dict(
        trump="H",
        stacks={
            1: [("QD", "TD"), ("8S", "9D"), ("TS", "QS"), ("9C", "QH"),
                ("AH", "JS"), ("AS", "KS"), ("8C", "AC"), ("7C", "QC")],
            0: [("TH", "KD"), ("TC", "7S"), ("8D", "JD"), ("JH", "7D"),
                ("9H", "8H"), ("KC", "7H"), ("JC", "9S"), ("KH", "AD")],
        },
        steps="declare:JS,QS,KS TD 7D KS 7S AS 9S QC TC JH QH JD QD 7C JC 7H AC KD 9D "
              "8H QS 8D JS 9H AH AD 8C KH 8S KC 9C TH TS",
    ),
    "made_with_declarations_and_opponent_blot": dict(
        trump="D",
        stacks={
            1: [("KH", "JC"), ("TD", "AC"), ("9D", "9C"), ("7C", "QC"),
                ("8D", "TC"), ("9S", "KS"), ("8S", "AH"), ("JH", "7D")],
            0: [("TS", "8H"), ("JS", "7S"), ("AS", "TH"), ("8C", "9H"),
                ("QS", "JD"), ("QH", "KD"), ("7H", "KC"), ("AD", "QD")],
        },
        steps="declare:9C,TC,JC,QC KS declare:JD,QD,KD declare:8H,9H,TH 7S AC KC TD JD "
              "8H AH 7D QD 9H JH TC 8C 8S JS TS 9S TH 8D JC AD AS KH QS QC 7H 7C KD 9C "
              "QH 9D",
    ),
    # Seat 1 has every trump face up and wins every trick but one, a trick of the
    # 7 and 8 of clubs that holds no card points: seat 0 is still kapout.
    "kapout_with_a_trick_of_no_points": dict(
        trump="H",
        stacks={
            1: stacks_of("7C AS TS KS QS AC TC KC", "7H 8H 9H TH JH QH KH AH"),
            0: stacks_of("8C 9C JC QC 7S 8S 9S JS", "7D 8D 9D TD JD QD KD AD"),
        },
        steps="7H 7D 8H 8D 9H 9D TH TD JH JD QH QD KH KD AH AD "
              "7C 8C 9C AC AS 7S TS 8S KS 9S QS JS TC JC KC QC",
    ),
    # The same deal, seat 0 winning only the last trick (7C 8C): its 10 counts.
    "last_trick_of_no_points_is_not_kapout": dict(
        trump="H",
        stacks={
            1: stacks_of("7C AS TS KS QS AC TC KC", "7H 8H 9H TH JH QH KH AH"),
            0: stacks_of("8C 9C JC QC 7S 8S 9S JS", "7D 8D 9D TD JD QD KD AD"),
        },
        steps="7H 7D 8H 8D 9H 9D TH TD JH JD QH QD KH KD AH AD "
              "AS 7S TS 8S KS 9S QS JS AC 9C TC JC KC QC 7C 8C",
    ),
    # Seat 0 declares four Kings and four Queens (200) and holds Blot, but wins no
    # trick: 200 + 20 would outscore seat 1's 162, yet seat 0 is kapout (D-10).
    "kapout_player_with_better_declarations": dict(
        trump="H",
        stacks={
            1: stacks_of("8H 7H AS TS JC JD JS 9S", "JH 9H AH TH AC TC AD TD"),
            0: stacks_of("9C 8C 7C 9D 8D 7D 8S 7S", "KH QH KC QC KD QD KS QS"),
        },
        steps="JH declare:KC,KD,KH,KS declare:QC,QD,QH,QS QH 9H KH AH KC TH QC AC 7C TC 8C "
              "AD KD TD QD JC 9C JD 9D AS KS TS QS JS 8S 9S 7S 8H 8D 7H 7D",
    ),
}


def open_blot_result(name: str, chooser: int | None = None, **rules):
    spec = OPEN_BLOT_DEALS[name]
    deal = open_blot_in_play(spec["stacks"], spec["trump"], chooser, rules=rules)
    for step in spec["steps"].split():
        if step.startswith("declare:"):
            declare_codes(deal, step.removeprefix("declare:").replace(",", " "))
        else:
            play(deal, step)
    assert deal.is_over
    result = deal.result()
    assert sum(result.card_points) == 162
    assert len(result.tricks) == 16
    return result


def declarations(result):
    return [(d.seat, d.kind, d.points, d.counted) for d in result.declarations]


def test_open_blot_taker_greater_makes_it_each_scores_his_total():
    result = open_blot_result("made")
    assert (result.taker, result.outcome, result.capot, result.belote) == (1, "made", None, None)
    assert (result.card_points, result.deal_points) == ((55, 107), (55, 107))


def test_open_blot_no_trump_deal_made():
    result = open_blot_result("no_trump_made")
    assert (result.trump, result.outcome, result.belote) == ("NT", "made", None)
    assert (result.card_points, result.deal_points) == ((55, 107), (55, 107))
    # No-trump values: the first trick 8H QH holds the queen's 3, the second AH KH 19 + 4.
    assert [t.points for t in result.tricks[:2]] == [3, 23]


def test_open_blot_taker_fails_on_equal_totals_d9():
    result = open_blot_result("equal_totals")
    assert result.card_points == (81, 81)
    assert (result.outcome, result.deal_points, result.held_points) == ("inside", (162, 0), 0)


def test_open_blot_taker_fails_on_equal_totals_with_declarations_d9():
    result = open_blot_result("equal_totals_with_declaration")
    assert result.card_points == (106, 56)  # 56 + the taker's fifty 50 = 106
    assert declarations(result) == [(1, "fifty", 50, True)]
    # The opponent scores 162 + every counted declaration, the taker's included.
    assert (result.outcome, result.deal_points) == ("inside", (212, 0))


def test_open_blot_failed_taker_scores_nothing_and_opponent_takes_his_declarations():
    result = open_blot_result("failed_with_counted_declaration")
    assert result.card_points == (132, 30)
    assert declarations(result) == [(1, "terz", 20, True)]
    assert (result.outcome, result.deal_points) == ("inside", (182, 0))


def test_open_blot_made_counts_best_holders_declarations_and_each_blot():
    result = open_blot_result("made_with_declarations_and_opponent_blot")
    assert result.card_points == (83, 79)
    # Seat 1's fifty tops seat 0's fifty (the terz 8-9-10 of hearts that grew with 7H).
    assert declarations(result) == [
        (1, "fifty", 50, True), (0, "terz", 20, False), (0, "fifty", 50, False)
    ]
    assert [list(d.cards) for d in result.declarations][2] == ["7H", "8H", "9H", "TH"]
    assert result.belote == 0
    # Seat 1: 79 + 50 = 129 > seat 0: 83 + Blot 20 = 103.
    assert (result.outcome, result.deal_points) == ("made", (103, 129))


@pytest.mark.parametrize(("rules", "points"), [({}, 210), ({"kapout_points": 300}, 300)])
def test_open_blot_kapout_tricks_of_no_points_do_not_count(rules, points):
    result = open_blot_result("kapout_with_a_trick_of_no_points", **rules)
    assert [t.winner for t in result.tricks].count(0) == 1
    assert [(t.winner, t.points) for t in result.tricks if t.winner == 0] == [(0, 0)]
    assert result.card_points == (0, 162)
    assert (result.outcome, result.capot, result.belote) == ("made", 1, 1)
    assert result.deal_points == (0, points + 20)


def test_open_blot_last_trick_ten_makes_a_trick_count_against_kapout():
    result = open_blot_result("last_trick_of_no_points_is_not_kapout")
    assert (result.tricks[-1].winner, result.tricks[-1].points) == (0, 0)
    assert result.card_points == (10, 152)
    assert (result.outcome, result.capot) == ("made", None)
    assert result.deal_points == (10, 172)


@pytest.mark.parametrize(
    ("chooser", "outcome"), [(1, "made"), (0, "inside")], ids=["kapout_opponent", "kapout_taker"]
)
def test_open_blot_kapout_settled_before_made_or_failed_d10(chooser, outcome):
    result = open_blot_result("kapout_player_with_better_declarations", chooser)
    assert result.taker == chooser
    assert result.card_points == (0, 162)
    assert declarations(result) == [(0, "four", 100, True), (0, "four", 100, True)]
    assert result.belote == 0
    # Seat 1: 210 + all counted declarations (seat 0's) + no Blot; seat 0: his Blot only.
    assert (result.outcome, result.capot, result.deal_points) == (outcome, 1, (20, 410))


def test_open_blot_kapout_points_setting_changes_kapout_only():
    base = open_blot_result("kapout_player_with_better_declarations", kapout_points=162)
    assert base.deal_points == (20, 362)
    made = open_blot_result("made", kapout_points=500)
    assert made.deal_points == (55, 107)
