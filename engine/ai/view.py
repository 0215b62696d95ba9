"""What a seat knows, read off its observation once and kept as card masks.

Everything here is derived from the :class:`~engine.observe.Observation` alone:
cards played by each seat, the trick in progress, and the inferences a careful
player draws from the duties of docs/rules.md §2 and §7.3 (did not follow ⇒ void in the suit
led; discarded while obliged to trump ⇒ no trumps; did not overtrump when obliged
⇒ no trump above the best one).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import (
    ALL_CARDS,
    ALL_TRUMP,
    BEATS,
    NO_TRUMP,
    SUIT_MASKS,
    Card,
    Mask,
    card,
    mask_of,
)
from engine.observe import Observation
from engine.rules import BELOTE
from engine.tricks import beats


@dataclass
class Table:
    seat: int
    seats: int
    trump: int
    taker: int
    #: Every card played so far, completed tricks and the trick in progress.
    played: Mask
    played_by: list[Mask]
    #: Suits each seat is known not to hold (4-bit sets) and cards it cannot hold.
    voids: list[int]
    forbidden: list[Mask]
    trick: list[Card]
    leader: int
    best: Card
    best_seat: int
    #: The cards this seat may play from (Belote hand, Open Blot face-up tops).
    mine: Mask
    #: Open Blot: each seat's face-up unplayed cards and its face-down count.
    face_up: list[Mask] = field(default_factory=list)
    face_down: list[int] = field(default_factory=list)
    tricks_done: int = 0

    @property
    def belote(self) -> bool:
        return self.seats == 4

    def possible(self) -> list[Mask]:
        """For each seat, the cards it may hold now (exact for this seat, and for
        Open Blot's playable cards; a superset for hidden Belote hands)."""
        if not self.belote:
            return list(self.face_up)
        unseen = ALL_CARDS & ~self.played & ~self.mine
        out = []
        for s in range(4):
            if s == self.seat:
                out.append(self.mine)
                continue
            m = unseen & ~self.forbidden[s]
            for suit in range(4):
                if self.voids[s] >> suit & 1:
                    m &= ~SUIT_MASKS[suit]
            out.append(m)
        return out


def read(obs: Observation) -> Table:
    """Build the :class:`Table` of ``obs`` (play phase or bidding; trump may be None)."""
    assert obs.seat is not None
    seats = obs.seats
    trump = NO_TRUMP if obs.trump is None else obs.trump
    played_by = [0] * seats
    voids = [0] * seats
    forbidden = [0] * seats
    tricks = [(t.leader, [card(c) for c in t.cards]) for t in obs.tricks]
    if obs.trick:
        tricks.append((obs.trick[0][0], [c for _, c in obs.trick]))
    best = best_seat = -1
    for leader, cards in tricks:
        best, best_seat = cards[0], leader
        played_by[leader] |= 1 << cards[0]
        for i, c in enumerate(cards[1:], start=1):
            s = (leader + i) % seats
            played_by[s] |= 1 << c
            if obs.variant == BELOTE:
                _infer(trump, s, c, cards[0], best, best_seat, voids, forbidden)
            if beats(c, best, trump):
                best, best_seat = c, s
    trick = [c for _, c in obs.trick]
    if not trick:
        best = best_seat = -1
    played = 0
    for m in played_by:
        played |= m
    face_up: list[Mask] = []
    face_down: list[int] = []
    if obs.variant == BELOTE:
        mine = mask_of(obs.hand)
    else:
        for row in obs.stacks:
            face_up.append(mask_of(c for c, _ in row if c is not None))
            # A stack with a face-down card shows it either as the card's top
            # (a face-up card lies on it) or as an empty top.
            face_down.append(sum(1 for _, down in row if down))
        mine = face_up[obs.seat]
    return Table(
        seat=obs.seat,
        seats=seats,
        trump=trump,
        taker=-1 if obs.taker is None else obs.taker,
        played=played,
        played_by=played_by,
        voids=voids,
        forbidden=forbidden,
        trick=trick,
        leader=obs.trick[0][0] if obs.trick else obs.leader,
        best=best,
        best_seat=best_seat,
        mine=mine,
        face_up=face_up,
        face_down=face_down,
        tricks_done=len(obs.tricks),
    )


def _infer(
    trump: int,
    seat: int,
    c: Card,
    led: Card,
    best: Card,
    best_seat: int,
    voids: list[int],
    forbidden: list[Mask],
) -> None:
    """Belote duties read backwards (docs/rules.md §2 "Play", checked in order; in
    no-trump only the duty to follow, in all-trump also to beat the led suit's best
    card, §7.3)."""
    led_suit = led >> 3
    if trump >= NO_TRUMP:
        if c >> 3 != led_suit:
            voids[seat] |= 1 << led_suit
        elif trump == ALL_TRUMP and not beats(c, best, trump):
            forbidden[seat] |= BEATS[ALL_TRUMP][best]  # had to beat it and did not
        return
    partner_winning = best_seat == (seat + 2) % 4
    best_is_trump = best >> 3 == trump
    if c >> 3 != led_suit:
        voids[seat] |= 1 << led_suit
        if partner_winning:
            return
        if c >> 3 != trump:
            voids[seat] |= 1 << trump  # had to trump and did not: no trumps
        elif best_is_trump and not beats(c, best, trump):
            forbidden[seat] |= BEATS[trump][best]  # had to overtrump and did not
        return
    if led_suit == trump and best_is_trump and not beats(c, best, trump):
        forbidden[seat] |= BEATS[trump][best]
