"""Observations: the only way anything outside the engine sees a deal.

``observe(deal, seat)`` gives what that seat may see; ``observe(deal, None)`` what
a spectator may see. Hidden information is stripped here, once: another seat's
Belote hand, the undealt deck, every Open Blot face-down card (hidden from
its owner too) and the cards of another seat's announcement until they are shown.
Templates render observations and bots decide on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import COINCHE, DECLARE, SURCOINCHE, Action
from engine.announcements import Announcement, is_carre
from engine.belote import BeloteDeal
from engine.cards import CODES, TRUMP_CODES, Card, card_list, mask_of
from engine.deal import BIDDING, Deal
from engine.open_blot import OpenBlotDeal
from engine.result import TrickRecord
from engine.rules import RuleSet

#: An Open Blot stack as seen: its top face-up card (or None) and whether a
#: face-down card lies in it.
Stack = tuple[Card | None, bool]


@dataclass(frozen=True)
class DeclarationView:
    seat: int
    kind: str
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True)
class Observation:
    variant: str
    #: The deal's rule settings: public, and what a bot must simulate with.
    rules: RuleSet
    seat: int | None
    seats: int
    dealer: int
    phase: str
    bid_round: int
    to_act: int | None
    trump: int | None
    taker: int | None
    #: Belote's proposed card (public from the deal on); None in Open Blot.
    proposed: Card | None
    #: The viewer's own cards (Belote); empty for spectators and in Open Blot.
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    #: Open Blot: every seat's 8 stacks; empty in Belote.
    stacks: tuple[tuple[Stack, ...], ...]
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[TrickRecord, ...]
    declarations: tuple[DeclarationView, ...]
    announcements: tuple[tuple[int, str], ...]
    card_points: tuple[int, int]
    tricks_won: tuple[int, int]
    #: Every action so far; another seat's announcement whose cards this seat may
    #: not see yet is a ``declare`` with no cards.
    history: tuple[Action, ...]
    legal: tuple[Action, ...]
    result: dict[str, Any] | None
    #: Coinche: the auction so far, each call in its canonical dict form (empty
    #: otherwise), the highest bid ``{"seat", "value", "trump"}`` and, once the
    #: auction is over, the contract ``{"value", "trump", "taker", "multiplier"}``.
    auction: tuple[dict[str, Any], ...] = ()
    highest_bid: dict[str, Any] | None = None
    contract: dict[str, Any] | None = None
    #: Whether the observing seat may coinche / surcoinche now.
    can_coinche: bool = False
    can_surcoinche: bool = False
    #: Belote and Rebelote as they were shown (the same as ``announcements``).
    belote_calls: tuple[tuple[int, str], ...] = ()
    #: The side whose announcements count, once the first trick shows it.
    counted_side: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, with card and trump codes."""
        return {
            "variant": self.variant,
            "rules": self.rules.overrides(),
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase,
            "bid_round": self.bid_round,
            "to_act": self.to_act,
            "trump": None if self.trump is None else TRUMP_CODES[self.trump],
            "taker": self.taker,
            "proposed": None if self.proposed is None else CODES[self.proposed],
            "hand": [CODES[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stacks": [
                [{"top": None if c is None else CODES[c], "face_down": d} for c, d in row]
                for row in self.stacks
            ],
            "leader": self.leader,
            "trick": [{"seat": s, "card": CODES[c]} for s, c in self.trick],
            "tricks": [
                {"leader": t.leader, "cards": list(t.cards), "winner": t.winner, "points": t.points}
                for t in self.tricks
            ],
            "declarations": [
                {"seat": d.seat, "kind": d.kind, "cards": [CODES[c] for c in d.cards],
                 "points": d.points}
                for d in self.declarations
            ],
            "announcements": [{"seat": s, "word": w} for s, w in self.announcements],
            "card_points": list(self.card_points),
            "tricks_won": list(self.tricks_won),
            "history": [a.to_dict() for a in self.history],
            "legal": [a.to_dict() for a in self.legal],
            "result": self.result,
            "auction": [dict(a) for a in self.auction],
            "highest_bid": None if self.highest_bid is None else dict(self.highest_bid),
            "contract": None if self.contract is None else dict(self.contract),
            "can_coinche": self.can_coinche,
            "can_surcoinche": self.can_surcoinche,
            "belote_calls": [{"seat": s, "word": w} for s, w in self.belote_calls],
            "counted_side": self.counted_side,
        }


def observe(deal: Deal, seat: int | None) -> Observation:
    """What ``seat`` (or, with ``None``, a spectator) may see of ``deal``."""
    if seat is not None and not 0 <= seat < deal.seats:
        raise ValueError(f"no seat {seat} at a {deal.variant} table")
    hand: tuple[Card, ...] = ()
    stacks: tuple[tuple[Stack, ...], ...] = ()
    proposed = None
    declarations: tuple[DeclarationView, ...] = ()
    history = tuple(deal.history)
    auction: tuple[dict[str, Any], ...] = ()
    highest_bid: dict[str, Any] | None = None
    contract: dict[str, Any] | None = None
    counted: int | None = None
    if isinstance(deal, BeloteDeal):
        if seat is not None:
            hand = tuple(card_list(deal.hands[seat]))
        proposed = None if deal.coinche else deal.proposed
        sizes = tuple(h.bit_count() for h in deal.hands)
        auction = tuple(a.to_dict() for a in deal.auction)
        high = deal.high_bid
        if high is not None:
            highest_bid = {"seat": high.seat, "value": high.value,
                           "trump": TRUMP_CODES[high.trump]}  # type: ignore[index]
        contract = deal.contract()
        counted = deal.counted_side()
        declarations = tuple(_announcement_view(deal, a, seat, counted) for a in deal.announced)
        history = tuple(_hide_announcement(deal, a, seat, counted) for a in deal.history)
    elif isinstance(deal, OpenBlotDeal):
        stacks = tuple(tuple(deal.stacks(s)) for s in range(2))
        sizes = tuple((deal.face_up[s] | deal.face_down[s]).bit_count() for s in range(2))
        trump = deal.trump
        declarations = tuple(
            DeclarationView(d.seat, d.kind, tuple(card_list(d.cards)), d.points(trump))  # type: ignore[arg-type]
            for d in deal.declarations
        )
    else:  # pragma: no cover - every variant is listed above
        raise TypeError(f"unknown deal type {type(deal).__name__}")
    leader = deal.leader
    trick = tuple(((leader + i) % deal.seats, c) for i, c in enumerate(deal.trick))
    result = deal.result()
    legal = tuple(deal.legal_actions()) if seat is not None and seat == deal.to_act else ()
    kinds = {a.type for a in legal}
    return Observation(
        variant=deal.variant,
        rules=deal.rules,
        seat=seat,
        seats=deal.seats,
        dealer=deal.dealer,
        phase=deal.phase,
        bid_round=deal.bid_round if deal.phase == BIDDING else 0,
        to_act=deal.to_act,
        trump=deal.trump,
        taker=deal.taker,
        proposed=proposed,
        hand=hand,
        hand_sizes=sizes,
        stacks=stacks,
        leader=leader,
        trick=trick,
        tricks=deal.trick_records(),
        declarations=declarations,
        announcements=tuple(deal.announcements),
        card_points=(deal.card_points[0], deal.card_points[1]),
        tricks_won=(deal.tricks_won[0], deal.tricks_won[1]),
        history=history,
        legal=legal,
        result=None if result is None else result.to_dict(),
        auction=auction,
        highest_bid=highest_bid,
        contract=contract,
        can_coinche=COINCHE in kinds,
        can_surcoinche=SURCOINCHE in kinds,
        belote_calls=tuple(deal.announcements),
        counted_side=counted,
    )


def _shown(deal: BeloteDeal, a: Announcement, seat: int | None, counted: int | None) -> bool:
    """Whether ``seat`` sees the cards of announcement ``a``: its announcer always;
    everyone once the first trick is over if its side's announcements count (D-16),
    and once the deal is over; a carré's at once (its rank is public when announced)."""
    return (
        a.seat == seat
        or is_carre(a.cards)
        or deal.is_over
        or (counted is not None and a.side == counted)
    )


def _announcement_view(
    deal: BeloteDeal, a: Announcement, seat: int | None, counted: int | None
) -> DeclarationView:
    """An announcement as ``seat`` sees it: kind and points are public at once."""
    cards = tuple(card_list(a.cards)) if _shown(deal, a, seat, counted) else ()
    return DeclarationView(a.seat, a.kind, cards, a.points)


def _hide_announcement(
    deal: BeloteDeal, action: Action, seat: int | None, counted: int | None
) -> Action:
    """A history entry as ``seat`` sees it: an announcement whose cards it may not
    see yet is a ``declare`` with no cards."""
    if action.type != DECLARE or action.cards is None:
        return action
    a = Announcement(action.seat, mask_of(action.cards))
    return action if _shown(deal, a, seat, counted) else Action(action.seat, DECLARE, cards=())
