"""A service's way to say "this table changed", without knowing who listens.

Services sit below the live layer (docs/architecture.md) and must not import it.
When a service changes a table outside a move (leaving, returning, a rematch), it
announces the new version here; the live layer (``games.live.deliver.notify``,
connected when the app is ready) draws the new frames and tells every viewer.
"""

from __future__ import annotations

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
