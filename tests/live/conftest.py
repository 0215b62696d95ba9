"""Fixtures for live-table tests: the site's users and tables, plus live helpers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine.actions import Action
from games.live.submit.play import current, submit
from games.models import Seat, Table
from tests.site.conftest import (  # noqa: F401 - fixtures shared with the site tests
    _fast_password_hashing,
    alice,
    bob,
    carol,
    make_table,
    make_user,
)

FAR_FUTURE = timedelta(hours=1)


@pytest.fixture(autouse=True)
def _quick_tables(settings) -> None:
    settings.BLOT_NEXT_DEAL_PAUSE_MS = 0
    settings.BLOT_BOT_BUDGET_S = 0.05
    settings.BLOT_CONDUCTOR = "off"  # tests drive the conductor themselves


@pytest.fixture
def duel(make_table, alice, bob) -> Table:  # noqa: F811 - fixtures, not redefinitions
    """An Open Blot table between two people, match started."""
    from games.services.tables import join_seat

    table = make_table(alice, "open_blot")
    join_seat(table.pk, bob, 1)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table


def later(seconds: float = 3600):
    return timezone.now() + timedelta(seconds=seconds)


def all_bots(table: Table, level: str = "easy") -> Table:
    """Hand every human seat to a bot (tables always start with their creator)."""
    Seat.objects.filter(table=table, user__isnull=False).update(user=None, bot_level=level)
    return table


def live_of(table: Table):
    table.refresh_from_db()
    return current(table)


def holder_of(table_id: int, seat: int) -> int | None:
    """The user holding ``seat`` at the table now (None: a bot's or an open seat)."""
    seats = Seat.objects.filter(table_id=table_id, index=seat)
    return seats.values_list("user_id", flat=True).get()


def play_as_holder(table_id: int, action: Action, version: int, **kw) -> int:
    """A move through the one move path, made by whoever holds the action's seat
    (a person's move names its person)."""
    return submit(table_id, action, version, user_id=holder_of(table_id, action.seat), **kw)
