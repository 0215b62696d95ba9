"""Easy: the lowest legal card, and a one-line bidding rule (docs/rules.md §5, §7.4):
take only with the jack and one more trump; in coinche, 80 in its longest suit
holding the jack, or pass, never a coinche."""

from __future__ import annotations

from engine.actions import CHOOSE, DECLARE, PASS, PLAY, TAKE, Action
from engine.ai.auction import easy_call
from engine.cards import NO_TRUMP, POINTS, RJ, STRENGTH, SUIT_MASKS, Mask, mask_of
from engine.observe import Observation
from engine.rules import BELOTE


def decide(obs: Observation) -> Action:
    if obs.phase == "play":
        if obs.variant == BELOTE:
            # Belote with announcements: Easy announces every combination it holds
            # (docs/rules.md §7.4), one declare action at a time.
            for a in obs.legal:
                if a.type == DECLARE:
                    return a
        return lowest_play(obs)
    if obs.variant == BELOTE and obs.rules.coinche:
        return easy_call(mask_of(obs.hand), obs.legal)
    if obs.variant == BELOTE:
        return _belote_bid(obs)
    return _open_blot_bid(obs)


def lowest_play(obs: Observation) -> Action:
    """The lowest card by trick order, ties broken by fewer points. Open Blot
    declarations are left alone: there an easy bot never declares."""
    trump = NO_TRUMP if obs.trump is None else obs.trump
    plays = [a for a in obs.legal if a.type == PLAY]
    return min(plays, key=lambda a: (STRENGTH[trump][a.card], POINTS[trump][a.card], a.card))  # type: ignore[index]


def jack_and_one(cards: Mask, suit: int) -> bool:
    """The jack of ``suit`` and at least one more card of it."""
    held = cards & SUIT_MASKS[suit]
    return bool(held >> (suit * 8 + RJ) & 1) and held.bit_count() >= 2


def _first(obs: Observation, kind: str, trump: int | None = None) -> Action | None:
    for a in obs.legal:
        if a.type == kind and (trump is None or a.trump == trump):
            return a
    return None


def _belote_bid(obs: Observation) -> Action:
    assert obs.proposed is not None
    hand = mask_of(obs.hand)
    if obs.bid_round == 1:
        take = _first(obs, TAKE)
        if take and jack_and_one(hand | 1 << obs.proposed, obs.proposed >> 3):
            return take
    else:
        for a in obs.legal:
            if a.type == CHOOSE and jack_and_one(hand, a.trump):  # type: ignore[arg-type]
                return a
    return _first(obs, PASS) or obs.legal[0]


def _open_blot_bid(obs: Observation) -> Action:
    """Choose the suit whose visible cards make the strongest trumps, when it holds
    the jack and one more of it (so never passes with J+9); else pass if allowed."""
    assert obs.seat is not None
    mine = mask_of(c for c, _ in obs.stacks[obs.seat] if c is not None)

    def trump_points(s: int) -> int:
        return sum(POINTS[s][c] for c in range(s * 8, s * 8 + 8) if mine >> c & 1)

    suits = sorted(range(4), key=lambda s: (-trump_points(s), s))
    passing = _first(obs, PASS)
    for s in suits:
        if jack_and_one(mine, s) or passing is None:
            choice = _first(obs, CHOOSE, s)
            if choice is not None:
                return choice
    return passing or obs.legal[0]
