"""Normal: a club player's rules of thumb (docs/rules.md §5).

Card play goes through :func:`engine.ai.policy.choose_card` with what the seat
knows (:mod:`engine.ai.view`); bidding counts the hand (Belote) or compares the
visible cards under each trump (Open Blot); the coinche auction is
:mod:`engine.ai.auction`'s. Every available combination is declared, since an
unannounced one never scores and only the side holding the best one counts.
"""

from __future__ import annotations

from engine.actions import CHOOSE, DECLARE, PASS, PLAY, PLAY_ACTIONS, TAKE, Action
from engine.ai.auction import calls_of, normal_call
from engine.ai.policy import PlayCtx, belote_biddable, belote_hand_value, choose_card
from engine.ai.view import Table, read
from engine.cards import NO_TRUMP, POINTS, R9, RA, RJ, Mask, cards_in, mask_of
from engine.declarations import Declaration, available
from engine.observe import Observation
from engine.rules import BELOTE

#: Belote hand counts (see :func:`belote_hand_value`) needed to take / choose.
TAKE_AT = 36.0
CHOOSE_AT = 38.0
#: Open Blot: the margin of our visible cards over the opponent's needed to choose,
#: in round 1 (four cards each on view) and round 2 (eight).
OPEN_BLOT_CHOOSE_AT = (14.0, 18.0)


def decide(obs: Observation) -> Action:
    if obs.phase == "play":
        for a in obs.legal:
            if a.type == DECLARE:
                return a
        return PLAY_ACTIONS[obs.seat][choose_card(play_ctx(read(obs), obs))]  # type: ignore[index]
    if obs.variant == BELOTE and obs.rules.coinche:
        return coinche_call(obs)
    if obs.variant == BELOTE:
        return belote_bid(obs)
    return open_blot_bid(obs)


def coinche_call(obs: Observation) -> Action:
    """The coinche auction's call from the seat's hand and the public calls."""
    assert obs.seat is not None
    return normal_call(mask_of(obs.hand), obs.seat, calls_of(obs.history), obs.legal)


def play_ctx(table: Table, obs: Observation) -> PlayCtx:
    legal = 0
    for a in obs.legal:
        if a.type == PLAY:
            legal |= 1 << a.card  # type: ignore[operator]
    return PlayCtx(
        seat=table.seat,
        seats=table.seats,
        trump=table.trump,
        taker=table.taker,
        legal=legal,
        hand=table.mine,
        trick=table.trick,
        leader=table.leader,
        best=table.best,
        best_seat=table.best_seat,
        possible=table.possible(),
        exact=not table.belote,
        voids=table.voids,
        keep=growable_runs(obs, table),
    )


def growable_runs(obs: Observation, table: Table) -> Mask:
    """Open Blot: our declared runs still whole on the table while a face-down card
    of ours may yet extend them."""
    if table.belote or not table.face_down or not table.face_down[table.seat]:
        return 0
    keep = 0
    for d in obs.declarations:
        cards = mask_of(d.cards)
        if d.seat == table.seat and d.kind != "four" and cards & ~table.mine == 0:
            keep |= cards
    return keep


# --- Belote bidding ----------------------------------------------------------------------


def belote_bid(obs: Observation) -> Action:
    assert obs.proposed is not None
    hand = mask_of(obs.hand) | 1 << obs.proposed
    choice = belote_choice(hand, obs.proposed >> 3, obs.bid_round)
    for a in obs.legal:
        if choice is None and a.type == PASS:
            return a
        if choice is not None and a.type == TAKE and obs.bid_round == 1:
            return a
        if choice is not None and a.type == CHOOSE and a.trump == choice:
            return a
    return obs.legal[0]


def belote_choice(hand: Mask, proposed_suit: int, bid_round: int) -> int | None:
    """The trump to bid with this six-card hand (five dealt + proposed), or None."""
    if bid_round == 1:
        ok = belote_biddable(hand, proposed_suit)
        return proposed_suit if ok and belote_hand_value(hand, proposed_suit) >= TAKE_AT else None
    best, best_value = None, CHOOSE_AT
    for t in range(4):
        if t == proposed_suit or not belote_biddable(hand, t):
            continue
        v = belote_hand_value(hand, t)
        if v >= best_value:
            best, best_value = t, v
    return best


# --- Open Blot trump choice --------------------------------------------------------------


def card_value(c: int, t: int) -> float:
    """Points plus control: trumps (above all the jack and nine) and, in no-trump,
    aces take tricks as well as carrying points."""
    v = float(POINTS[t][c])
    if t == NO_TRUMP:
        return v + (6 if c & 7 == RA else 0)
    if c >> 3 == t:
        v += 8 + (6 if c & 7 == RJ else 4 if c & 7 == R9 else 0)
    return v


def greedy_declarations(seat: int, face_up: Mask, t: int) -> list[Declaration]:
    """What a player declaring everything available would declare (D-7 order)."""
    out: list[Declaration] = []
    declared = 0
    while True:
        options = available(face_up, declared, t)
        if not options:
            return out
        out.append(Declaration(seat, options[0], len(out)))
        declared |= options[0]


def declaration_edge(mine: Mask, theirs: Mask, t: int) -> float:
    """Our declared points minus theirs, counting only the side with the best one."""
    ours = greedy_declarations(0, mine, t)
    other = greedy_declarations(1, theirs, t)
    if not ours and not other:
        return 0.0
    best = max(ours + other, key=lambda d: d.strength(t))
    if best.seat == 0:
        return float(sum(d.points(t) for d in ours))
    return -float(sum(d.points(t) for d in other))


def open_blot_margins(mine: Mask, theirs: Mask) -> list[float]:
    """Our edge under each trump 0..4 (4 = no trump) from the visible cards."""
    return [
        sum(card_value(c, t) for c in cards_in(mine))
        - sum(card_value(c, t) for c in cards_in(theirs))
        + declaration_edge(mine, theirs, t)
        for t in range(NO_TRUMP + 1)
    ]


def open_blot_bid(obs: Observation) -> Action:
    assert obs.seat is not None
    ups = [mask_of(c for c, _ in row if c is not None) for row in obs.stacks]
    passing = next((a for a in obs.legal if a.type == PASS), None)
    choice = open_blot_choice(ups[obs.seat], ups[1 - obs.seat], obs.bid_round, passing is not None)
    if choice is None and passing is not None:
        return passing
    return next(a for a in obs.legal if a.type == CHOOSE and a.trump == choice)


def open_blot_choice(mine: Mask, theirs: Mask, bid_round: int, may_pass: bool) -> int | None:
    """The trump (0..4) to choose with these face-up cards, or None to pass."""
    margins = open_blot_margins(mine, theirs)
    best = max(range(NO_TRUMP + 1), key=lambda t: (margins[t], -t))
    if may_pass and margins[best] < OPEN_BLOT_CHOOSE_AT[0 if bid_round == 1 else 1]:
        return None
    return best
