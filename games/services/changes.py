"""A service's way to say "this table changed", without knowing who listens.

Services sit below the live layer (docs/architecture.md) and must not import it.
When a service changes a table outside a move (leaving, returning, a rematch), it
announces the new version here; the live layer (``games.live.deliver.notify``,
connected when the app is ready) draws the new frames and tells every viewer.
When a seat changes hands, the service names the people whose place at the table
changed, and the live layer re-admits their sockets at that table.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.dispatch import Signal

#: Sent after commit with ``table_id`` and ``version`` (the sender is None).
table_changed = Signal()


def announce_table_changed(table_id: int, version: int) -> None:
    """Tell the listeners once the surrounding transaction has committed (a table
    changed in a transaction that rolls back never changed)."""
    transaction.on_commit(
        lambda: table_changed.send(sender=None, table_id=table_id, version=version)
    )


#: Sent after commit with ``table_id`` and ``user_ids``: the people whose place
#: at the table changed (they took a seat, moved to another, gave theirs up, or
#: it was given to someone else). Their sockets at that table are re-admitted:
#: moved to their new seat or to the spectators, or closed.
seats_changed = Signal()


def announce_seats_changed(table_id: int, user_ids: Iterable[int | None]) -> None:
    """Tell the listeners, once the surrounding transaction has committed, that
    the place of ``user_ids`` at ``table_id`` changed (``None``s, a bot's or an
    open seat's holder, are left out)."""
    people = sorted({user_id for user_id in user_ids if user_id is not None})
    if not people:
        return
    transaction.on_commit(
        lambda: seats_changed.send(sender=None, table_id=table_id, user_ids=people)
    )


#: Sent after commit with ``user_id``, ``event`` (a short name such as
#: ``"paired"``, ``"challenge"``, ``"match-ready"``) and ``data`` (a dict of
#: plain values). The live layer pushes it to every page that person has open.
user_notified = Signal()


def announce_to_user(user_id: int, event: str, data: dict[str, object] | None = None) -> None:
    """Tell one person's open pages about ``event`` once the surrounding
    transaction has committed (nothing is said of a change that rolled back)."""
    payload = dict(data or {})
    transaction.on_commit(
        lambda: user_notified.send(sender=None, user_id=user_id, event=event, data=payload)
    )


#: Sent after commit with ``event`` (``"posted"``: someone said something;
#: ``"removed"``: a moderator deleted a message; ``"muted"``: someone muted or
#: unmuted a person; ``"policy"``: free text was switched on or off) and ``data``
#: (plain values). The live layer updates every open chat
#: (games/live/deliver/chat.py).
chat_changed = Signal()


def announce_chat(event: str, data: dict[str, object]) -> None:
    """Tell the open chats about ``event`` once the transaction has committed."""
    payload = dict(data)
    transaction.on_commit(lambda: chat_changed.send(sender=None, event=event, data=payload))
