"""What applying an action did, so callers never have to diff two states."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """``kind`` is one of: ``passed``, ``took``, ``chose``, ``dealt``, ``void``,
    ``declared``, ``grew``, ``played``, ``turned_up``, ``belote``, ``rebelote``,
    ``trick``, ``over``. ``data`` holds card codes and numbers only, all of it
    public: events are safe to show every viewer of the table."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, **self.data}
