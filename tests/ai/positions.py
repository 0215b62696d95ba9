"""Literal positions for the AI tests: decks built from the hands we want."""

from __future__ import annotations

from engine.actions import PASS_ACTIONS, PLAY_ACTIONS, TAKE_ACTIONS
from engine.belote import BeloteDeal
from engine.cards import card
from engine.deal import new_deal
from engine.layout import belote_completion, belote_first_deal
from engine.rules import RuleSet


def belote_deck(dealer: int, taker: int, proposed: str, hands: dict[int, str]) -> list[int]:
    """A deck dealing ``hands`` (seat -> eight card codes) once ``taker`` takes
    ``proposed`` in round 1."""
    piles = {s: [card(c) for c in codes.split()] for s, codes in hands.items()}
    piles[taker].remove(card(proposed))
    first = belote_first_deal(dealer)
    deck = [piles[s].pop(0) for s in first]
    deck.append(card(proposed))
    deck.extend(piles[s].pop(0) for s in belote_completion(dealer, taker))
    assert sorted(deck) == list(range(32)), "the hands must hold the 32 cards"
    return deck


def belote_position(
    taker: int, proposed: str, hands: dict[int, str], plays: str, dealer: int = 0
) -> BeloteDeal:
    """Deal, let ``taker`` take in round 1 (the seats before him pass), then play
    ``plays`` (card codes in turn order)."""
    deal = new_deal(RuleSet.build("belote"), dealer, belote_deck(dealer, taker, proposed, hands))
    while deal.to_act != taker:
        deal.apply(PASS_ACTIONS[deal.to_act])  # type: ignore[index]
    deal.apply(TAKE_ACTIONS[taker])
    for code in plays.split():
        deal.apply(PLAY_ACTIONS[deal.to_act][card(code)])  # type: ignore[index]
    assert isinstance(deal, BeloteDeal)
    return deal
