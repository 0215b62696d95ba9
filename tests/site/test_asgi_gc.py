"""What the ASGI entry point does to the process it is imported into."""

from __future__ import annotations

import gc
import importlib


def test_it_keeps_what_starting_made_out_of_the_cyclic_collectors_walks() -> None:
    # A full collection pauses every table a Daphne serves; objects made while
    # starting never become garbage, so they are frozen out of its walk.
    gc.unfreeze()
    importlib.reload(importlib.import_module("blotsite.asgi"))
    try:
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
