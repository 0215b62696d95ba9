"""Fixtures for every test."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A request made through the test client activates its reader's language and
    leaves it active in the thread (as LocaleMiddleware does between requests);
    later tests in the same thread must not start in a Russian or Armenian that an
    earlier one left behind."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _own_rate_limit_counts(settings) -> None:
    """Each test counts its rate limits (games/ratelimit.py) from zero: a key prefix
    of its own, rather than clearing the cache, which on Redis would flush a
    database other test runs may share."""
    settings.CACHES = {
        name: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
        for name, config in settings.CACHES.items()
    }
