"""Classic four-player team Belote (RULES.md §2), variant id ``belote``."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import CHOOSE, CHOOSE_ACTIONS, PASS_ACTIONS, TAKE, TAKE_ACTIONS, Action
from engine.cards import CODES, RK, RQ, TRUMP_CODES, Card, Mask
from engine.deal import OVER, PLAYING, Deal
from engine.events import Event
from engine.layout import BELOTE_PROPOSED_INDEX, belote_completion, belote_first_deal
from engine.result import DealResult
from engine.rules import BELOTE, RuleSet
from engine.scoring import score_belote


class BeloteDeal(Deal):
    variant = BELOTE
    seats = 4

    def __init__(self, rules: RuleSet, dealer: int, deck: Sequence[Card]) -> None:
        super().__init__(rules, dealer, deck)
        self.hands: list[Mask] = [0, 0, 0, 0]
        for c, seat in zip(self.deck, belote_first_deal(dealer), strict=False):
            self.hands[seat] |= 1 << c
        self.proposed: Card = self.deck[BELOTE_PROPOSED_INDEX]
        self.belote_seat: int | None = None

    def playable(self, seat: int) -> Mask:
        return self.hands[seat]

    def _bidding_actions(self) -> list[Action]:
        seat = self.to_act
        assert seat is not None
        if self.bid_round == 1:
            return [PASS_ACTIONS[seat], TAKE_ACTIONS[seat]]
        proposed_suit = self.proposed >> 3
        return [PASS_ACTIONS[seat]] + [
            CHOOSE_ACTIONS[seat][t] for t in range(4) if t != proposed_suit
        ]

    def _bid(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        if action.type == TAKE or action.type == CHOOSE:
            trump = self.proposed >> 3 if action.type == TAKE else action.trump
            assert trump is not None
            self.trump, self.taker = trump, seat
            kind = "took" if action.type == TAKE else "chose"
            events.append(Event(kind, seat, {"trump": TRUMP_CODES[trump]}))
            self._complete_deal(events)
            return
        events.append(Event("passed", seat))
        self.passes += 1
        self.to_act = (seat + 1) % 4
        if self.passes < 4:
            return
        if self.bid_round == 1:
            self.bid_round, self.passes = 2, 0
            return
        # Everyone passed twice: the deal is void (D-2).
        self.phase = OVER
        self.to_act = None
        events.append(Event("void"))

    def _complete_deal(self, events: list[Event]) -> None:
        assert self.trump is not None and self.taker is not None
        self.hands[self.taker] |= 1 << self.proposed
        rest = self.deck[BELOTE_PROPOSED_INDEX + 1 :]
        for c, seat in zip(rest, belote_completion(self.dealer, self.taker), strict=True):
            self.hands[seat] |= 1 << c
        pair = (1 << (self.trump * 8 + RK)) | (1 << (self.trump * 8 + RQ))
        for seat, hand in enumerate(self.hands):
            if hand & pair == pair:
                self.belote_seat = seat
        self.phase = PLAYING
        self.to_act = (self.dealer + 1) % 4
        events.append(Event("dealt", None, {"proposed": CODES[self.proposed]}))

    def _remove(self, seat: int, card: Card, events: list[Event]) -> None:
        self.hands[seat] &= ~(1 << card)

    def _after_play(self, seat: int, card: Card, events: list[Event]) -> None:
        if seat == self.belote_seat and card >> 3 == self.trump and card & 7 in (RK, RQ):
            word = "rebelote" if self.announcements else "belote"
            self.announcements.append((seat, word))
            events.append(Event(word, seat))

    def _score(self) -> DealResult:
        if self.trump is None:
            return DealResult(void=True)
        assert self.phase == OVER and self.taker is not None
        return score_belote(
            rules=self.rules,
            trump=self.trump,
            taker=self.taker,
            tricks=self.trick_records(),
            card_points=tuple(self.card_points),
            tricks_won=tuple(self.tricks_won),
            belote_side=None if self.belote_seat is None else self.belote_seat % 2,
        )


__all__ = ["BeloteDeal"]
