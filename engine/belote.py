"""Four-player team Belote, variant id ``belote``: classic bidding (docs/rules.md §2)
or, with the ``coinche`` switch, an auction of contracts (§7.2, §7.3); with the
``announcements`` switch, tierce, cinquante, cent and carré (§7.1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import (
    BID,
    BID_VALUES,
    CHOOSE,
    CHOOSE_ACTIONS,
    COINCHE,
    COINCHE_ACTIONS,
    PASS_ACTIONS,
    SURCOINCHE,
    SURCOINCHE_ACTIONS,
    TAKE,
    TAKE_ACTIONS,
    Action,
    bid,
    declare,
)
from engine.announcements import Announcement, combinations, counted_points, counted_side
from engine.cards import ALL_TRUMP, CODES, NO_TRUMP, RK, RQ, TRUMP_CODES, Card, Mask
from engine.deal import OVER, PLAYING, Deal
from engine.events import Event
from engine.layout import (
    BELOTE_PROPOSED_INDEX,
    belote_completion,
    belote_first_deal,
    coinche_deal,
)
from engine.result import DealResult, DeclarationRecord
from engine.rules import BELOTE, RuleSet
from engine.scoring import score_belote, score_coinche

NO_CARD = -1

#: BID_ACTIONS[seat]: every bid of that seat, lowest value first, trumps C D H S NT AT.
BID_ACTIONS = tuple(
    tuple(bid(s, v, t) for v in BID_VALUES for t in range(ALL_TRUMP + 1)) for s in range(4)
)


class BeloteDeal(Deal):
    variant = BELOTE
    seats = 4

    def __init__(self, rules: RuleSet, dealer: int, deck: Sequence[Card]) -> None:
        super().__init__(rules, dealer, deck)
        self.hands: list[Mask] = [0, 0, 0, 0]
        self.coinche = rules.coinche
        #: The proposed card of classic bidding; ``NO_CARD`` in a coinche deal (no
        #: card is turned; observations show None).
        self.proposed: Card = NO_CARD
        if self.coinche:
            for c, seat in zip(self.deck, coinche_deal(dealer), strict=True):
                self.hands[seat] |= 1 << c
        else:
            for c, seat in zip(self.deck, belote_first_deal(dealer), strict=False):
                self.hands[seat] |= 1 << c
            self.proposed = self.deck[BELOTE_PROPOSED_INDEX]
        #: The seat dealt the king and queen of trump (of the first such suit in an
        #: all-trump contract), and per suit the seat holding that suit's pair when it
        #: is worth a belote in this contract.
        self.belote_seat: int | None = None
        self.belote_by_suit: list[int | None] = [None, None, None, None]
        self._belote_shown = 0
        # The auction (coinche): the highest bid so far and its multiplier.
        self.auction: list[Action] = []
        self.high_bid: Action | None = None
        self.multiplier = 1
        #: Announcements (tierce ... carré) in the order they were made.
        self.announced: list[Announcement] = []
        #: Per seat, the announcements it may still make: its hand's combinations,
        #: found once when play starts (a seat's hand is whole until its first card).
        self._may_announce: list[list[Action]] = [[], [], [], []]

    def playable(self, seat: int) -> Mask:
        return self.hands[seat]

    # --- bidding -----------------------------------------------------------------------

    def _bidding_actions(self) -> list[Action]:
        seat = self.to_act
        assert seat is not None
        if self.coinche:
            return self._auction_actions(seat)
        if self.bid_round == 1:
            return [PASS_ACTIONS[seat], TAKE_ACTIONS[seat]]
        proposed_suit = self.proposed >> 3
        return [PASS_ACTIONS[seat]] + [
            CHOOSE_ACTIONS[seat][t] for t in range(4) if t != proposed_suit
        ]

    def _auction_actions(self, seat: int) -> list[Action]:
        if self.multiplier > 1:  # the one call after a coinche (D-20)
            return [PASS_ACTIONS[seat], SURCOINCHE_ACTIONS[seat]]
        high = self.high_bid
        floor = 0 if high is None else high.value or 0
        trumps = self.allowed_trumps
        actions = [PASS_ACTIONS[seat]]
        actions += [a for a in BID_ACTIONS[seat] if (a.value or 0) > floor and a.trump in trumps]
        if high is not None and high.seat % 2 != seat % 2:
            actions.append(COINCHE_ACTIONS[seat])
        return actions

    @property
    def allowed_trumps(self) -> frozenset[int]:
        """The trumps a coinche bid may name under this rule set."""
        trumps = {0, 1, 2, 3}
        if self.rules.no_trump:
            trumps.add(NO_TRUMP)
        if self.rules.all_trump:
            trumps.add(ALL_TRUMP)
        return frozenset(trumps)

    def _bid(self, action: Action, events: list[Event]) -> None:
        if self.coinche:
            self._auction_call(action, events)
            return
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
        self._void(events)

    def _void(self, events: list[Event]) -> None:
        # Everyone passed (twice in classic bidding): the deal is void (D-2).
        self.phase = OVER
        self.to_act = None
        events.append(Event("void"))

    def _auction_call(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        self.auction.append(action)
        self.to_act = (seat + 1) % 4
        if action.type == BID:
            assert action.value is not None and action.trump is not None
            self.high_bid, self.passes = action, 0
            events.append(
                Event("bid", seat, {"value": action.value, "trump": TRUMP_CODES[action.trump]})
            )
            return
        if action.type == COINCHE:
            self.multiplier = 2
            events.append(Event("coinche", seat))
            return
        if action.type == SURCOINCHE:
            self.multiplier = 4
            events.append(Event("surcoinche", seat))
            self._start_play(events)
            return
        events.append(Event("passed", seat))
        self.passes += 1
        if self.multiplier > 1 or (self.high_bid is not None and self.passes == 3):
            self._start_play(events)
        elif self.high_bid is None and self.passes == 4:
            self._void(events)

    def _start_play(self, events: list[Event]) -> None:
        high = self.high_bid
        assert high is not None and high.trump is not None
        self.trump, self.taker = high.trump, high.seat
        events.append(Event("contract", high.seat, self.contract() or {}))
        self._begin_play()

    def contract(self) -> dict[str, Any] | None:
        """A coinche deal's contract once the auction is over, else None."""
        high = self.high_bid
        if not self.coinche or self.trump is None or high is None:
            return None
        return {
            "value": high.value,
            "trump": TRUMP_CODES[self.trump],
            "taker": high.seat,
            "multiplier": self.multiplier,
        }

    def _complete_deal(self, events: list[Event]) -> None:
        assert self.trump is not None and self.taker is not None
        self.hands[self.taker] |= 1 << self.proposed
        rest = self.deck[BELOTE_PROPOSED_INDEX + 1 :]
        for c, seat in zip(rest, belote_completion(self.dealer, self.taker), strict=True):
            self.hands[seat] |= 1 << c
        events.append(Event("dealt", None, {"proposed": CODES[self.proposed]}))
        self._begin_play()

    def _begin_play(self) -> None:
        trump = self.trump
        assert trump is not None
        suits = range(4) if trump == ALL_TRUMP else () if trump == NO_TRUMP else (trump,)
        for s in suits:
            pair = (1 << (s * 8 + RK)) | (1 << (s * 8 + RQ))
            for seat, hand in enumerate(self.hands):
                if hand & pair == pair:
                    self.belote_by_suit[s] = seat
                    if self.belote_seat is None:
                        self.belote_seat = seat
        if self.rules.announcements:
            self._may_announce = [
                [declare(seat, _cards(m)) for m in combinations(hand)]
                for seat, hand in enumerate(self.hands)
            ]
        self.phase = PLAYING
        self.to_act = (self.dealer + 1) % 4

    # --- announcements -------------------------------------------------------------------

    def _extra_actions(self) -> list[Action]:
        seat = self.to_act
        if self.tricks or seat is None:
            return []
        return self._may_announce[seat][:]

    def _apply_extra(self, action: Action, events: list[Event]) -> None:
        assert action.cards is not None
        mask = sum(1 << c for c in action.cards)
        self.announced.append(Announcement(action.seat, mask))
        self._may_announce[action.seat].remove(action)
        last = self.announced[-1]
        events.append(Event("declared", action.seat, {"kind": last.kind, "points": last.points}))

    def counted_side(self) -> int | None:
        """The side whose announcements count, known once the first trick is over."""
        if not self.tricks or self.trump is None:
            return None
        return counted_side(self.announced, self.trump)

    # --- play ----------------------------------------------------------------------------

    def _remove(self, seat: int, card: Card, events: list[Event]) -> None:
        self.hands[seat] &= ~(1 << card)

    def _after_play(self, seat: int, card: Card, events: list[Event]) -> None:
        s = card >> 3
        if self.belote_by_suit[s] == seat and card & 7 in (RK, RQ):
            word = "rebelote" if self._belote_shown >> s & 1 else "belote"
            self._belote_shown |= 1 << s
            self.announcements.append((seat, word))
            events.append(Event(word, seat))

    def _score(self) -> DealResult:
        if self.trump is None:
            return DealResult(void=True)
        assert self.phase == OVER and self.taker is not None
        trump = self.trump
        side = counted_side(self.announced, trump)
        records = tuple(
            DeclarationRecord(a.seat, a.kind, tuple(a.codes()), a.points, a.side == side)
            for a in self.announced
        )
        announced = counted_points(self.announced, trump)
        high = self.high_bid
        if self.coinche:
            assert high is not None and high.value is not None
            return score_coinche(
                rules=self.rules, trump=trump, taker=self.taker, value=high.value,
                multiplier=self.multiplier, tricks=self.trick_records(),
                card_points=tuple(self.card_points), tricks_won=tuple(self.tricks_won),
                belote_sides=tuple(seat % 2 for seat in self.belote_by_suit if seat is not None),
                announced=announced, declarations=records,
            )
        return score_belote(
            rules=self.rules, trump=trump, taker=self.taker, tricks=self.trick_records(),
            card_points=tuple(self.card_points), tricks_won=tuple(self.tricks_won),
            belote_side=None if self.belote_seat is None else self.belote_seat % 2,
            announced=announced, declarations=records,
        )


def _cards(mask: Mask) -> list[Card]:
    return [c for c in range(32) if mask >> c & 1]


__all__ = ["BID_ACTIONS", "BeloteDeal"]
