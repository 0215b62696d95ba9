"""Fixtures for every test."""

from __future__ import annotations

import uuid

import pytest


@pytest.fixture(autouse=True)
def _own_rate_limit_counts(settings) -> None:
    """Each test counts its rate limits (games/ratelimit.py) from zero: a key prefix
    of its own, rather than clearing the cache, which on Redis would flush a
    database other test runs may share."""
    settings.CACHES = {
        name: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
        for name, config in settings.CACHES.items()
    }
