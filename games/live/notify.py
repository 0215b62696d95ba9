"""Telling a table's viewers that it changed (sent after commit, never before)."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


def table_changed(table_id: int, version: int, events: list[dict[str, Any]] | None = None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.changed", "version": version, "events": events or []}
    async_to_sync(layer.group_send)(group_name(table_id), message)
