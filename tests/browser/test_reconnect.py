"""The page loses its socket when the server restarts: it says
so at once, stops offering moves, reconnects by itself and shows the current table,
without a reload. Also: no Content-Security-Policy violation on the way."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import SERVER_SETTINGS
from tests.browser.pages import RECORDER_JS, TablePage, create_table, sign_up
from tests.browser.servers import (
    PYTHON,
    Server,
    _spawn,
    free_port,
    manage,
    server_env,
    wait_until_serving,
)

#: Records Content-Security-Policy violations, and marks the page so a reload shows.
WATCH_JS = """
(() => {
  window.__csp = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    window.__csp.push(e.violatedDirective + " " + e.blockedURI);
  });
})();
"""

#: Keeps the page's WebSockets reachable, so a test can close one as a server would.
SOCKETS_JS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
})();
"""

#: Generous: the issue asks for "reconnecting" within 1 s and the current table
#: within 3 s of the server being back; these waits only fail a broken page.
WAIT_MS = 20_000


class RestartableDaphne:
    """One Daphne on a fixed port and SQLite file, stopped and started by the test."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.db = folder / "db.sqlite3"
        self.env = server_env(
            DATABASE_URL=f"sqlite:///{self.db}", STATIC_ROOT=str(folder / "static"),
            **SERVER_SETTINGS,
        )
        manage(self.env, "migrate", "--noinput")
        self.server: Server | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        argv = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                "blotsite.asgi:application"]
        proc = _spawn(argv, self.env, self.folder / "daphne.log")
        log = self.folder / "daphne.log"
        self.server = wait_until_serving(Server(proc, self.port, self.env, log))

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def sql(self, statement: str, *params) -> list[tuple]:
        with sqlite3.connect(self.db, timeout=10) as db:
            return db.execute(statement, params).fetchall()


@pytest.fixture
def daphne(tmp_path: Path) -> Iterator[RestartableDaphne]:
    server = RestartableDaphne(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_it_shows_reconnecting_and_catches_up_after_a_server_restart(browser, daphne):
    context = browser.new_context(base_url=daphne.url, viewport={"width": 1200, "height": 900})
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(RECORDER_JS)
    context.add_init_script(WATCH_JS)
    try:
        page = context.new_page()
        sign_up(page)
        table_id = create_table(page, "open_blot", ["easy"])
        # The bot waits: the table changes only when the test changes it.
        daphne.sql(
            "UPDATE games_table SET bot_delay_ms = 600000, turn_seconds = 3600 WHERE id = ?",
            table_id,
        )
        table = TablePage(page, table_id, None).open()
        page.evaluate("window.__sameDocument = true")
        banner = page.locator("#connection-status")
        assert banner.is_hidden()
        assert page.evaluate("htmx.config.wsReconnectDelay(0)") <= 1000
        assert max(page.evaluate("[...Array(30).keys()].map(htmx.config.wsReconnectDelay)")) <= 2000

        daphne.stop()
        stopped = time.monotonic()
        banner.wait_for(state="visible", timeout=WAIT_MS)
        shown_after = time.monotonic() - stopped
        # No move can be made on a table that may be out of date.
        assert page.locator("#table-root button:not([disabled])").count() == 0

        # Meanwhile the table moves on (as if a bot had played while we were away).
        daphne.sql("UPDATE games_table SET version = version + 5 WHERE id = ?", table_id)
        (stored,) = daphne.sql("SELECT version FROM games_table WHERE id = ?", table_id)[0]

        daphne.start()
        back = time.monotonic()
        page.wait_for_function(
            "(v) => Number(document.getElementById('table-root').dataset.version) >= v"
            " && document.getElementById('connection-status').hidden",
            arg=stored,
            timeout=WAIT_MS,
        )
        current_after = time.monotonic() - back
        (now,) = daphne.sql("SELECT version FROM games_table WHERE id = ?", table_id)[0]
        assert table.version() == now
        assert page.evaluate("window.__sameDocument") is True  # no reload
        assert page.evaluate("document.documentElement.dataset.connection") == "live"
        assert page.evaluate("window.__csp") == []
        print(f"reconnecting shown {shown_after:.2f} s after the stop; "
              f"current {current_after:.2f} s after the server was back")
    finally:
        context.close()


def test_it_reconnects_after_a_normal_close_too(browser, daphne):
    # htmx's ws extension retries only after abnormal closes (1006, 1011-1013);
    # a 1000 or 1001 close (a server going away) must not leave the page dead.
    context = browser.new_context(base_url=daphne.url, viewport={"width": 1200, "height": 900})
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(RECORDER_JS)
    context.add_init_script(SOCKETS_JS)
    try:
        page = context.new_page()
        sign_up(page)
        table_id = create_table(page, "open_blot", ["easy"])
        TablePage(page, table_id, None).open()
        assert page.evaluate("window.__blot.opened") == 1
        page.evaluate(
            "window.__sockets.filter((s) => s.url.includes('/ws/table/')).at(-1).close(1000)"
        )
        page.wait_for_function(
            "() => window.__blot.opened >= 2"
            " && document.documentElement.dataset.connection === 'live'"
            " && document.getElementById('connection-status').hidden",
            timeout=WAIT_MS,
        )
    finally:
        context.close()
