"""Autobahn (Daphne's WebSocket layer) pretty-prints its whole per-connection
configuration, about forty settings, for a debug line at every WebSocket
connection, whether debug lines are written or not. In a storm of spectator
joins that was 5-6 % of a Daphne's event loop (measured with py-spy): the loop that
forwards every other table's frames. The dump is made lazy: it is formatted
only if the line is written, and reads the same when it is."""

from __future__ import annotations

from pprint import pformat
from typing import Any


class LazyFormat:
    """``pformat(value)``, computed when the log line is rendered."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return pformat(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _config_dump_or_pformat(value: Any, *args: Any, **kwargs: Any) -> Any:
    # Autobahn's module uses pformat three times: the configuration dump (a list,
    # only ever a log argument) is deferred; the others (dicts, one of them
    # returned by a __str__, which must be a str) are formatted as before.
    if isinstance(value, list) and not args and not kwargs:
        return LazyFormat(value)
    return pformat(value, *args, **kwargs)


def defer_autobahn_config_dump() -> None:
    from autobahn.websocket import protocol

    protocol.pformat = _config_dump_or_pformat  # type: ignore[assignment]
