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


def test_it_gives_threads_short_gil_slices(settings) -> None:
    # A Daphne's event loop forwards frames between its database threads' work:
    # with Python's 5 ms slices it waited behind them (issue 22).
    before = sys.getswitchinterval()
    settings.BLOT_GIL_SWITCH_US = 700
    gc.unfreeze()
    try:
        importlib.reload(importlib.import_module("blotsite.asgi"))
        assert sys.getswitchinterval() == pytest.approx(0.0007)
    finally:
        gc.unfreeze()
        sys.setswitchinterval(before)
