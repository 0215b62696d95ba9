"""Build literal deals for the rule tests: a deck order from the hands you want.

The deck builders follow engine/layout.py, the same dealing tables the engine
deals through; test_belote_rules.py and test_open_blot_rules.py check those
tables literally against docs/rules.md §2 and §3, so a wrong table cannot hide here.

Positions you do not specify are filled with the remaining cards in canonical
order (7C 8C ... AS), so a test that cares about every card specifies them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine import RuleSet, new_deal
from engine.actions import (
    CHOOSE_ACTIONS,
    PASS_ACTIONS,
    PLAY,
    PLAY_ACTIONS,
    TAKE_ACTIONS,
    Action,
    bid,
    declare,
)
from engine.belote import BeloteDeal
from engine.cards import CODES, card, parse_trump
from engine.deal import Deal
from engine.events import Event
from engine.layout import (
    BELOTE_PROPOSED_INDEX,
    belote_completion,
    belote_first_deal,
    coinche_deal,
    open_blot_layout,
)
from engine.open_blot import OpenBlotDeal


def cards(text: str | Iterable[str]) -> list[int]:
    """``"JH 9H"`` (or a list of codes) as card numbers, in the given order."""
    items = text.split() if isinstance(text, str) else list(text)
    return [card(c) for c in items]


def codes(cs: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cs]


def _fill(slots: list[int | None]) -> list[int]:
    used = [c for c in slots if c is not None]
    if len(set(used)) != len(used):
        dupes = sorted({CODES[c] for c in used if used.count(c) > 1})
        raise AssertionError(f"card given twice: {dupes}")
    taken = set(used)
    rest = iter(c for c in range(32) if c not in taken)
    return [c if c is not None else next(rest) for c in slots]


def _put(slots: list[int | None], positions: Sequence[int], text: str, what: str) -> None:
    given = cards(text)
    if len(given) > len(positions):
        raise AssertionError(f"{what}: {len(given)} cards for {len(positions)} places")
    for index, c in zip(positions, given, strict=False):
        slots[index] = c


# --- Belote ----------------------------------------------------------------------------


def belote_deck(
    dealer: int,
    hands: Mapping[int, str] | None = None,
    proposed: str | None = None,
    completion: Mapping[int, str] | None = None,
    taker: int | None = None,
) -> list[int]:
    """A Belote deck: ``hands`` are each seat's first five cards (3 + 2), ``proposed``
    the card at index 20, ``completion`` each seat's cards from index 21 on (2 for
    the ``taker``, 3 for the others; ``taker`` is needed to place them)."""
    slots: list[int | None] = [None] * 32
    first = belote_first_deal(dealer)
    for seat, text in (hands or {}).items():
        _put(slots, [i for i, s in enumerate(first) if s == seat], text, f"seat {seat} hand")
    if proposed is not None:
        slots[BELOTE_PROPOSED_INDEX] = card(proposed)
    if completion:
        if taker is None:
            raise AssertionError("completion cards need the taker")
        rest = belote_completion(dealer, taker)
        for seat, text in completion.items():
            positions = [BELOTE_PROPOSED_INDEX + 1 + i for i, s in enumerate(rest) if s == seat]
            _put(slots, positions, text, f"seat {seat} completion")
    return _fill(slots)


def belote_hands_deck(
    dealer: int, taker: int, hands: Mapping[int, str], proposed: str
) -> list[int]:
    """A Belote deck after which every seat holds the 8 cards of ``hands`` once
    ``taker`` has taken (the taker's hand includes ``proposed``)."""
    first: dict[int, str] = {}
    completion: dict[int, str] = {}
    for seat, text in hands.items():
        hand = text.split()
        if seat == taker:
            if proposed not in hand:
                raise AssertionError(f"the taker's hand must hold the proposed card {proposed}")
            hand.remove(proposed)
        first[seat] = " ".join(hand[:5])
        completion[seat] = " ".join(hand[5:])
    return belote_deck(dealer, first, proposed, completion, taker)


def belote_bid(deal: Deal, taker: int, trump: str | None = None) -> None:
    """Bid until ``taker`` takes the proposed suit (``trump`` None or that suit) in
    round 1, or chooses ``trump`` in round 2, everyone before him passing."""
    assert isinstance(deal, BeloteDeal)
    proposed_suit = CODES[deal.proposed][1]
    if trump is not None and trump != proposed_suit:
        for _ in range(4):
            deal.apply(PASS_ACTIONS[deal.to_act])  # type: ignore[index]
    while deal.to_act != taker:
        deal.apply(PASS_ACTIONS[deal.to_act])  # type: ignore[index]
    if deal.bid_round == 1:
        deal.apply(TAKE_ACTIONS[taker])
    else:
        deal.apply(CHOOSE_ACTIONS[taker][parse_trump(trump)])  # type: ignore[arg-type]


def belote_in_play(
    hands: Mapping[int, str],
    proposed: str,
    taker: int,
    trump: str | None = None,
    dealer: int = 0,
    rules: Mapping[str, object] | None = None,
) -> BeloteDeal:
    """A Belote deal at its first card: ``hands`` are the final 8-card hands."""
    deck = belote_hands_deck(dealer, taker, hands, proposed)
    deal = new_deal(RuleSet.build("belote", rules), dealer, deck)
    belote_bid(deal, taker, trump)
    assert isinstance(deal, BeloteDeal)
    for seat, text in hands.items():
        assert sorted(codes_of_hand(deal, seat)) == sorted(text.split()), seat
    return deal


COINCHE = {"coinche": True, "announcements": True, "all_trump": True, "no_trump": True}


def coinche_new(
    hands: Mapping[int, str], dealer: int = 0, rules: Mapping[str, object] | None = None
) -> BeloteDeal:
    """A coinche deal (``rules`` default: every switch on) whose seats are dealt
    the 8 cards of ``hands``, placed through the 3-2-3 dealing table."""
    slots: list[int | None] = [None] * 32
    table = coinche_deal(dealer)
    for seat, text in hands.items():
        _put(slots, [i for i, s in enumerate(table) if s == seat], text, f"seat {seat} hand")
    deal = new_deal(RuleSet.build("belote", COINCHE if rules is None else rules), dealer,
                    _fill(slots))
    assert isinstance(deal, BeloteDeal)
    for seat, text in hands.items():
        assert sorted(codes_of_hand(deal, seat)) == sorted(text.split()), seat
    return deal


def call(deal: Deal, *calls: str) -> list[Event]:
    """Auction calls by the seats in turn: ``"pass"``, ``"coinche"``, ``"surcoinche"``
    or a bid such as ``"80 H"`` / ``"250 AT"``."""
    events: list[Event] = []
    for text in calls:
        seat = deal.to_act
        assert seat is not None
        if text in ("pass", "coinche", "surcoinche"):
            events.extend(deal.apply(Action(seat, text)))
        else:
            value, trump = text.split()
            events.extend(deal.apply(bid(seat, int(value), parse_trump(trump))))
    return events


def codes_of_hand(deal: BeloteDeal, seat: int) -> list[str]:
    return [CODES[c] for c in range(32) if deal.hands[seat] >> c & 1]


# --- Open Blot -----------------------------------------------------------------------

Stack = tuple[str | None, str | None] | None


def open_blot_deck(dealer: int, stacks: Mapping[int, Sequence[Stack]] | None = None) -> list[int]:
    """An Open Blot deck: ``stacks[seat][k] = (face_down, face_up)`` card codes for
    stack ``k`` (either may be None, or the whole stack None: filled in)."""
    slots: list[int | None] = [None] * 32
    where = {spot: i for i, spot in enumerate(open_blot_layout(dealer))}
    for seat, row in (stacks or {}).items():
        if len(row) > 8:
            raise AssertionError(f"seat {seat}: more than 8 stacks")
        for k, pair in enumerate(row):
            if pair is None:
                continue
            down, up = pair
            if down is not None:
                slots[where[(seat, k, False)]] = card(down)
            if up is not None:
                slots[where[(seat, k, True)]] = card(up)
    return _fill(slots)


def open_blot_new(
    stacks: Mapping[int, Sequence[Stack]] | None = None,
    dealer: int = 0,
    rules: Mapping[str, object] | None = None,
) -> OpenBlotDeal:
    deal = new_deal(RuleSet.build("open_blot", rules), dealer, open_blot_deck(dealer, stacks))
    assert isinstance(deal, OpenBlotDeal)
    return deal


def open_blot_in_play(
    stacks: Mapping[int, Sequence[Stack]],
    trump: str,
    chooser: int | None = None,
    dealer: int = 0,
    rules: Mapping[str, object] | None = None,
) -> OpenBlotDeal:
    """An Open Blot deal at its first card: ``chooser`` (default: the non-dealer)
    chooses ``trump`` in round 1, the non-dealer passing first when it is the dealer."""
    deal = open_blot_new(stacks, dealer, rules)
    non_dealer = (dealer + 1) % 2
    chooser = non_dealer if chooser is None else chooser
    if chooser == dealer:
        deal.apply(PASS_ACTIONS[non_dealer])
    deal.apply(CHOOSE_ACTIONS[chooser][parse_trump(trump)])
    return deal


def declare_codes(deal: Deal, text: str) -> list[Event]:
    return deal.apply(declare(deal.to_act, cards(text)))  # type: ignore[arg-type]


def declarable(deal: Deal) -> list[list[str]]:
    """The combinations the seat to act may declare now, as lists of codes."""
    return sorted(
        codes(a.cards or ()) for a in deal.legal_actions() if a.type == "declare"
    )


# --- play ------------------------------------------------------------------------------


def play(deal: Deal, text: str) -> list[Event]:
    """Play these cards in order, each by the seat to act; returns every event."""
    events: list[Event] = []
    for c in cards(text):
        events.extend(deal.apply(PLAY_ACTIONS[deal.to_act][c]))  # type: ignore[index]
    return events


def legal_cards(deal: Deal) -> set[str]:
    """The codes of the cards the seat to act may play now."""
    return {CODES[a.card] for a in deal.legal_actions() if a.type == PLAY}  # type: ignore[index]


def play_out(deal: Deal) -> list[Event]:
    """Finish the deal, every seat playing its lowest-numbered legal card (no
    declarations): a fixed, simple line of play for deals whose score the test
    has arranged to be independent of the play."""
    events: list[Event] = []
    while not deal.is_over:
        plays = [a for a in deal.legal_actions() if a.type == PLAY]
        events.extend(deal.apply(plays[0]))
    return events
