"""Armenian two-player Open Blot (docs/rules.md §3), variant id ``open_blot``."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import CHOOSE, CHOOSE_ACTIONS, DECLARE, PASS_ACTIONS, Action, declare
from engine.cards import CODES, NO_TRUMP, RK, RQ, TRUMP_CODES, Card, Mask, card_list
from engine.deal import OVER, PLAYING, Deal
from engine.declarations import Declaration, available, grow
from engine.events import Event
from engine.layout import OPEN_BLOT_SECOND_BATCH, open_blot_layout
from engine.result import DealResult
from engine.rules import OPEN_BLOT, RuleSet
from engine.scoring import score_open_blot

NO_CARD = -1


class OpenBlotDeal(Deal):
    variant = OPEN_BLOT
    seats = 2

    def __init__(self, rules: RuleSet, dealer: int, deck: Sequence[Card]) -> None:
        super().__init__(rules, dealer, deck)
        self.down: list[list[Card]] = [[NO_CARD] * 8, [NO_CARD] * 8]
        self.up: list[list[Card]] = [[NO_CARD] * 8, [NO_CARD] * 8]
        #: Face-up unplayed cards (what a seat may play) and face-down cards, per seat.
        self.face_up: list[Mask] = [0, 0]
        self.face_down: list[Mask] = [0, 0]
        #: under[c]: the face-down card under face-up card c, if any.
        self.under: list[Card] = [NO_CARD] * 32
        self.declarations: list[Declaration] = []
        self.declared: list[Mask] = [0, 0]
        self._declare_count = 0
        self.second_batch_dealt = False
        self._deal_from(0, OPEN_BLOT_SECOND_BATCH)

    def _deal_from(self, start: int, stop: int) -> None:
        layout = open_blot_layout(self.dealer)
        for index in range(start, stop):
            c = self.deck[index]
            seat, stack, face_up = layout[index]
            if face_up:
                self.up[seat][stack] = c
                self.face_up[seat] |= 1 << c
                self.under[c] = self.down[seat][stack]
            else:
                self.down[seat][stack] = c
                self.face_down[seat] |= 1 << c

    def _deal_second_batch(self, events: list[Event]) -> None:
        self._deal_from(OPEN_BLOT_SECOND_BATCH, 32)
        self.second_batch_dealt = True
        shown = {str(s): [CODES[self.up[s][k]] for k in range(4, 8)] for s in (0, 1)}
        events.append(Event("dealt", None, {"face_up": shown}))

    def playable(self, seat: int) -> Mask:
        return self.face_up[seat]

    # --- choosing trump ----------------------------------------------------------------

    def _bidding_actions(self) -> list[Action]:
        seat = self.to_act
        assert seat is not None
        choices = list(CHOOSE_ACTIONS[seat])
        if self.bid_round == 2 and seat == self.dealer:
            return choices  # the dealer must choose in round 2
        return [PASS_ACTIONS[seat], *choices]

    def _bid(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        if action.type == CHOOSE:
            assert action.trump is not None
            self.trump, self.taker = action.trump, seat
            events.append(Event("chose", seat, {"trump": TRUMP_CODES[action.trump]}))
            if not self.second_batch_dealt:
                self._deal_second_batch(events)
            self.phase = PLAYING
            self.to_act = (self.dealer + 1) % 2  # the non-dealer always leads
            return
        events.append(Event("passed", seat))
        self.to_act = 1 - seat
        if seat == self.dealer:  # both passed in round 1
            self.bid_round = 2
            self._deal_second_batch(events)

    # --- declarations --------------------------------------------------------------------

    @property
    def declaring(self) -> bool:
        """Declarations are open during the first trick, before the seat's card."""
        return self.phase == PLAYING and not self.tricks

    def available_declarations(self, seat: int) -> list[Mask]:
        return available(self.face_up[seat], self.declared[seat], self.trump)  # type: ignore[arg-type]

    def _extra_actions(self) -> list[Action]:
        if not self.declaring:
            return []
        seat = self.to_act
        assert seat is not None
        return [declare(seat, card_list(m)) for m in self.available_declarations(seat)]

    def _apply_extra(self, action: Action, events: list[Event]) -> None:
        assert action.type == DECLARE and action.cards is not None
        cards = 0
        for c in action.cards:
            cards |= 1 << c
        d = Declaration(action.seat, cards, self._declare_count)
        self._declare_count += 1
        self.declarations.append(d)
        self.declared[action.seat] |= cards
        events.append(
            Event(
                "declared",
                action.seat,
                {"kind": d.kind, "cards": d.codes(), "points": d.points(self.trump)},  # type: ignore[arg-type]
            )
        )

    # --- card play -------------------------------------------------------------------------

    def _remove(self, seat: int, card: Card, events: list[Event]) -> None:
        self.face_up[seat] &= ~(1 << card)
        turned = self.under[card]
        if turned == NO_CARD:
            return
        self.face_down[seat] &= ~(1 << turned)
        self.face_up[seat] |= 1 << turned
        events.append(Event("turned_up", seat, {"card": CODES[turned], "under": CODES[card]}))
        if self.declared[seat] and grow(self.declarations, seat, turned, self.face_up[seat]):
            self.declared[seat] = 0
            for d in self.declarations:
                if d.seat == seat:
                    self.declared[seat] |= d.cards
            for d in self.declarations:
                if d.seat == seat and d.cards >> turned & 1:
                    events.append(
                        Event("grew", seat, {"kind": d.kind, "cards": d.codes()})
                    )

    def blot_seat(self) -> int | None:
        """The seat dealt both King and Queen of trump (trump games only)."""
        if self.trump is None or self.trump == NO_TRUMP:
            return None
        pair = (1 << (self.trump * 8 + RK)) | (1 << (self.trump * 8 + RQ))
        for seat in (0, 1):
            dealt = 0
            for stack in range(8):
                for c in (self.down[seat][stack], self.up[seat][stack]):
                    if c != NO_CARD:
                        dealt |= 1 << c
            if dealt & pair == pair:
                return seat
        return None

    def stacks(self, seat: int) -> list[tuple[Card | None, bool]]:
        """Each stack as (its top face-up card or None, whether a face-down card lies
        in it). What a stack shows; never which card is face down."""
        out: list[tuple[Card | None, bool]] = []
        for stack in range(8):
            up, down = self.up[seat][stack], self.down[seat][stack]
            if up != NO_CARD and self.face_up[seat] >> up & 1:
                out.append((up, True))
            elif down != NO_CARD and self.face_down[seat] >> down & 1:
                out.append((None, True))
            elif down != NO_CARD and self.face_up[seat] >> down & 1:
                out.append((down, False))
            else:
                out.append((None, False))
        return out

    def _score(self) -> DealResult:
        assert self.phase == OVER and self.trump is not None and self.taker is not None
        return score_open_blot(
            rules=self.rules,
            trump=self.trump,
            taker=self.taker,
            tricks=self.trick_records(),
            card_points=tuple(self.card_points),
            declarations=self.declarations,
            blot_seat=self.blot_seat(),
        )


__all__ = ["OpenBlotDeal"]
