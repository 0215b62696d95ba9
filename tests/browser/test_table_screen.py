"""The table screen at a desktop (1366 x 768) and a phone (390 x 844) size: whole
tricks and the deal's result stay on the table before play goes on, the hand and
the controls are on the first screen whenever it is the player's turn, the focus
is on a card, spectators see every seat in its own place, keyboard-only play
finishes a deal, and no page is wider than a phone.

The Belote run also saves the README's screenshots (docs/screenshots/) and prints
what a deal cost in the browser: click → card in the trick, bytes per update,
clicks and keys."""

from __future__ import annotations

import os
import statistics
from pathlib import Path

import pytest

from tests.browser.pages import SiteDB, TablePage, create_table, sign_up

BOT_DELAY_MS = 120
TRICK_PAUSE_MS = 250
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
#: Set to a folder to save a screenshot of every variant, size and viewer there
#: too (for looking at the screen while changing it; not part of the README).
MORE_SCREENSHOTS = os.environ.get("BLOT_SCREENSHOTS")
TRICK_SIZE = {"belote": 4, "open_blot": 2}
BOTS = {"belote": ["easy", "easy", "easy"], "open_blot": ["easy"]}


def bot_table(page, variant: str, db: SiteDB) -> int:
    table_id = create_table(page, variant, BOTS[variant])
    db.set_bot_delay(table_id, BOT_DELAY_MS)
    db.set_trick_pause(table_id, TRICK_PAUSE_MS)
    return table_id


def check_turn_screen(tp: TablePage) -> None:
    """On the player's turn: hand, controls, trick, score and contract on the first
    screen, nothing wider than the viewport, the focus on a card (or a bid)."""
    tp.assert_on_first_screen(
        "#table-root [data-hand]", "#controls", "#table-root [data-trick]",
        "#table-root [data-match-score]",
    )
    if tp.page.locator("#table-root [data-contract]").count():
        tp.assert_on_first_screen("#table-root [data-contract]")
    assert tp.page_width() <= tp.page.viewport_size["width"]
    cards = tp.card_buttons()
    if cards:
        assert tp.focused() in cards
    else:
        assert tp.focused() in ("pass", "take", "choose", "announce-menu")


def latency_note(tp: TablePage, label: str) -> str:
    record = tp.record()
    waits = sorted(record["latencies"])
    p95 = waits[min(len(waits) - 1, round(0.95 * (len(waits) - 1)))]
    return (
        f"{label}: click → card in trick p50 {statistics.median(waits):.0f} ms, p95 {p95:.0f} ms"
        f" ({len(waits)} plays); {statistics.mean(record['bytes']):.0f} bytes per update"
        f" (max {max(record['bytes'])}, {len(record['bytes'])} updates)"
    )


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("variant", ["belote", "open_blot"])
def test_it_keeps_whole_tricks_and_the_result_on_the_table_and_the_hand_on_screen(
    new_page, site_db, variant, size
):
    page = new_page(SIZES[size])
    sign_up(page, "Eve")
    table_id = bot_table(page, variant, site_db)
    tp = TablePage(page, table_id, site_db).wait_live()
    clicks = 0

    def each_turn(tp: TablePage) -> None:
        nonlocal clicks
        clicks += 1
        check_turn_screen(tp)
        if variant == "belote" and tp.card_plays == 3:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"table-{size}.png"))
        if tp.card_plays in (3, 6):
            shot(page, f"player-{variant}-{size}-{tp.card_plays}")

    tp.play(each_turn=each_turn)

    record = tp.record()
    # A full trick was on the table, with its winner, before it was gathered.
    assert record["maxComplete"] == TRICK_SIZE[variant]
    # The deal's last trick and its result were shown before deal 2 began.
    log = record["log"]
    shown = next(i for i, f in enumerate(log) if f["result"] and f["deal"] == 1)
    assert log[shown]["complete"] and log[shown]["trick"] == TRICK_SIZE[variant]
    # The result stays until the player has read it: Next deal deals deal 2.
    page.wait_for_timeout(1000)
    assert tp.attr("data-deal") == "1"
    assert tp.next_deal()
    tp.page.wait_for_function("() => document.getElementById('table-root').dataset.deal === '2'")
    log = tp.record()["log"]
    assert all(f["deal"] == 1 for f in log[: shown + 1])
    assert site_db.deal(table_id, 1)["status"] == "finished"
    tp.assert_clean()
    print(f"\n{latency_note(tp, f'{variant} {size}')}; {clicks} clicks for the deal")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("variant", ["belote", "open_blot"])
def test_it_shows_a_spectator_every_seat_in_its_own_place(new_page, site_db, variant, size):
    player = new_page(SIZES[size])
    sign_up(player, "Fay")
    table_id = bot_table(player, variant, site_db)
    tp = TablePage(player, table_id, site_db).wait_live()
    tp.play(card_plays=1)  # into the play, so the trick area holds a card
    watcher = TablePage(new_page(SIZES[size]), table_id, site_db).open()
    watcher.page.wait_for_function(
        "() => document.querySelectorAll('#table-root [data-trick] [data-card]').length > 0"
    )
    seats = TRICK_SIZE[variant]
    boxes = {i: watcher.box(f'[data-seat-place="{i}"]') for i in range(seats)}
    boxes["trick"] = watcher.box("#table-root [data-trick]")
    names = list(boxes)
    for a in names:
        for b in names[names.index(a) + 1 :]:
            assert not overlap(boxes[a], boxes[b]), (a, b, boxes[a], boxes[b])
    # Seat 1 (index 0) sits at the bottom, below the trick and every other seat.
    assert all(boxes[0]["y"] >= boxes[k]["y"] + boxes[k]["height"] - 1 for k in names if k != 0)
    assert watcher.page_width() <= SIZES[size]["width"]
    # The spectator is counted among the watchers from the first frame on.
    assert watcher.page.inner_text("#watchers") == "1 watching"
    shot(watcher.page, f"spectator-{variant}-{size}")


def shot(page, name: str) -> None:
    if MORE_SCREENSHOTS:
        page.screenshot(path=str(Path(MORE_SCREENSHOTS) / f"{name}.png"))


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 1
        and b["x"] < a["x"] + a["width"] - 1
        and a["y"] < b["y"] + b["height"] - 1
        and b["y"] < a["y"] + a["height"] - 1
    )


@pytest.mark.parametrize("variant", ["belote", "open_blot"])
def test_it_plays_a_whole_deal_with_the_keyboard_alone(new_page, site_db, variant):
    page = new_page(DESKTOP)
    sign_up(page, "Gus")
    table_id = bot_table(page, variant, site_db)
    tp = TablePage(page, table_id, site_db).wait_live()
    # The live region is one element for the whole visit (never swapped out).
    page.evaluate("() => { document.getElementById('table-announcer').dataset.kept = 'yes'; }")
    keys = 0
    last = None
    while tp.wait_turn(last) != "result":
        tp.check_legal()
        last = tp.version()
        bids = page.eval_on_selector_all(
            "#controls button[data-key]", "els => els.map(e => e.dataset.key)"
        )
        if bids:
            # Take, else the first suit offered, else pass: one key each.
            key = next(k for k in ("t", *"cdhs", "n", "p") if k in bids)
            page.keyboard.press(key)
            keys += 1
            continue
        assert tp.focused() in tp.card_buttons()
        assert page.inner_text("#table-announcer").endswith("Your turn.")
        page.keyboard.press("ArrowRight")  # along the playable cards...
        page.keyboard.press("Enter")  # ...and play the focused one
        keys += 2
        tp.card_plays += 1
    assert tp.card_plays == {"belote": 8, "open_blot": 16}[variant]
    assert page.get_attribute("#table-announcer", "data-kept") == "yes"
    assert "wins the trick." in page.inner_text("#table-announcer")
    assert site_db.deal(table_id, 1)["status"] == "finished"
    tp.assert_clean()
    print(f"\n{latency_note(tp, f'{variant} keyboard')}; {keys} keys for the deal")


def test_it_keeps_every_page_within_a_phone_width(new_page, site_db):
    page = new_page(PHONE)
    sign_up(page, "Hal")
    table_id = bot_table(page, "belote", site_db)
    tp = TablePage(page, table_id, site_db).wait_live()
    tp.play()
    paths = {
        "table": tp.path,
        "match": page.locator("a", has_text="Match page").first.get_attribute("href"),
        "profile": page.locator("header nav a", has_text="Profile").get_attribute("href"),
    }
    page.goto(paths["match"])
    paths["deal"] = page.locator("table.scores tbody a").first.get_attribute("href")
    for name, path in paths.items():
        page.goto(path)
        assert tp.page_width() <= PHONE["width"], f"the {name} page is wider than a phone"
