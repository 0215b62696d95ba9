"""Structured log lines: one per request (games/ops/middleware.py) and per
socket event worth keeping (:func:`event`), each a set of named fields.

``BLOT_LOG_FORMAT=json`` writes every log record as one JSON object per line
(:class:`StructuredFormatter` with ``json=True``, set up in
``blotsite/settings.py``); otherwise the fields follow the message as
``key=value``. Callers pass ids, kinds, counts and durations only: never a
card, a message's text, a token, a password or an address.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

#: Socket and move events (``blot.events``); requests log to ``blot.requests``.
events_log = logging.getLogger("blot.events")


def event(name: str, **fields: Any) -> None:
    """Log one socket event with its fields (``None`` fields are left out)."""
    if events_log.isEnabledFor(logging.INFO):
        kept = {k: v for k, v in fields.items() if v is not None}
        events_log.info(name, extra={"blot": {"event": name, **kept}})


class StructuredFormatter(logging.Formatter):
    """A record's message and its ``blot`` fields, as JSON or as ``key=value``."""

    def __init__(self, json: bool = False) -> None:
        super().__init__()
        self.json = json

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = dict(getattr(record, "blot", {}) or {})
        message = record.getMessage()
        if self.json:
            line: dict[str, Any] = {
                "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                + f".{int(record.msecs):03d}Z",
                "level": record.levelname.lower(),
                "logger": record.name,
                "message": message,
                **fields,
            }
            if record.exc_info:
                line["traceback"] = self.formatException(record.exc_info)
            return json.dumps(line, default=str, ensure_ascii=False)
        text = " ".join([message, *(f"{k}={v}" for k, v in fields.items() if k != "event")])
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return f"{record.levelname} {record.name} {text}"
