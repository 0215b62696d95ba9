"""Who is connected to a table: seats' players and spectators.

One row per WebSocket connection. A connection refreshes ``last_seen`` while it
lives and stamps ``closed_at`` when it ends; a row not seen for ``STALE`` counts as
closed, so a crashed process's connections fade out on their own.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from games.models import Presence, Table

HEARTBEAT_S = 20
STALE = timedelta(seconds=HEARTBEAT_S * 3)


def _open(now: datetime) -> Q:
    return Q(closed_at__isnull=True, last_seen__gte=now - STALE)


def opened(table_id: int, channel_name: str, user_id: int | None, seat: int | None) -> None:
    now = timezone.now()
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={
            "table_id": table_id,
            "user_id": user_id,
            "seat_index": seat,
            "connected_at": now,
            "last_seen": now,
            "closed_at": None,
        },
    )
    _count_spectators(table_id)


def seen(channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name, closed_at__isnull=True).update(
        last_seen=timezone.now()
    )


def closed(table_id: int, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(closed_at=timezone.now())
    _count_spectators(table_id)
    # Someone left: the table may now need a stand-in sooner than it thought.
    Table.objects.filter(pk=table_id).update(wakeup_at=timezone.now())


def _count_spectators(table_id: int) -> None:
    now = timezone.now()
    count = Presence.objects.filter(_open(now), table_id=table_id, seat_index__isnull=True).count()
    Table.objects.filter(pk=table_id).update(spectator_count=count)


def away_since(table: Table, seat: int, since: datetime) -> datetime | None:
    """When the seat's player was last connected, or ``None`` if connected now.
    A player never connected to this table counts as away from ``since``."""
    now = timezone.now()
    rows = Presence.objects.filter(table=table, seat_index=seat)
    if rows.filter(_open(now)).exists():
        return None
    latest = rows.order_by("-last_seen").values_list("closed_at", "last_seen").first()
    if latest is None:
        return since
    closed_at, last_seen = latest
    return closed_at or last_seen


def forget_old(before: timedelta = timedelta(days=1)) -> int:
    """Drop connection rows closed long ago."""
    deleted, _ = Presence.objects.filter(closed_at__lt=timezone.now() - before).delete()
    return deleted
