"""Fixtures for every test."""

from __future__ import annotations

import importlib
import signal
import uuid
from collections.abc import Iterator

import pytest
from django.utils import translation


def pytest_configure(config: pytest.Config) -> None:
    """A suite started in the background by a shell (``.ci/run &``, nohup)
    inherits SIGINT ignored, and so would every server it starts: a Daphne
    would then ignore the Ctrl-C that tests/live/test_shutdown.py sends it. The
    tests' servers get the disposition of a foreground start."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A request made through the test client activates its reader's language and
    leaves it active in the thread (as LocaleMiddleware does between requests);
    later tests in the same thread must not start in a Russian or Armenian that an
    earlier one left behind."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _default_rule_sets(request) -> None:
    """Transactional tests flush what the data migration created, and under
    pytest-xdist a worker may run them before any other file's tests: put the
    built-in rule sets back before each test that uses the database."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None and "db" not in request.fixturenames:
        return
    transactional = marker is not None and marker.kwargs.get("transaction", False)
    request.getfixturevalue("transactional_db" if transactional else "db")
    from django.apps import apps

    importlib.import_module("games.migrations.0001_initial").create_built_in_rule_sets(apps, None)


@pytest.fixture(autouse=True)
def _own_rate_limit_counts(settings) -> None:
    """Each test counts its rate limits (games/ratelimit.py) from zero: a key prefix
    of its own, rather than clearing the cache, which on Redis would flush a
    database other test runs may share."""
    settings.CACHES = {
        name: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
        for name, config in settings.CACHES.items()
    }


@pytest.fixture(autouse=True)
def _room_for_many_tables(settings) -> None:
    """Tests create many tables as one user; the tests of the creation limits set
    the limits they check themselves (tests/site/test_abuse_limits.py)."""
    settings.BLOT_BOT_TABLES_PER_USER = 1000
    settings.BLOT_TABLES_PER_USER_HOURLY = 1000
    settings.BLOT_TABLES_PER_ADDRESS_HOURLY = 1000
    settings.BLOT_BOT_WORK_PER_USER = 1000
    settings.BLOT_TOURNAMENTS_PER_USER_DAILY = 1000


@pytest.fixture(autouse=True)
def _fresh_process_caches() -> None:
    """Frames and deal histories are kept per process by ids, and a rolled-back
    test database hands the same ids out again: each test starts with none, and
    with none of the table's parts another test drew."""
    from games.live.draw import drawing, frames
    from games.live.store import history

    frames.cache.clear()
    history.cache.clear()
    drawing.parts.clear()
