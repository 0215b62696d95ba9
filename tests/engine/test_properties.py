"""Properties every deal of either variant keeps, checked on random legal deals."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import VARIANTS, DealRecord, IllegalAction, RuleSet, new_deal, observe, replay
from engine.actions import PLAY_ACTIONS, Action, declare
from engine.belote import BeloteDeal
from engine.cards import CODES, TRUMP_CODES, card_list
from engine.deal import Deal
from engine.open_blot import OpenBlotDeal
from engine.shuffle import shuffled_deck
from tests.engine import reference

seeds = st.integers(min_value=0, max_value=2**32 - 1)
variants = st.sampled_from(VARIANTS)
many = settings(max_examples=150, deadline=None)


def start(variant: str, seed: int) -> tuple[Deal, random.Random]:
    rng = random.Random(seed)
    rules = RuleSet.build(variant)
    return new_deal(rules, rng.randrange(rules.seats), shuffled_deck(rng)), rng


def play_out(deal: Deal, rng: random.Random, check=None) -> Deal:
    """Play random legal actions to the end, calling ``check(deal)`` before each."""
    while not deal.is_over:
        legal = deal.legal_actions()
        if check is not None:
            check(deal)
        deal.apply(rng.choice(legal))
    return deal


def played_cards(deal: Deal) -> list[int]:
    return [c for _, cards, _, _ in deal.tricks for c in cards] + list(deal.trick)


def holdings(deal: Deal) -> list[int]:
    """Every card some seat holds, one entry per holding (duplicates would show)."""
    if isinstance(deal, BeloteDeal):
        return [c for hand in deal.hands for c in card_list(hand)]
    assert isinstance(deal, OpenBlotDeal)
    return [c for s in (0, 1) for c in card_list(deal.face_up[s] | deal.face_down[s])]


def undealt(deal: Deal) -> list[int]:
    if isinstance(deal, BeloteDeal):
        return list(deal.deck[20:]) if deal.trump is None else []
    assert isinstance(deal, OpenBlotDeal)
    return [] if deal.second_batch_dealt else list(deal.deck[24:])


def hidden_from(deal: Deal, seat: int | None) -> set[str]:
    """Card codes ``seat`` (None: a spectator) must never be shown."""
    hidden = set(undealt(deal))
    if isinstance(deal, BeloteDeal):
        for s, hand in enumerate(deal.hands):
            if s != seat:
                hidden |= set(card_list(hand))
        hidden.discard(deal.proposed)
    else:
        assert isinstance(deal, OpenBlotDeal)
        hidden |= set(card_list(deal.face_down[0] | deal.face_down[1]))
    return {CODES[c] for c in hidden}


@many
@given(variant=variants, seed=seeds)
def test_it_conserves_every_card_at_every_step(variant: str, seed: int) -> None:
    def check(deal: Deal) -> None:
        everything = holdings(deal) + played_cards(deal) + undealt(deal)
        assert sorted(everything) == list(range(32))

    play_out(*start(variant, seed), check=check)


@many
@given(variant=variants, seed=seeds)
def test_it_shares_out_162_card_points_in_every_played_deal(variant: str, seed: int) -> None:
    result = play_out(*start(variant, seed)).result()
    assert result is not None
    if not result.void:
        assert sum(result.card_points) == 162
        assert sum(t.points for t in result.tricks) == 152


@many
@given(variant=variants, seed=seeds)
def test_it_always_offers_a_legal_action_to_the_seat_to_act(variant: str, seed: int) -> None:
    def check(deal: Deal) -> None:
        legal = deal.legal_actions()
        assert legal
        assert {a.seat for a in legal} == {deal.to_act}

    deal = play_out(*start(variant, seed), check=check)
    assert deal.legal_actions() == [] and deal.to_act is None


def snapshot(deal: Deal) -> str:
    views = [observe(deal, s).to_dict() for s in range(deal.seats)]
    views.append(observe(deal, None).to_dict())
    return json.dumps([views, deal.to_record().to_dict()], sort_keys=True)


def illegal_candidates(deal: Deal) -> list[Action]:
    legal = set(deal.legal_actions())
    seat = deal.to_act if deal.to_act is not None else 0
    other = (seat + 1) % deal.seats
    candidates = [PLAY_ACTIONS[seat][c] for c in range(32)] + [
        Action(seat, "pass"), Action(seat, "take"), Action(other, "pass"),
        Action(seat, "choose", trump=4), declare(seat, [0, 1, 2]),
        *(PLAY_ACTIONS[other][c] for c in range(32)),
    ]
    return [a for a in candidates if a not in legal]


@many
@given(variant=variants, seed=seeds, data=st.data())
def test_it_refuses_an_illegal_action_and_changes_nothing(variant, seed, data) -> None:
    deal, rng = start(variant, seed)
    stop_after = data.draw(st.integers(0, 45))
    for _ in range(stop_after):
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    action = data.draw(st.sampled_from(illegal_candidates(deal)))
    before = snapshot(deal)
    try:
        deal.apply(action)
    except IllegalAction as exc:
        assert str(exc).startswith("illegal action ")
    else:
        raise AssertionError(f"{action} was accepted")
    assert snapshot(deal) == before


@many
@given(variant=variants, seed=seeds)
def test_it_replays_a_finished_deal_from_its_record_to_the_same_result(variant, seed) -> None:
    deal = play_out(*start(variant, seed))
    text = json.dumps(deal.to_record().to_dict())
    again = replay(DealRecord.from_dict(json.loads(text)))
    assert again.error is None
    assert again.result == deal.result().to_dict()
    assert len(again.steps) == len(deal.history)


@many
@given(variant=variants, seed=seeds)
def test_it_never_shows_a_hidden_card_in_an_observation(variant: str, seed: int) -> None:
    def check(deal: Deal) -> None:
        for seat in [*range(deal.seats), None]:
            text = json.dumps(observe(deal, seat).to_dict())
            leaked = {c for c in hidden_from(deal, seat) if f'"{c}"' in text}
            assert not leaked, f"seat {seat} sees {leaked}"

    play_out(*start(variant, seed), check=check)


def reference_legal(deal: Deal) -> set[str]:
    seat = deal.to_act
    hand = [CODES[c] for c in card_list(deal.playable(seat))]
    trick = [CODES[c] for c in deal.trick]
    trump = TRUMP_CODES[deal.trump]
    partner_winning = False
    if deal.seats == 4 and len(trick) >= 2:
        winner = (deal.leader + reference.trick_winner(trick, trump)) % 4
        partner_winning = winner == (seat + 2) % 4
    return reference.legal_cards(hand, trick, trump, partner_winning)


@settings(max_examples=300, deadline=None)
@given(variant=variants, seed=seeds)
def test_it_agrees_with_the_readable_rules_on_every_card_and_trick(variant, seed) -> None:
    deal, rng = start(variant, seed)
    while not deal.is_over:
        if deal.phase == "play":
            engine_cards = {a.to_dict()["card"] for a in deal.legal_actions() if a.type == "play"}
            assert engine_cards == reference_legal(deal)
        deal.apply(rng.choice(deal.legal_actions()))
    result = deal.result()
    if result.void:
        return
    for trick in result.tricks:
        cards = list(trick.cards)
        winner_index = reference.trick_winner(cards, result.trump)
        assert trick.winner == (trick.leader + winner_index) % deal.seats
        assert trick.points == sum(reference.card_points(c, result.trump) for c in cards)
