"""What the ASGI entry point does to the process it is imported into."""

from __future__ import annotations

import gc
import importlib
import sys

import pytest


def test_it_keeps_what_starting_made_out_of_the_cyclic_collectors_walks() -> None:
    # A full collection pauses every table a Daphne serves; objects made while
    # starting never become garbage, so they are frozen out of its walk.
    gc.unfreeze()
    importlib.reload(importlib.import_module("blotsite.asgi"))
    try:
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()


def test_it_lets_young_objects_pile_up_longer_before_the_cyclic_collector_walks_them(
    settings,
) -> None:
    # A busy Daphne's collector ran about 750 times a run at Python's 700, a
    # full collection pausing every table it serves.
    before = gc.get_threshold()
    settings.BLOT_GC_YOUNG_THRESHOLD = 12_345
    gc.unfreeze()
    try:
        importlib.reload(importlib.import_module("blotsite.asgi"))
        assert gc.get_threshold() == (12_345, *before[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_it_gives_threads_short_gil_slices(settings) -> None:
    # A Daphne's event loop forwards frames between its database threads' work:
    # with Python's 5 ms slices it waited behind them.
    before = sys.getswitchinterval()
    settings.BLOT_GIL_SWITCH_US = 700
    gc.unfreeze()
    try:
        importlib.reload(importlib.import_module("blotsite.asgi"))
        assert sys.getswitchinterval() == pytest.approx(0.0007)
    finally:
        gc.unfreeze()
        sys.setswitchinterval(before)


def test_autobahns_per_connection_configuration_dump_is_formatted_only_when_logged(
    monkeypatch,
) -> None:
    # Pretty-printing about forty settings at every WebSocket connection, for a
    # debug line nobody writes, was 5-6 % of a Daphne's event loop in a storm of
    # joins.
    import pprint

    from autobahn.websocket import protocol

    gc.unfreeze()
    try:
        importlib.reload(importlib.import_module("blotsite.asgi"))
    finally:
        gc.unfreeze()
    config = [("openHandshakeTimeout", 5, "WebSocketServerFactory"), ("autoPingInterval", 0, "x")]
    expected = pprint.pformat(config)
    calls = []
    method = pprint.PrettyPrinter.pformat
    monkeypatch.setattr(
        pprint.PrettyPrinter, "pformat", lambda self, o: calls.append(o) or method(self, o)
    )
    dump = protocol.pformat(config)
    assert calls == []  # nothing formatted while the line is not written
    assert f"{dump}" == expected  # as before when it is (the log formats it so)
    assert calls == [config]
    # Autobahn's other uses (dicts; one returned by a __str__) stay strings.
    assert protocol.pformat({"a": 1}) == "{'a': 1}"
