"""A whole Coinche deal against bots in Chromium, at a desktop (1366 x 768) and a
phone (390 x 844) size: the auction box and its controls are on the first screen
at the player's turn, the player coinches an opponent's contract, the contract
with its multiplier is on the table from then on, the announcements and the
cards are drawn from the player's own view, and a spectator watching the same
table sees the auction but never a hidden card.

Screenshots of the auction and of the first trick, as player and as spectator,
are saved under ``BLOT_SCREENSHOTS`` when it is set."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.pages import SiteDB, TablePage, sign_up

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
BOT_DELAY_MS = 100
TRICK_PAUSE_MS = 200
#: Easy bots pass out some deals and outbid nobody in others: deals are played
#: until one is coinched (each without a coinche is played through too). The
#: match is the longest first-to one, so it does not end before then: a
#: coinched deal scores its contract on top of the points, and a match to 1000
#: can be over in four or five deals.
MAX_DEALS = 12
LONGEST_MATCH = "first_to:2001"
SHOTS = os.environ.get("BLOT_SCREENSHOTS")


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def coinche_table(page, db: SiteDB) -> int:
    """A Coinche table against three Easy bots, made through the create form."""
    page.goto("/tables/new/?variant=belote")
    page.locator("select[name=rule_set]").select_option(label="Coinche")
    page.locator("select[name=format]").select_option(LONGEST_MATCH)
    for index in (1, 2, 3):
        page.locator(f"select[name=seat_{index}]").select_option("easy")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    db.set_bot_delay(table_id, BOT_DELAY_MS)
    db.set_trick_pause(table_id, TRICK_PAUSE_MS)
    return table_id


def contract(tp: TablePage) -> dict[str, str] | None:
    found = tp.page.locator("#table-root [data-contract]")
    if not found.count():
        return None
    return {
        key: found.first.get_attribute(f"data-{key}") or ""
        for key in ("value", "trump", "multiplier", "taker-seat")
    }


def check_auction_turn(tp: TablePage) -> None:
    """At the player's turn in the auction: the box and every control of it on the
    first screen, and the calls offered exactly the engine's legal ones."""
    tp.assert_on_first_screen("#table-root [data-auction]", "#table-root [data-hand]")
    for selector in ("[data-action=pass]", "[data-action=coinche]", "[data-action=surcoinche]"):
        if tp.page.locator(f"#controls {selector}").count():
            tp.assert_on_first_screen(f"#controls {selector}")
    shown_bids = tp.page.locator("#controls button[data-action=bid]:visible")
    if shown_bids.count():
        tp.assert_on_first_screen("#controls [data-auction] .bid-values")
        for i in range(shown_bids.count()):
            box = shown_bids.nth(i).bounding_box()
            assert box is not None and box["y"] + box["height"] <= tp.page.viewport_size["height"]
    live = tp.db.live_deal(tp.table_id)
    legal = live.engine.legal_actions()
    bids = tp.page.eval_on_selector_all(
        "#controls button[data-action=bid]",
        "els => els.map(e => e.dataset.value + e.dataset.trump)",
    )
    assert sorted(bids) == sorted(
        f"{a.to_dict()['value']}{a.to_dict()['trump']}" for a in legal if a.type == "bid"
    )
    calls = tp.page.eval_on_selector_all(
        "#controls [data-auction] .auction-calls button", "els => els.map(e => e.dataset.action)"
    )
    calls_legal = [a.type for a in legal if a.type in ("pass", "coinche", "surcoinche")]
    assert sorted(calls) == sorted(calls_legal)
    assert tp.page_width() <= tp.page.viewport_size["width"]


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_coinche_deal_against_bots_with_a_coinche(new_page, site_db, size) -> None:
    page = new_page(SIZES[size])
    sign_up(page, "Coline")
    table_id = coinche_table(page, site_db)
    tp = TablePage(page, table_id, site_db).wait_live()
    watcher = TablePage(new_page(SIZES[size]), table_id, site_db).open()
    me = tp.seat()
    coinched_deal = None
    shots: set[str] = set()
    last = None
    for _ in range(MAX_DEALS * 40):
        if tp.wait_turn(last) == "result":
            deal = int(tp.attr("data-deal"))
            if coinched_deal == deal:
                break
            over = tp.page.locator("#table-root .match-over").count()
            assert tp.next_deal(), f"deal {deal} has no Next deal button (match over: {over})"
            last = None
            continue
        if tp.page.locator("#controls [data-auction]").count():
            check_auction_turn(tp)
            if "auction" not in shots:
                shot(page, f"coinche-auction-player-{size}")
                shot(watcher.page, f"coinche-auction-spectator-{size}")
                shots.add("auction")
            # Coinche an opponent's contract when we may; otherwise pass.
            coinche = tp.page.locator("#controls [data-action=coinche]")
            last = tp.version()
            if coinche.count():
                # The keyboard's way: C says Coinche.
                page.keyboard.press("c")
                coinched_deal = int(tp.attr("data-deal"))
            else:
                tp.page.locator("#controls [data-action=pass]").click()
            continue
        # The play: the contract is on the table, announcements offered at the first card.
        found = contract(tp)
        assert found is not None and found["multiplier"] in ("1", "2", "4")
        tp.assert_on_first_screen(
            "#table-root [data-hand]", "#controls", "#table-root [data-contract]"
        )
        declare = tp.page.locator("#controls button[data-action=declare][data-cards]")
        if coinched_deal == int(tp.attr("data-deal")) and "first-trick" not in shots:
            assert found["multiplier"] in ("2", "4")
            shot(page, f"coinche-first-trick-player-{size}")
            shot(watcher.page, f"coinche-first-trick-spectator-{size}")
            shots.add("first-trick")
        announced = tp.page.locator("#table-root [data-announcement]").count()
        if "announcement" not in shots and announced:
            shot(page, f"coinche-announcement-player-{size}")
            shot(watcher.page, f"coinche-announcement-spectator-{size}")
            shots.add("announcement")
        last = tp.version()
        if declare.count():
            tp.assert_on_first_screen("#controls button[data-action=declare]")
            declare.first.click()
            tp.page.wait_for_function(
                f"() => document.getElementById('table-root').dataset.version !== '{last}'"
            )
            assert tp.page.locator(f'#table-root [data-announcement][data-seat="{me}"]').count()
            last = tp.version()
            if tp.attr("data-to-act") != str(me):
                continue
        tp.act(())
    else:
        raise AssertionError("no coinched deal was played to its end")
    assert coinched_deal is not None
    shot(page, f"coinche-result-player-{size}")
    result = tp.page.locator("#table-root [data-deal-result]")
    assert "Coinched: the points are doubled." in result.inner_text() or "Surcoinched" in (
        result.inner_text()
    )
    # The spectator never saw a hidden card: only cards on the felt's trick,
    # announced cards once shown, and none in a hand.
    assert watcher.page.locator("#table-root [data-hand] [data-card]").count() == 0
    assert watcher.page.locator("#table-root button[data-action]").count() == 0
    tp.assert_clean()
    watcher.assert_clean()
