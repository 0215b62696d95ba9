"""Who may watch or play a table over its WebSocket (the HTTP rules, for a scope)."""

from __future__ import annotations

import hmac
from typing import Any

from games.models import Seat, Table


def viewer_seat(table_id: int, user: Any, token: str | None) -> tuple[bool, int | None]:
    """``(may view, seat index or None)`` for ``user`` at table ``table_id``.

    A public table may be watched by anyone; a private one by its seated players,
    its creator, staff, or whoever presents its invite token — the same people the
    table page shows it to.
    """
    # Only what decides (a join is frequent: a storm of spectators is hundreds).
    deciding = ("is_private", "created_by", "invite_token")
    table = Table.objects.filter(pk=table_id).only(*deciding).first()
    if table is None:
        return False, None
    authenticated = user is not None and user.is_authenticated
    seat = None
    if authenticated:
        seat = Seat.objects.filter(table=table, user=user).values_list("index", flat=True).first()
    if not table.is_private or seat is not None:
        return True, seat
    if authenticated and (user.is_staff or table.created_by_id == user.pk):
        return True, seat
    return bool(token) and hmac.compare_digest(str(token), table.invite_token), seat
