"""What the browser tests do on the site's pages, and what they read from its database.

``RECORDER_JS`` runs in every page before the site's own scripts and keeps a log
of what the live table received over its WebSocket (``window.__blot``): versions,
refusal messages, the most card/action buttons ever shown, how often any showed
while the viewer was not to act, every card ever seen on the table. ``SiteDB``
reads the server's SQLite file to check the page against the engine (the legal
moves at the version the page shows).
"""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.cards import CODES, TRUMP_CODES
from engine.deal import Deal as EngineDeal
from engine.record import DealRecord, rebuild

PASSWORD = "a-long-enough-Passw0rd"

RECORDER_JS = """
(() => {
  const rec = window.__blot = {
    opened: 0, frames: 0, errors: [], versions: [], cardButtons: 0, actionButtons: 0, seen: [],
    offTurnButtons: 0, maxComplete: 0, log: [], results: [], bytes: [], clicks: [], latencies: [],
  };
  function snapshot() {
    const root = document.getElementById("table-root");
    if (!root) return;
    const version = Number(root.dataset.version);
    rec.versions.push(version);
    rec.cardButtons = Math.max(rec.cardButtons, root.querySelectorAll("button[data-card]").length);
    const actions = root.querySelectorAll("button[data-action]").length;
    rec.actionButtons = Math.max(rec.actionButtons, actions);
    if (root.dataset.toAct !== root.dataset.seat && actions > 0) rec.offTurnButtons += 1;
    const trick = root.querySelector("[data-trick]");
    const inTrick = trick ? [...trick.querySelectorAll("[data-trick-seat] [data-card]")]
      .map((el) => el.dataset.card) : [];
    for (const card of inTrick) if (!rec.seen.includes(card)) rec.seen.push(card);
    const complete = !!trick && trick.hasAttribute("data-complete");
    if (complete) rec.maxComplete = Math.max(rec.maxComplete, inTrick.length);
    const result = root.querySelector("[data-deal-result]");
    rec.log.push({
      version, deal: Number(root.dataset.deal || 0), complete, trick: inTrick.length,
      result: !!result,
    });
    if (result && !rec.results.some((r) => r.version === version)) {
      const rows = {};
      for (const tr of result.querySelectorAll("table.breakdown tr")) {
        const th = tr.querySelector("th");
        const cells = [...tr.querySelectorAll("td")].map((td) => td.textContent.trim());
        if (th) rows[th.textContent.trim()] = cells;
      }
      rec.results.push({
        version, deal: Number(root.dataset.deal || 0), rows, trick: inTrick, complete,
        title: (result.querySelector("h3") || {}).textContent,
        scoreRows: root.querySelectorAll("#score-table tbody tr").length,
      });
    }
    const now = performance.now();
    for (const click of rec.clicks) {
      if (click.done === undefined && inTrick.includes(click.card)) {
        click.done = now;
        rec.latencies.push(now - click.at);
      }
    }
  }
  document.addEventListener("DOMContentLoaded", snapshot);
  // Only the table's socket: a signed-in page also has the person's own (/ws/person/).
  const personal = (event) => !!event.target && event.target.id === "person-socket";
  document.addEventListener("htmx:wsOpen", (event) => { if (!personal(event)) rec.opened += 1; });
  // A click (or Enter) on a playable card: the latency runs until it is in the trick.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[data-card]");
    if (button) rec.clicks.push({ card: button.dataset.card, at: performance.now() });
  }, true);
  document.addEventListener("htmx:wsBeforeMessage", (event) => {
    if (personal(event)) return;
    const message = (event.detail.message || "").trim();
    rec.bytes.push(new TextEncoder().encode(event.detail.message || "").length);
    if (message.startsWith('<div id="table-error"')) {
      rec.errors.push(message.replace(/<[^>]*>/g, "").trim());
    }
  });
  document.addEventListener("htmx:wsAfterMessage", (event) => {
    if (personal(event)) return;
    rec.frames += 1;
    snapshot();
  });
})();
"""

# "turn": the viewer's seat is to act at a version other than ``last``;
# "result": a finished deal's result is on the table.
WAIT_TURN_JS = """(last) => {
  const root = document.getElementById("table-root");
  if (!root) return false;
  if (window.__blot.results.length || root.querySelector("[data-deal-result]")) return "result";
  const mine = root.dataset.seat !== "" && root.dataset.toAct === root.dataset.seat;
  return mine && root.dataset.version !== last ? "turn" : false;
}"""

BID_ACTIONS = ("pass", "take", "choose")
#: Which bid to click, first found first: take the proposed card, else choose a
#: trump, else pass (so a deal this viewer bids in is never passed out).
TAKE_FIRST = ("[data-action=take]", "[data-action=choose]", "[data-action=pass]")


# --- the server's database ---------------------------------------------------------------


@dataclass
class LiveDeal:
    version: int
    number: int
    engine: EngineDeal


class SiteDB:
    """The test server's SQLite database, read (and lightly tuned) from the test."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        with sqlite3.connect(self.path, timeout=10) as db:
            return db.execute(sql, params).fetchall()

    def set_bot_delay(self, table_id: int, ms: int) -> None:
        """The bots' pause before each move at this table (the admin's per-table
        setting; 700 ms by default, which only slows the tests down)."""
        with sqlite3.connect(self.path, timeout=10) as db:
            db.execute("UPDATE games_table SET bot_delay_ms = ? WHERE id = ?", (ms, table_id))

    def set_trick_pause(self, table_id: int, ms: int) -> None:
        """How long a completed trick stays in the middle (1000 ms by default)."""
        with sqlite3.connect(self.path, timeout=10) as db:
            db.execute("UPDATE games_table SET trick_pause_ms = ? WHERE id = ?", (ms, table_id))

    def stop_tables(self) -> None:
        """Mark every playing table finished, so the server's conductor leaves it be."""
        with sqlite3.connect(self.path, timeout=10) as db:
            db.execute("UPDATE games_table SET status = 'finished' WHERE status = 'playing'")

    def live_deal(self, table_id: int) -> LiveDeal:
        """The table's version and its open deal, rebuilt by the engine (one read)."""
        rows = self._rows(
            "SELECT t.version, d.number, m.variant, m.rules, d.dealer, d.deck, d.actions"
            " FROM games_table t JOIN games_match m ON m.table_id = t.id"
            " JOIN games_deal d ON d.match_id = m.id"
            " WHERE t.id = ? AND d.status = 'playing' ORDER BY m.id DESC, d.number DESC LIMIT 1",
            (table_id,),
        )
        assert rows, f"table {table_id} has no deal being played"
        version, number, variant, rules, dealer, deck, actions = rows[0]
        record = DealRecord.from_dict(
            {
                "variant": variant,
                "dealer": dealer,
                "rules": json.loads(rules),
                "deck": json.loads(deck),
                "actions": json.loads(actions),
            }
        )
        return LiveDeal(version, number, rebuild(record))

    def pool_entry(self, username: str) -> dict[str, Any] | None:
        """The person's Play-now entry (``None`` when they are in no pool)."""
        rows = self._rows(
            "SELECT e.variant, e.format, e.rated, e.table_id FROM games_poolentry e"
            " JOIN auth_user u ON u.id = e.user_id WHERE u.username = ?",
            (username,),
        )
        if not rows:
            return None
        variant, fmt, rated, table_id = rows[0]
        return {"variant": variant, "format": fmt, "rated": bool(rated), "table": table_id}

    def seated_at(self, table_id: int) -> set[str]:
        """The usernames seated at the table."""
        rows = self._rows(
            "SELECT u.username FROM games_seat s JOIN auth_user u ON u.id = s.user_id"
            " WHERE s.table_id = ?",
            (table_id,),
        )
        return {name for (name,) in rows}

    def tables_of(self, username: str) -> list[int]:
        rows = self._rows(
            "SELECT s.table_id FROM games_seat s JOIN auth_user u ON u.id = s.user_id"
            " WHERE u.username = ? ORDER BY s.table_id",
            (username,),
        )
        return [table_id for (table_id,) in rows]

    def set_rating(self, username: str, variant: str, mu: float, matches: int = 0) -> None:
        """Give the person a rating (as if they had played ``matches`` rated matches)."""
        with sqlite3.connect(self.path, timeout=10) as db:
            (user_id,) = db.execute(
                "SELECT id FROM auth_user WHERE username = ?", (username,)
            ).fetchone()
            db.execute(
                "INSERT INTO games_rating (user_id, variant, mu, sigma, shown, matches)"
                " VALUES (?, ?, ?, 250, ?, ?)",
                (user_id, variant, mu, round(mu), matches),
            )

    def match_of(self, table_id: int) -> dict[str, Any]:
        """The table's newest match: id, status, whether rated, its rating changes
        and why it was not rated (if so)."""
        match_id, status, rated = self._rows(
            "SELECT id, status, rated FROM games_match WHERE table_id = ? ORDER BY id DESC"
            " LIMIT 1",
            (table_id,),
        )[0]
        changes = self._rows(
            "SELECT COUNT(*) FROM games_ratingchange WHERE match_id = ?", (match_id,)
        )[0][0]
        unrated = self._rows(
            "SELECT reason FROM games_unratedmatch WHERE match_id = ?", (match_id,)
        )
        return {
            "id": match_id,
            "status": status,
            "rated": bool(rated),
            "changes": changes,
            "unrated": unrated[0][0] if unrated else None,
        }

    def cards_played(self, table_id: int) -> int:
        rows = self._rows(
            "SELECT d.actions FROM games_deal d JOIN games_match m ON d.match_id = m.id"
            " WHERE m.table_id = ?",
            (table_id,),
        )
        return sum(1 for (log,) in rows for a in json.loads(log) if a["type"] == "play")

    def deal(self, table_id: int, number: int) -> dict[str, Any]:
        rows = self._rows(
            "SELECT d.status, d.actions, d.result FROM games_deal d"
            " JOIN games_match m ON d.match_id = m.id"
            " WHERE m.table_id = ? AND d.number = ? ORDER BY m.id DESC LIMIT 1",
            (table_id, number),
        )
        assert rows, f"table {table_id} has no deal {number}"
        status, actions, result = rows[0]
        return {
            "status": status,
            "actions": json.loads(actions),
            "result": json.loads(result) if result else None,
        }


# --- pages ----------------------------------------------------------------------------------


def sign_up(page, name: str = "Ann") -> str:
    """Sign up a new person through the form; returns their display name."""
    suffix = uuid.uuid4().hex[:6]
    display_name = f"{name} {suffix}"
    page.goto("/accounts/signup/")
    main = page.locator("main form")
    main.locator("input[name=username]").fill(f"{name.lower()}{suffix}")
    main.locator("input[name=password1]").fill(PASSWORD)
    main.locator("input[name=password2]").fill(PASSWORD)
    main.locator("input[name=display_name]").fill(display_name)
    main.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    assert page.locator("header form button", has_text="Log out").count() == 1
    return display_name


def create_table(page, variant: str, others: list[str]) -> int:
    """Create a table through the form (seat 2.. as ``others``); returns its id."""
    page.goto(f"/tables/new/?variant={variant}")
    for index, level in enumerate(others, start=1):
        page.locator(f"select[name=seat_{index}]").select_option(level)
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/$", page.url).group(1))


class TablePage:
    """A live table page as one viewer sees it."""

    def __init__(self, page, table_id: int, db: SiteDB) -> None:
        self.page = page
        self.table_id = table_id
        self.db = db
        self.card_plays = 0

    @property
    def path(self) -> str:
        return f"/tables/{self.table_id}/"

    def open(self) -> TablePage:
        self.page.goto(self.path)
        return self.wait_live()

    def wait_live(self) -> TablePage:
        """Wait for the WebSocket's first frame (the server sends the table on connect)."""
        self.page.wait_for_function("() => window.__blot && window.__blot.frames > 0")
        return self

    # -- reading --

    def attr(self, name: str) -> str:
        return self.page.get_attribute("#table-root", name) or ""

    def version(self) -> int:
        return int(self.attr("data-version"))

    def seat(self) -> int | None:
        seat = self.attr("data-seat")
        return int(seat) if seat else None

    def cards(self, selector: str) -> list[str]:
        return self.page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card)")

    def card_buttons(self) -> list[str]:
        return self.cards("#table-root button[data-card]")

    def my_cards(self) -> list[str]:
        """The viewer's own cards: the hand (Belote) or their stacks' face-up cards."""
        return self.cards("#table-root [data-hand] [data-card]")

    def table_cards(self) -> list[str]:
        """The cards in the middle of the felt (the trick, or the one just won)."""
        return self.cards("#table-root [data-trick] [data-card]")

    def box(self, selector: str) -> dict[str, float]:
        """An element's box in page coordinates (not moved by scrolling)."""
        box = self.page.eval_on_selector(
            selector,
            "el => { const r = el.getBoundingClientRect();"
            " return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }",
        )
        assert box["width"] > 0 and box["height"] > 0, f"{selector} is not drawn"
        return box

    def assert_on_first_screen(self, *selectors: str) -> None:
        """Each element lies inside the viewport with the page scrolled to the top."""
        view = self.page.viewport_size
        for selector in selectors:
            box = self.box(selector)
            assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
            assert box["x"] + box["width"] <= view["width"] + 0.5, (selector, box, view)
            assert box["y"] + box["height"] <= view["height"] + 0.5, (selector, box, view)

    def page_width(self) -> int:
        return self.page.evaluate("() => document.documentElement.scrollWidth")

    def focused(self) -> str:
        """What has the keyboard focus: a card's code, a control's action, or the tag."""
        return self.page.evaluate(
            "() => { const el = document.activeElement;"
            " return el.dataset.card || el.dataset.action || el.tagName; }"
        )

    def record(self) -> dict[str, Any]:
        return self.page.evaluate("() => window.__blot")

    def errors(self) -> list[str]:
        return self.record()["errors"]

    def assert_clean(self) -> None:
        """No move was refused, and no move was offered out of turn."""
        record = self.record()
        assert record["errors"] == []
        assert record["offTurnButtons"] == 0

    # -- acting --

    def wait_turn(self, last_version: int | None = None, timeout: float = 30_000) -> str:
        """Wait until it is the viewer's turn at a new version, or a deal result shows."""
        last = "" if last_version is None else str(last_version)
        try:
            handle = self.page.wait_for_function(WAIT_TURN_JS, arg=last, timeout=timeout)
        except Exception as exc:
            state = {a: self.attr(f"data-{a}") for a in ("version", "to-act", "seat")}
            live = self.db.live_deal(self.table_id)
            raise AssertionError(
                f"no turn after version {last_version}: the page shows {state}, "
                f"the database has version {live.version} with seat {live.engine.to_act} "
                f"to act; received {self.record()}"
            ) from exc
        return handle.json_value()

    def check_legal(self) -> None:
        """The buttons on the page are exactly the engine's legal moves for the viewer."""
        live = self.db.live_deal(self.table_id)
        # The database may be a frame ahead of the page (a change committed, its
        # frame still on the way): compare once the page shows that version.
        self.page.wait_for_function(
            "v => Number(document.getElementById('table-root').dataset.version) >= v",
            arg=live.version,
        )
        if self.version() > live.version:
            live = self.db.live_deal(self.table_id)
        assert live.version == self.version(), (
            f"the page shows version {self.version()} with seat {self.attr('data-to-act')} "
            f"to act; the database has version {live.version} with seat "
            f"{live.engine.to_act} to act; received {self.record()}"
        )
        seat = self.seat()
        assert live.engine.to_act == seat
        legal = live.engine.legal_actions()
        assert sorted(self.card_buttons()) == sorted(
            CODES[a.card] for a in legal if a.type == "play"
        )
        shown_bids = self.page.eval_on_selector_all(
            "#controls button[data-action]",
            "els => els.filter(e => ['pass', 'take', 'choose'].includes(e.dataset.action))"
            ".map(e => e.dataset.action + ':' + (e.dataset.trump || ''))",
        )
        legal_bids = [
            f"{a.type}:{TRUMP_CODES[a.trump] if a.trump is not None else ''}"
            for a in legal
            if a.type in BID_ACTIONS
        ]
        assert sorted(shown_bids) == sorted(legal_bids)
        declarations = self.page.locator("#announce-menu button[data-action=declare]").count()
        assert declarations == sum(a.type == "declare" for a in legal)

    def act(self, bids: tuple[str, ...] = TAKE_FIRST) -> int:
        """Make one move on the viewer's turn: the first bid button found matching
        ``bids`` (attribute selectors), else the first playable card. Returns the
        version the move was made on."""
        version = self.version()
        for selector in bids:
            button = self.page.locator(f"#controls button{selector}")
            if button.count():
                button.first.click()
                return version
        cards = self.card_buttons()
        assert cards, "my turn, but no bid and no playable card"
        self.page.locator(f'#table-root button[data-card="{cards[0]}"]').click()
        self.card_plays += 1
        return version

    def next_deal(self) -> bool:
        """Press Next deal on the deal's result (a player alone with bots keeps
        the result until then); forget the results seen so far, so waiting for
        a turn waits for the new deal. Returns whether the button was there."""
        button = self.page.locator('#table-root [data-action="next-deal"]')
        if not button.count():
            return False
        finished = int(self.attr("data-deal"))
        button.click()
        self.page.wait_for_function(
            "(finished) => { const root = document.getElementById('table-root');"
            " return Number(root.dataset.deal) > finished"
            " && !root.querySelector('[data-deal-result]'); }",
            arg=finished,
        )
        # Only now: a frame that redraws the finished deal's result after the
        # click (and before the new deal's) would otherwise be recorded again.
        self.page.evaluate(
            "(finished) => { window.__blot.results ="
            " window.__blot.results.filter((r) => r.deal > finished); }",
            finished,
        )
        return True

    def play(
        self,
        *,
        card_plays: int | None = None,
        last_version: int | None = None,
        bids: tuple[str, ...] = TAKE_FIRST,
        each_turn=None,
    ) -> int | None:
        """Play on every turn (checking the buttons against the engine first) until a
        deal result shows or ``card_plays`` cards were played; returns the version of
        the last move made."""
        while card_plays is None or self.card_plays < card_plays:
            if self.wait_turn(last_version) == "result":
                break
            self.check_legal()
            if each_turn is not None:
                each_turn(self)
            last_version = self.act(bids)
        return last_version
