"""Browser tests: real Chromium (Debian's ``chromium``) driven by Playwright against
one real Daphne server on a temporary SQLite database.

The server and the browser live for the whole ``tests/browser`` package and are
stopped after its last test (also when a test fails).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser.pages import RECORDER_JS, SiteDB
from tests.browser.servers import Server, manage, server_env, start_daphne

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Short pauses keep a whole deal quick: the pause before a new deal's first move
#: and a Hard bot's thinking time (the bots' per-move delay is set per table).
#: Every test signs a new person up from 127.0.0.1: lift the per-address limit.
#: No analyst process: a full analysis would hold a core for minutes beside the
#: tests, which run the same runner themselves, quickly (tests/browser/test_analysis.py).
SERVER_SETTINGS = {
    "BLOT_NEXT_DEAL_PAUSE_MS": "300",
    "BLOT_BOT_BUDGET_MS": "150",
    "BLOT_SIGNUPS_PER_ADDRESS_HOURLY": "1000",
    "BLOT_ANALYST": "off",
}


@pytest.fixture(scope="package")
def blot_server(tmp_path_factory) -> Iterator[Server]:
    """One Daphne serving the site (DEBUG, in-memory channel layer, in-process
    conductor) on a freshly migrated SQLite file."""
    folder = tmp_path_factory.mktemp("browser-server")
    env = server_env(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        STATIC_ROOT=str(folder / "static"),
        **SERVER_SETTINGS,
    )
    # The limit is there to end a hang, not to time the migration: beside other
    # work on two cores a fresh migrate has taken over two minutes.
    manage(env, "migrate", "--noinput", timeout=900)
    server = start_daphne(env, folder / "daphne.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="package")
def site_db(blot_server: Server) -> SiteDB:
    return SiteDB(Path(blot_server.env["DATABASE_URL"].removeprefix("sqlite:///")))


@pytest.fixture(autouse=True)
def _one_test_at_a_time(request, browser, blot_server: Server, site_db: SiteDB) -> Iterator[None]:
    """Each test leaves the server idle: its tables stop (their bots would go on
    playing beside the next test). A failed test shows the end of the server's log.
    (``browser`` first: without Chromium the tests skip before a server starts.)"""
    yield
    site_db.stop_tables()
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        report.sections.append(("Daphne log (end)", blot_server.log(6000)))


@pytest.fixture(scope="package")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"needs Debian's chromium at {CHROMIUM} (scripts/ci-browser-deps installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


#: How long a page may take to show what a test waits for. It only matters when
#: something never comes: beside other work on two cores a page has taken over
#: 20 s to load, and a test must fail for what it checks, not for a busy machine.
WAIT_MS = 60_000


@pytest.fixture
def new_page(browser, blot_server: Server) -> Iterator[Callable[[], object]]:
    """Open a page in a fresh browser context (its own cookies: another person)."""
    contexts = []

    def open_page(viewport: dict[str, int] | None = None):
        context = browser.new_context(
            base_url=blot_server.url, viewport=viewport or {"width": 1200, "height": 900}
        )
        context.set_default_timeout(WAIT_MS)
        context.add_init_script(RECORDER_JS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
