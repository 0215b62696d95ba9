"""The deal state machine shared by both variants.

A :class:`Deal` answers whose turn it is, which actions are legal, applies an
action (returning the events it caused) and, once over, gives the result. The
variants (:mod:`engine.belote`, :mod:`engine.open_blot`) plug in their dealing,
bidding, playable cards and scoring, the way python-chess variants override a
few hooks. Card sets are 32-bit masks; see :mod:`engine.cards`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import ClassVar

from engine.actions import PLAY, PLAY_ACTIONS, Action
from engine.cards import CODES, LAST_TRICK_BONUS, POINTS, Card, Mask, cards_in
from engine.errors import IllegalAction, RecordError
from engine.events import Event
from engine.record_format import DealRecord
from engine.result import DealResult, TrickRecord
from engine.rules import RuleSet
from engine.tricks import beats, legal_plays

BIDDING, PLAYING, OVER = "bidding", "play", "over"


class Deal:
    """One deal, from the shuffled deck to the result. Mutable; :meth:`clone` copies."""

    variant: ClassVar[str]
    seats: ClassVar[int]
    #: Sides score: seat % 2 in Belote (0 & 2 against 1 & 3), the seat in Open Blot.
    sides: ClassVar[int] = 2
    #: Each variant's deal class, by variant id: a variant registers itself when it is
    #: defined, so this module never imports the variants that build on it.
    by_variant: ClassVar[dict[str, type[Deal]]] = {}

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        Deal.by_variant[cls.variant] = cls

    def __init__(self, rules: RuleSet, dealer: int, deck: Sequence[Card]) -> None:
        if rules.variant != self.variant:
            raise RecordError(f"rule set is for {rules.variant}, not {self.variant}")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < self.seats:
            raise RecordError(f"dealer must be a seat number 0..{self.seats - 1}")
        if len(deck) != 32 or set(deck) != set(range(32)):
            raise RecordError("deck must hold the 32 cards exactly once")
        self.rules = rules
        self.dealer = dealer
        self.deck: tuple[Card, ...] = tuple(deck)
        self.history: list[Action] = []
        self.phase = BIDDING
        self.to_act: int | None = (dealer + 1) % self.seats
        self.trump: int | None = None
        self.taker: int | None = None
        self.bid_round = 1
        self.passes = 0
        self.tricks: list[tuple[int, tuple[Card, ...], int, int]] = []
        self.trick: list[Card] = []
        self.leader = (dealer + 1) % self.seats
        self.best = -1
        self.best_seat = -1
        self.card_points = [0, 0]
        self.tricks_won = [0, 0]
        #: Belote / Rebelote as they were shown: (seat, "belote" | "rebelote").
        self.announcements: list[tuple[int, str]] = []
        self._result: DealResult | None = None
        self._mask_at, self._mask = -1, 0

    # --- what the variants provide -------------------------------------------------

    def playable(self, seat: int) -> Mask:
        """The cards ``seat`` could play if nothing restricted it."""
        raise NotImplementedError

    def _bidding_actions(self) -> list[Action]:
        raise NotImplementedError

    def _bid(self, action: Action, events: list[Event]) -> None:
        raise NotImplementedError

    def _extra_actions(self) -> list[Action]:
        """Legal actions besides card plays during play (Open Blot declarations)."""
        return []

    def _apply_extra(self, action: Action, events: list[Event]) -> None:
        raise IllegalAction(f"illegal action {action}")

    def _remove(self, seat: int, card: Card, events: list[Event]) -> None:
        raise NotImplementedError

    def _score(self) -> DealResult:
        raise NotImplementedError

    # --- the public interface ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_play_mask(self) -> Mask:
        """The cards the seat to act may play now (0 outside the play phase)."""
        if self.phase != PLAYING:
            return 0
        # legal_actions() and apply() both ask; the position only changes with history.
        if self._mask_at == len(self.history):
            return self._mask
        seat = self.to_act
        assert seat is not None
        trick = self.trick
        partner_winning = self.seats == 4 and len(trick) >= 2 and self.best_seat == (seat + 2) % 4
        led = trick[0] if trick else -1
        mask = legal_plays(self.playable(seat), led, self.best, partner_winning, self.trump)  # type: ignore[arg-type]
        self._mask_at, self._mask = len(self.history), mask
        return mask

    def legal_actions(self) -> list[Action]:
        if self.phase == BIDDING:
            return self._bidding_actions()
        if self.phase == PLAYING:
            plays = PLAY_ACTIONS[self.to_act]  # type: ignore[index]
            return self._extra_actions() + [plays[c] for c in cards_in(self.legal_play_mask())]
        return []

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return what happened; raise ``IllegalAction``
        (leaving the deal unchanged) for anything else."""
        if self.phase == OVER:
            raise IllegalAction(f"illegal action {action}", "the deal is over")
        if action.seat != self.to_act:
            raise IllegalAction(f"illegal action {action}", f"it is seat {self.to_act}'s turn")
        events: list[Event] = []
        if action.type == PLAY and self.phase == PLAYING:
            card = action.card
            if card is None or not 0 <= card < 32 or not self.legal_play_mask() >> card & 1:
                raise IllegalAction(f"illegal action {action}", "that card may not be played now")
            self.history.append(action)
            self._play(action.seat, card, events)
            return events
        if action not in self.legal_actions():
            raise IllegalAction(f"illegal action {action}", "that is not a legal action now")
        self.history.append(action)
        if self.phase == BIDDING:
            self._bid(action, events)
        else:
            self._apply_extra(action, events)
        return events

    def result(self) -> DealResult | None:
        """The deal's result once it is over, else ``None``."""
        if self.phase != OVER:
            return None
        if self._result is None:
            self._result = self._score()
        return self._result

    def clone(self) -> Deal:
        """An independent copy (for search): containers copied, values shared."""
        twin = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list):
                setattr(twin, name, [v[:] if isinstance(v, list) else v for v in value])
        return twin

    def to_record(self) -> DealRecord:
        """The deal written down (docs/deal-record.md); replaying it rebuilds this deal."""
        return DealRecord(
            variant=self.variant,
            dealer=self.dealer,
            rules=self.rules.overrides(),
            deck=[CODES[c] for c in self.deck],
            actions=[a.to_dict() for a in self.history],
        )

    # --- card play, common to both variants --------------------------------------------

    def _play(self, seat: int, card: Card, events: list[Event]) -> None:
        self._remove(seat, card, events)
        trick = self.trick
        if not trick:
            self.leader = seat
            self.best, self.best_seat = card, seat
        elif beats(card, self.best, self.trump):  # type: ignore[arg-type]
            self.best, self.best_seat = card, seat
        trick.append(card)
        events.append(Event("played", seat, {"card": CODES[card]}))
        self._after_play(seat, card, events)
        if len(trick) < self.seats:
            self.to_act = (seat + 1) % self.seats
            return
        table = POINTS[self.trump]  # type: ignore[index]
        points = sum(table[c] for c in trick)
        winner = self.best_seat
        side = winner % 2
        self.tricks.append((self.leader, tuple(trick), winner, points))
        self.trick = []
        self.best = self.best_seat = -1
        self.card_points[side] += points
        self.tricks_won[side] += 1
        events.append(Event("trick", winner, {"points": points}))
        if len(self.tricks) * self.seats == 32:
            self.card_points[side] += LAST_TRICK_BONUS
            self._finish(events)
        else:
            self.to_act = winner

    def _after_play(self, seat: int, card: Card, events: list[Event]) -> None:
        """Hook after a card lands in the trick (Belote announces belote here)."""

    def _finish(self, events: list[Event]) -> None:
        self.phase = OVER
        self.to_act = None
        result = self.result()
        assert result is not None
        events.append(Event("over", None, {"deal_points": list(result.deal_points or [])}))

    def trick_records(self) -> tuple[TrickRecord, ...]:
        return tuple(
            TrickRecord(leader, tuple(CODES[c] for c in cards), winner, points)
            for leader, cards, winner, points in self.tricks
        )


def new_deal(rules: RuleSet, dealer: int, deck: Sequence[Card]) -> Deal:
    """A fresh deal of ``rules.variant`` dealt by ``dealer`` from ``deck`` (top first).
    The variants' modules are imported by the ``engine`` package, so both are known."""
    return Deal.by_variant[rules.variant](rules, dealer, deck)
