"""Who acts for the seat to act, and from when: the one place that decides
whether a person's turn is theirs, a bot's, or a stand-in's (their clock ran
out, they are away, or they left the table)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from engine.deal import PLAYING
from games.live.store import presence
from games.models import Seat
from games.services import turnclock

if TYPE_CHECKING:
    from games.live.submit.play import Live

#: The level that plays for a person whose clock ran out or who is away.
STAND_IN_LEVEL = "normal"


@dataclass(frozen=True)
class Plan:
    """Who acts for the seat to act, and from when."""

    seat: int
    level: str | None  # None: a person is to act and nobody plays for them yet
    at: datetime
    #: The move may be decided before ``at``: nothing but a move or a seat change
    #: (both bump the version, which voids the decision) can change who plays.
    #: Not so for a person away: reconnecting changes no version.
    think_ahead: bool = False
    #: A stand-in playing for a person whose clock ran out or who is away (not
    #: one who left): the move marks their seat as played by a stand-in.
    stand_in: bool = False
    #: The stand-in plays because the person is away (no connection past grace).
    away: bool = False


def plan(live: Live, now: datetime, seats: Mapping[int, Seat] | None = None) -> Plan:
    """``seats``: the table's seat rows by index, when the caller has read them."""
    table = live.table
    seat_index = live.engine.to_act
    assert seat_index is not None
    if seats is None:
        seats = {seat_index: Seat.objects.get(table=table, index=seat_index)}
    seat = seats[seat_index]
    # Before the first move of a table nobody has stamped a turn yet; a deal dealt
    # after the previous one's pause starts its own turn.
    turn_start = max(table.turn_started_at or live.deal.started_at, live.deal.started_at)
    bot_delay = timedelta(milliseconds=table.bot_delay_ms)
    bot_time = turn_start + bot_delay
    if trick_just_completed(live):
        # The finished trick stays in the middle a moment; a bot (or a stand-in)
        # leads the next one only after it has been gathered.
        bot_time += timedelta(milliseconds=table.trick_pause_ms)
    if seat.bot_level is not None:
        return Plan(seat_index, seat.bot_level, bot_time, think_ahead=True)
    if seat.left_at is not None:  # they left the table: the stand-in plays at bot time
        at = max(bot_time, seat.left_at + bot_delay)
        return Plan(seat_index, STAND_IN_LEVEL, at, think_ahead=True)
    if seat.stand_in_since is not None:  # a stand-in took over: it keeps bot time
        return Plan(seat_index, STAND_IN_LEVEL, bot_time, think_ahead=True, stand_in=True)
    deadline = turnclock.turn_deadline(table, live.deal.started_at, seat)
    away = presence.away_since(table, seat_index, since=turn_start)
    if away is not None and seat.returned_at is not None:
        away = max(away, seat.returned_at)  # not away before they came back
    if away is not None:
        grace_over = away + timedelta(seconds=table.disconnect_grace_seconds)
        if grace_over <= max(now, bot_time):
            return Plan(
                seat_index, STAND_IN_LEVEL, max(bot_time, grace_over), stand_in=True, away=True
            )
        deadline = min(deadline, grace_over)
    if now >= deadline:
        return Plan(seat_index, STAND_IN_LEVEL, deadline, stand_in=True)
    return Plan(seat_index, None, deadline)


def trick_just_completed(live: Live) -> bool:
    """A trick was just won and nobody has led the next one yet."""
    engine = live.engine
    return engine.phase == PLAYING and not engine.trick and bool(engine.tricks)


