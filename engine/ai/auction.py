"""Coinche bidding for the bots: what a seat's own eight cards are worth, and
which call (bid, pass, coinche, surcoinche) follows from that and the auction so
far (docs/rules.md §7.2, §7.4).

Everything here is a pure function of the seat's hand (a card mask), the public
auction (the calls so far, :class:`Call`) and the legal actions; nothing reads a
deal. The counts are a club player's: a jack of trump is a trick and its 20
points, a guarded nine almost one, side aces a trick each, the belote its 20;
what the partner adds is a fixed expectation until the partner has bid, and then
the partner's bid itself plus the conventional raises (an ace is 10, the jack of
the partner's trump 20, the belote 20).

Trump indices are the engine's: 0..3 the suits, 4 no-trump, 5 all-trump.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.actions import BID, CAPOT_BID, COINCHE, PASS, SURCOINCHE, Action
from engine.cards import ALL_TRUMP, NO_TRUMP, R7, R8, R9, RA, RJ, RK, RQ, RT, SUIT_MASKS, Mask

NT = NO_TRUMP
AT = ALL_TRUMP
#: A capot contract's value in the auction (docs/rules.md §7.2).
CAPOT = CAPOT_BID
LOWEST = 80
HIGHEST = 160
#: What an unknown partner is expected to bring to a contract, in points (a bid
#: made on it is made about three times in four, measured by playouts).
PARTNER_SHARE = 25
#: What an average hand's raise (:func:`support`) comes to: a raise counts above it.
AVERAGE_SUPPORT = 10
#: What a trump loses for a side when an opponent has bid it.
OPPONENT_TRUMP = 25
#: What an unknown partner is expected to bring to the defence.
PARTNER_DEFENCE = 25
#: Coinche only when the defence expects this many points more than the contract
#: leaves it (a failed coinche doubles what the takers score).
COINCHE_MARGIN = 15
#: Surcoinche only with a contract this many points safer than its value.
SURCOINCHE_MARGIN = 20
#: An estimate at or above this bids capot.
CAPOT_AT = 190


@dataclass(frozen=True, slots=True)
class Call:
    """One public call of the auction: ``type`` is bid, pass, coinche or surcoinche."""

    seat: int
    type: str
    value: int | None = None
    trump: int | None = None


def calls_of(actions: Iterable[Action]) -> list[Call]:
    """The auction's calls among ``actions`` (an observation's history)."""
    out = []
    for a in actions:
        if a.type in (BID, PASS, COINCHE, SURCOINCHE):
            out.append(Call(a.seat, a.type, a.value, a.trump))
    return out


@dataclass(frozen=True, slots=True)
class AuctionState:
    highest: Call | None
    coinched: bool
    surcoinched: bool

    @staticmethod
    def of(calls: Sequence[Call]) -> AuctionState:
        highest = None
        coinched = surcoinched = False
        for c in calls:
            if c.type == BID:
                highest, coinched, surcoinched = c, False, False
            elif c.type == COINCHE:
                coinched = True
            elif c.type == SURCOINCHE:
                surcoinched = True
        return AuctionState(highest, coinched, surcoinched)


def _has(hand: Mask, suit: int, rank: int) -> bool:
    return bool(hand >> (suit * 8 + rank) & 1)


def _suit(hand: Mask, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()


# --- what a hand is worth to the side that takes ------------------------------------------


def hand_value(hand: Mask, trump: int) -> float:
    """Points this hand alone is expected to bring to a contract in ``trump`` (its
    partner's help not included): trump honours and length, side aces and guarded
    tens, ruffing chances, the belote."""
    if trump == NT:
        return _no_trump_value(hand)
    if trump == AT:
        return _all_trump_value(hand)
    n = _suit(hand, trump)
    v = 0.0
    jack = _has(hand, trump, RJ)
    nine = _has(hand, trump, R9)
    if jack:
        v += 25
    else:
        v -= 10  # the opponents' jack will take one of ours
    if nine:
        v += 18 if jack or n >= 3 else 8
    if _has(hand, trump, RA):
        v += 12 if jack or nine or n >= 3 else 6
    if _has(hand, trump, RT):
        v += 8
    for r in (R7, R8, RK, RQ):
        if _has(hand, trump, r):
            v += 4
    if n >= 4:
        v += 8 * (n - 3)
    if _has(hand, trump, RK) and _has(hand, trump, RQ):
        v += 20  # the belote: its 20 count toward the contract
    for s in range(4):
        if s == trump:
            continue
        m = _suit(hand, s)
        if _has(hand, s, RA):
            v += 16
            if _has(hand, s, RT):
                v += 9
        elif _has(hand, s, RT) and m >= 2:
            v += 3
        if n >= 3:
            if m == 0:
                v += 8
            elif m == 1 and not _has(hand, s, RA):
                v += 4
    return v


def _no_trump_value(hand: Mask) -> float:
    v = 0.0
    for s in range(4):
        m = _suit(hand, s)
        if _has(hand, s, RA):
            v += 24
            if _has(hand, s, RT):
                v += 14
                if _has(hand, s, RK):
                    v += 6
                v += 6 * max(0, m - 3)  # a long suit from the top runs
        elif _has(hand, s, RT) and m >= 3:
            v += 4
    return v


def _all_trump_value(hand: Mask) -> float:
    v = 0.0
    for s in range(4):
        m = _suit(hand, s)
        if _has(hand, s, RJ):
            v += 22
            if _has(hand, s, R9):
                v += 15
                if _has(hand, s, RA):
                    v += 5
                v += 5 * max(0, m - 3)
        elif _has(hand, s, R9) and m >= 3:
            v += 5
        if _has(hand, s, RK) and _has(hand, s, RQ):
            v += 20  # a belote in each suit (docs/rules.md §7.3)
    return v


def support(hand: Mask, trump: int) -> float:
    """What this hand adds to its partner's bid in ``trump`` (the club raises)."""
    v = 0.0
    if trump == NT:
        for s in range(4):
            if _has(hand, s, RA):
                v += 15
                if _has(hand, s, RT):
                    v += 5
        return v
    if trump == AT:
        for s in range(4):
            if _has(hand, s, RJ):
                v += 15
                if _has(hand, s, R9):
                    v += 5
            if _has(hand, s, RK) and _has(hand, s, RQ):
                v += 20
        return v
    if _has(hand, trump, RJ):
        v += 20
    if _has(hand, trump, R9):
        v += 10
    if _suit(hand, trump) >= 3:
        v += 10
    if _has(hand, trump, RK) and _has(hand, trump, RQ):
        v += 20
    for s in range(4):
        if s != trump and _has(hand, s, RA):
            v += 10
    return v


def defence_value(hand: Mask, trump: int) -> float:
    """Points this hand is expected to take defending a contract in ``trump``."""
    v = 0.0
    if trump == NT:
        for s in range(4):
            if _has(hand, s, RA):
                v += 25
                if _has(hand, s, RT):
                    v += 12
        return v
    if trump == AT:
        for s in range(4):
            if _has(hand, s, RJ):
                v += 22
                if _has(hand, s, R9):
                    v += 12
            if _has(hand, s, RK) and _has(hand, s, RQ):
                v += 20
        return v
    n = _suit(hand, trump)
    if _has(hand, trump, RJ):
        v += 25
    if _has(hand, trump, R9) and (n >= 2):
        v += 16
    if _has(hand, trump, RA) and n >= 3:
        v += 8
    v += 5 * max(0, n - 2)
    if _has(hand, trump, RK) and _has(hand, trump, RQ):
        v += 20
    for s in range(4):
        if s == trump:
            continue
        if _has(hand, s, RA):
            v += 16 if _suit(hand, s) <= 3 else 8  # a long suit's ace is soon ruffed
            if _has(hand, s, RT):
                v += 6
    return v


# --- the calls --------------------------------------------------------------------------


def partner_bids(calls: Sequence[Call], seat: int) -> dict[int, int]:
    """The partner's highest bid value in each trump it has bid."""
    partner = (seat + 2) % 4
    out: dict[int, int] = {}
    for c in calls:
        if c.seat == partner and c.type == BID and c.trump is not None and c.value is not None:
            out[c.trump] = max(out.get(c.trump, 0), c.value)
    return out


def estimate(hand: Mask, trump: int, calls: Sequence[Call], seat: int) -> float:
    """The contract this seat's side can expect to make in ``trump``.

    Alone: the hand's value plus an average partner's share. Once the partner has
    bid ``trump``: his bid plus this hand's raise, unless this seat bid ``trump``
    before him (his bid then already counts this hand: raising again would count
    it twice). A trump an opponent has bid is worth less: he holds its honours.
    """
    alone = hand_value(hand, trump) + PARTNER_SHARE
    for c in calls:
        if c.type == BID and c.trump == trump and (c.seat - seat) % 2:
            alone -= OPPONENT_TRUMP
    partner = (seat + 2) % 4
    mine_first = False
    raised: float | None = None
    for c in calls:
        if c.type != BID or c.trump != trump or c.value is None:
            continue
        if c.seat == seat and raised is None:
            mine_first = True
        elif c.seat == partner:
            raise_by = 0.0 if mine_first else support(hand, trump) - AVERAGE_SUPPORT
            raised = c.value + raise_by
    return alone if raised is None else max(alone, raised)


def bid_value(estimate: float) -> int | None:
    """The contract to bid for an estimate: tens rounded down, capot at the top."""
    if estimate >= CAPOT_AT:
        return CAPOT
    if estimate < LOWEST:
        return None
    return min(HIGHEST, int(estimate // 10) * 10)


def _find(legal: Sequence[Action], kind: str, value: int | None = None,
          trump: int | None = None) -> Action | None:
    for a in legal:
        if a.type != kind:
            continue
        if value is not None and a.value != value:
            continue
        if trump is not None and a.trump != trump:
            continue
        return a
    return None


def bid_trumps(legal: Sequence[Action]) -> list[int]:
    """The trumps the legal bids offer (the rule set's: suits, and NT/AT if on)."""
    return sorted({a.trump for a in legal if a.type == BID and a.trump is not None})


def normal_call(hand: Mask, seat: int, calls: Sequence[Call], legal: Sequence[Action]) -> Action:
    """The normal bot's call: bid what the hand (and the partner's bids) is worth when
    that beats the current bid, else coinche a contract the defence expects to
    break, surcoinche a coinched contract it is sure of, else pass."""
    state = AuctionState.of(calls)
    choice = best_bid(hand, seat, calls, legal, state)
    if choice is not None:
        return choice
    coinche = _find(legal, COINCHE)
    if coinche is not None and state.highest is not None and should_coinche(hand, seat, calls):
        return coinche
    surcoinche = _find(legal, SURCOINCHE)
    if surcoinche is not None and should_surcoinche(hand, seat, calls):
        return surcoinche
    return _find(legal, PASS) or legal[0]


def best_bid(hand: Mask, seat: int, calls: Sequence[Call], legal: Sequence[Action],
             state: AuctionState | None = None) -> Action | None:
    """The bid this hand is worth when it is legal and worth making, else None."""
    state = state or AuctionState.of(calls)
    trumps = bid_trumps(legal)
    if not trumps:
        return None
    highest = state.highest
    partner = (seat + 2) % 4
    options: list[tuple[int, float, int]] = []
    for t in trumps:
        est = estimate(hand, t, calls, seat)
        value = bid_value(est)
        if value is None:
            continue
        if highest is not None and highest.seat == partner and highest.trump != t:
            # Taking the partner out of his trump needs a clearly better contract.
            value = bid_value(est - 20)
            if value is None:
                continue
        options.append((value, est, t))
    options.sort(key=lambda o: (o[0], o[1], -o[2]), reverse=True)
    for value, _, t in options:
        if highest is not None and highest.value is not None and value <= highest.value:
            break
        action = _find(legal, BID, value, t)
        if action is not None:
            return action
    return None


def should_coinche(hand: Mask, seat: int, calls: Sequence[Call]) -> bool:
    """Coinche the opponents' contract when the defence expects to take more than it
    leaves them, with a margin."""
    highest = AuctionState.of(calls).highest
    if highest is None or highest.value is None or highest.trump is None:
        return False
    if highest.value >= CAPOT:
        return defence_value(hand, highest.trump) >= 25  # one sure trick breaks a capot
    partner_bid = bool(partner_bids(calls, seat))
    ours = defence_value(hand, highest.trump) + PARTNER_DEFENCE + (10 if partner_bid else 0)
    return ours > 162 - highest.value + COINCHE_MARGIN


def should_surcoinche(hand: Mask, seat: int, calls: Sequence[Call]) -> bool:
    """Surcoinche our side's coinched contract when it is well within our estimate."""
    highest = AuctionState.of(calls).highest
    if highest is None or highest.value is None or highest.trump is None:
        return False
    if highest.seat % 2 != seat % 2 or highest.value >= CAPOT:
        return False
    if highest.seat == seat:
        est = estimate(hand, highest.trump, calls, seat)
    else:
        est = highest.value + support(hand, highest.trump)
    return est >= highest.value + SURCOINCHE_MARGIN


def easy_call(hand: Mask, legal: Sequence[Action]) -> Action:
    """Easy (docs/rules.md §7.4): 80 in its longest suit holding the jack, or pass."""
    suits = [s for s in range(4) if _has(hand, s, RJ)]
    if suits:
        best = max(suits, key=lambda s: (_suit(hand, s), _has(hand, s, R9), -s))
        action = _find(legal, BID, LOWEST, best)
        if action is not None:
            return action
    return _find(legal, PASS) or legal[0]


#: What each rank adds when the bot guesses a bidder's holding (for samples).
TRUMP_RANK_WEIGHT = {RJ: 3.0, R9: 2.2, RA: 1.5, RT: 1.3, RK: 1.15, RQ: 1.15, R8: 1.1, R7: 1.1}
