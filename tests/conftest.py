"""Fixtures for every test."""

from __future__ import annotations

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
