"""When a turn started and when its clock runs out: one answer for the
conductor, which hands a timed-out turn to a stand-in, and for the page, which
shows the countdown."""

from __future__ import annotations

from datetime import datetime, timedelta

from games.models import Seat, Table


def turn_start(table: Table, deal_started_at: datetime) -> datetime:
    """Before the first move of a table nobody has stamped a turn yet; a deal
    dealt after the previous one's pause starts its own turn."""
    return max(table.turn_started_at or deal_started_at, deal_started_at)


def turn_deadline(table: Table, deal_started_at: datetime, seat: Seat) -> datetime:
    """A person who took their seat back from a stand-in during this turn gets
    a whole turn from then, not what the stand-in's turn had left (they would
    time out again at once)."""
    start = turn_start(table, deal_started_at)
    if seat.returned_at is not None:
        start = max(start, seat.returned_at)
    return start + timedelta(seconds=table.turn_seconds)
