"""Log lines as an operator reads them: one JSON object per line with
``BLOT_LOG_FORMAT=json``, ``key=value`` fields otherwise."""

from __future__ import annotations

import json
import logging

from games.runtime.structlog import StructuredFormatter


def record(**fields: object) -> logging.LogRecord:
    made = logging.LogRecord("blot.events", logging.INFO, __file__, 1, "move", None, None)
    made.blot = {"event": "move", **fields}
    return made


def test_a_json_line_is_one_object_with_the_records_fields() -> None:
    line = StructuredFormatter(json=True).format(record(table_id=7, by="bot"))
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["logger"] == "blot.events" and parsed["level"] == "info"
    assert parsed["message"] == "move"
    assert (parsed["event"], parsed["table_id"], parsed["by"]) == ("move", 7, "bot")
    assert parsed["time"].endswith("Z")


def test_a_text_line_puts_the_fields_after_the_message() -> None:
    line = StructuredFormatter().format(record(table_id=7, by="bot"))
    assert line == "INFO blot.events move table_id=7 by=bot"


def test_a_traceback_stays_inside_its_json_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        failing = record()
        failing.exc_info = sys.exc_info()
    parsed = json.loads(StructuredFormatter(json=True).format(failing))
    assert "ValueError: boom" in parsed["traceback"]
