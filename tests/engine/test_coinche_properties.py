"""Properties of Belote with announcements, coinche, all-trump and no-trump deals
(docs/rules.md §7), checked on random legal deals."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DealRecord, RuleSet, new_deal, observe, replay
from engine.announcements import is_carre
from engine.belote import BeloteDeal
from engine.cards import CODES, TRUMP_CODES, card_list
from engine.shuffle import shuffled_deck
from tests.engine import reference

seeds = st.integers(min_value=0, max_value=2**32 - 1)
RULE_SETS = [
    {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True},
    {"coinche": True, "all_trump": True},
    {"coinche": True, "no_trump": True},
    {"coinche": True},
    {"announcements": True},
]
rule_sets = st.sampled_from(RULE_SETS)
many = settings(max_examples=150, deadline=None)
OLD_RESULT_KEYS = {
    "void", "trump", "taker", "tricks", "card_points", "declarations", "belote", "outcome",
    "capot", "deal_points", "held_points",
}


def start(rules: dict[str, bool], seed: int) -> tuple[BeloteDeal, random.Random]:
    rng = random.Random(seed)
    deal = new_deal(RuleSet.build("belote", rules), rng.randrange(4), shuffled_deck(rng))
    assert isinstance(deal, BeloteDeal)
    return deal, rng


def choose(deal: BeloteDeal, rng: random.Random):
    """A random legal action, leaning towards short auctions and announcing often."""
    legal = deal.legal_actions()
    if deal.phase == "bidding" and deal.coinche and rng.random() < 0.6:
        quiet = [a for a in legal if a.type != "bid"]
        return rng.choice(quiet)
    return rng.choice(legal)


def play_out(deal: BeloteDeal, rng: random.Random, check=None) -> BeloteDeal:
    while not deal.is_over:
        if check is not None:
            check(deal)
        deal.apply(choose(deal, rng))
    return deal


@many
@given(rules=rule_sets, seed=seeds)
def test_card_points_add_up_to_162_in_every_contract_type(rules, seed) -> None:
    deal = play_out(*start(rules, seed))
    result = deal.result()
    if result.void:
        return
    assert sum(result.card_points) == 162
    assert sum(t.points for t in result.tricks) == 152


@settings(max_examples=300, deadline=None)
@given(rules=st.sampled_from(RULE_SETS[:4]), seed=seeds)
def test_a_coinche_deals_scores_follow_the_rules_from_the_results_own_fields(rules, seed) -> None:
    deal = play_out(*start(rules, seed))
    r = deal.result().to_dict()
    if r["void"]:
        assert "contract" not in r or r["contract"] is None
        return
    contract = r["contract"]
    value, mult, takers = contract["value"], contract["multiplier"], contract["taker"] % 2
    assert contract["trump"] == r["trump"] and contract["taker"] == r["taker"]
    defenders = 1 - takers
    belote = [0, 0]
    sides = r["belote"] if isinstance(r["belote"], list) else (
        [] if r["belote"] is None else [r["belote"]])
    for s in sides:
        belote[s] += 20
    announced = [0, 0]
    for d in r["declarations"]:
        if d["counted"]:
            announced[d["seat"] % 2] += d["points"]
    all_tricks = sum(1 for t in r["tricks"] if t["winner"] % 2 == takers) == 8
    cards = list(r["card_points"])
    if all_tricks and value != 250:
        cards[takers] = 252
    own = [cards[s] + belote[s] + announced[s] for s in (0, 1)]
    made = all_tricks if value == 250 else own[takers] >= value
    assert r["outcome"] == ("made" if made else "inside")
    expected = [0, 0]
    if mult == 1 and made:
        expected[takers], expected[defenders] = own[takers] + value, own[defenders]
    elif mult == 1:
        expected[defenders] = 160 + value + sum(announced) + belote[defenders]
        expected[takers] = belote[takers]
    else:
        win = takers if made else defenders
        expected[win] = (160 + value) * mult + sum(announced) + belote[win]
        expected[1 - win] = belote[1 - win]
    assert r["deal_points"] == expected
    assert r["held_points"] == 0


@many
@given(seed=seeds)
def test_old_records_replay_unchanged_and_silent_announcements_change_nothing(seed) -> None:
    deal = play_out(*start({}, seed))
    record = deal.to_record().to_dict()
    assert record["rules"] == {}
    assert {a["type"] for a in record["actions"]} <= {"pass", "take", "choose", "play"}
    again = replay(DealRecord.from_dict(json.loads(json.dumps(record))))
    assert again.error is None and again.result == deal.result().to_dict()
    assert set(again.result) == OLD_RESULT_KEYS
    # The same deal under the announcements switch, nobody announcing, scores the same.
    record["rules"] = {"announcements": True}
    switched = replay(DealRecord.from_dict(record))
    assert switched.error is None and switched.result == again.result


@many
@given(rules=rule_sets, seed=seeds)
def test_a_v2_deal_replays_from_its_record_to_the_same_result(rules, seed) -> None:
    deal = play_out(*start(rules, seed))
    text = json.dumps(deal.to_record().to_dict())
    again = replay(DealRecord.from_dict(json.loads(text)))
    assert again.error is None
    assert again.result == deal.result().to_dict()


def reference_legal(deal: BeloteDeal) -> set[str]:
    seat = deal.to_act
    hand = [CODES[c] for c in card_list(deal.hands[seat])]
    trick = [CODES[c] for c in deal.trick]
    trump = TRUMP_CODES[deal.trump]
    partner_winning = False
    if len(trick) >= 2:
        winner = (deal.leader + reference.trick_winner(trick, trump)) % 4
        partner_winning = winner == (seat + 2) % 4
    return reference.legal_cards(hand, trick, trump, partner_winning)


@settings(max_examples=300, deadline=None)
@given(rules=rule_sets, seed=seeds)
def test_it_agrees_with_the_readable_rules_in_every_contract_type(rules, seed) -> None:
    def check(deal: BeloteDeal) -> None:
        if deal.phase == "play":
            engine_cards = {a.to_dict()["card"] for a in deal.legal_actions() if a.type == "play"}
            assert engine_cards == reference_legal(deal)

    deal = play_out(*start(rules, seed), check=check)
    result = deal.result()
    if result.void:
        return
    for trick in result.tricks:
        cards = list(trick.cards)
        assert trick.winner == (trick.leader + reference.trick_winner(cards, result.trump)) % 4
        assert trick.points == sum(reference.card_points(c, result.trump) for c in cards)


@many
@given(rules=rule_sets, seed=seeds)
def test_no_observation_shows_a_card_its_seat_may_not_see(rules, seed) -> None:
    def shown_announced(deal: BeloteDeal) -> set[int]:
        """Cards of other seats made public by announcements (§7.1, D-16): a carré's
        at once (its rank is public); after the first trick, the counting side's."""
        side = deal.counted_side()
        out: set[int] = set()
        for a in deal.announced:
            if is_carre(a.cards) or (side is not None and a.seat % 2 == side):
                out |= set(card_list(a.cards))
        return out

    def check(deal: BeloteDeal) -> None:
        public = shown_announced(deal)
        if not deal.coinche:
            public.add(deal.proposed)  # classic bidding's turned card is public
        for seat in [0, 1, 2, 3, None]:
            hidden = {
                CODES[c]
                for s, hand in enumerate(deal.hands)
                if s != seat
                for c in card_list(hand)
                if c not in public
            }
            text = json.dumps(observe(deal, seat).to_dict())
            leaked = {c for c in hidden if f'"{c}"' in text}
            assert not leaked, f"seat {seat} sees {leaked}"

    play_out(*start(rules, seed), check=check)
