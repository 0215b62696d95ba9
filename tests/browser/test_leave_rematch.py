"""Leaving and coming back, rematch, and the lobby, in real Chromium.

Two partners play Belote against bots; one leaves (through the confirm dialog,
whose focus is on Stay), watches the stand-in play their seat beside their
partner, returns and plays a card themself. Alone with a bot, leaving ends the
match and "Rematch" starts a new one with the same seats. The lobby fits a
390 px phone.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3

from tests.browser.pages import SiteDB, TablePage, create_table, sign_up

#: The bots' pause before each move at these tables (the site's default is 700 ms).
BOT_DELAY_MS = 100
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


def rows(db: SiteDB, sql: str, params: tuple = ()) -> list[tuple]:
    with sqlite3.connect(db.path, timeout=10) as conn:
        return conn.execute(sql, params).fetchall()


def moves_by(db: SiteDB, table_id: int, seat: int) -> int:
    """How many actions seat ``seat`` has made at the table, over every match."""
    import json

    logs = rows(
        db,
        "SELECT d.actions FROM games_deal d JOIN games_match m ON d.match_id = m.id"
        " WHERE m.table_id = ?",
        (table_id,),
    )
    return sum(1 for (log,) in logs for a in json.loads(log) if a["seat"] == seat)


def quick_table(page, variant: str) -> int:
    page.goto("/")
    page.locator(f'[data-play-bots="{variant}"]').click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/$", page.url).group(1))


def click_until(page, selector: str, shown: str, attempts: int = 5) -> None:
    """Click ``selector`` until ``shown`` is visible. The table is redrawn on every
    move (the bots move every 100 ms here): a click whose press and release land
    on two copies of the link is no click, so it is tried again."""
    for _ in range(attempts):
        # (gone in a redraw, or gone because the last click worked)
        with contextlib.suppress(Exception):
            page.locator(selector).click(timeout=5_000)
        try:
            page.locator(shown).wait_for(state="visible", timeout=5_000)
            return
        except Exception:  # the click was lost in a redraw
            continue
    raise AssertionError(f"clicking {selector} never showed {shown}")


def leave(tp: TablePage) -> None:
    page = tp.page
    click_until(page, '#table-root a[data-action="leave"]', "#leave-dialog")
    with page.expect_navigation():
        page.locator('#leave-dialog [data-action="leave-confirm"]').click()
    tp.wait_live()


def partners_table(new_page, site_db) -> tuple[TablePage, TablePage]:
    """A Belote table of two partners (seats 1 and 3) against two Easy bots."""
    page = new_page()
    sign_up(page)
    table_id = create_table(page, "belote", ["easy", "open", "easy"])
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    partner = new_page()
    sign_up(partner, "Bob")
    partner.goto(f"/tables/{table_id}/")
    partner.locator("form[action$='/seats/2/join/'] button").click()
    tp = TablePage(page, table_id, site_db)
    page.goto(tp.path)
    tp.wait_live()
    return tp, TablePage(partner, table_id, site_db).open()


def test_it_hands_my_seat_to_a_bot_when_i_leave_and_gives_it_back_when_i_return(new_page, site_db):
    tp, partner = partners_table(new_page, site_db)
    page, table_id = tp.page, tp.table_id
    assert tp.seat() == 0 and partner.seat() == 2

    # "Stay" closes the dialog and changes nothing; it has the focus, so Enter
    # (or Escape) never leaves by accident.
    click_until(page, '#table-root a[data-action="leave"]', "#leave-dialog")
    assert tp.focused() == "leave-cancel"
    page.keyboard.press("Enter")
    assert not page.locator("#leave-dialog").is_visible()
    click_until(page, '#table-root a[data-action="leave"]', "#leave-dialog")
    page.locator("#leave-dialog button[formmethod=dialog]").click()
    assert not page.locator("#leave-dialog").is_visible()
    assert rows(
        site_db, 'SELECT left_at FROM games_seat WHERE table_id = ? AND "index" = 0', (table_id,)
    ) == [(None,)]

    before = moves_by(site_db, table_id, 0)
    leave(tp)
    page.locator('#table-root a[data-action="return"]').wait_for()
    # Everyone can see that a bot plays my seat now.
    page.locator('[data-seat-place="0"] [data-stand-in]').wait_for()
    spectator = new_page()
    spectator.goto(f"/tables/{table_id}/")
    watching = TablePage(spectator, table_id, site_db).wait_live()
    spectator.locator('[data-seat-place="0"] [data-stand-in]').wait_for()
    before_sizes = page.viewport_size
    for who, view in (("player", tp), ("spectator", watching)):
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            view.page.set_viewport_size(viewport)
            view.assert_on_first_screen('[data-seat-place="0"] [data-stand-in]')
            if os.environ.get("BLOT_SCREENSHOTS"):
                path = os.path.join(os.environ["BLOT_SCREENSHOTS"], f"left-{who}-{size}.png")
                view.page.screenshot(path=path)
    page.set_viewport_size(before_sizes)
    # The stand-in plays my seat while my partner plays theirs: more moves of
    # seat 0 are stored, without a click of mine.
    partner.play(card_plays=2)
    deadline_moves = moves_by(site_db, table_id, 0)
    assert deadline_moves > before

    click_until(page, '#table-root a[data-action="return"]', '#table-root a[data-action="leave"]')
    page.locator("[data-stand-in]").wait_for(state="detached")
    assert rows(
        site_db, 'SELECT left_at FROM games_seat WHERE table_id = ? AND "index" = 0', (table_id,)
    ) == [(None,)]
    # My own click plays again, and is accepted (my partner plays their turns).
    last = None
    for _ in range(200):
        if tp.attr("data-to-act") == "0" or tp.record()["results"]:
            last = tp.wait_turn()
            break
        if partner.attr("data-to-act") == "2":
            with contextlib.suppress(Exception):  # (a redraw may take the button away)
                partner.act()
        page.wait_for_timeout(100)
    if last == "turn":
        tp.check_legal()
        version = tp.act()
        page.wait_for_function(
            "(v) => Number(document.getElementById('table-root').dataset.version) > v",
            arg=version,
        )
        assert tp.errors() == []

    match_id = rows(site_db, "SELECT id FROM games_match WHERE table_id = ?", (table_id,))[0][0]
    page.goto(f"/matches/{match_id}/")
    events = page.locator("#seat-events li").all_inner_texts()
    assert len(events) == 2
    assert "left the table" in events[0] and "returned to the table" in events[1]


def test_it_starts_a_rematch_with_the_same_seats(new_page, site_db):
    page = new_page()
    sign_up(page)
    page.goto("/tables/new/?variant=open_blot")
    page.locator("select[name=format]").select_option("best_of:1")
    page.locator("select[name=seat_1]").select_option("easy")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    tp = TablePage(page, table_id, site_db).wait_live()

    # Nobody else plays here: leaving ends the match at once, as my loss
    # (docs/DECISIONS.md P-12), and the rematch is offered.
    leave(tp)
    rematch = page.locator('#table-root a[data-action="rematch"]')
    rematch.wait_for(timeout=90_000)
    assert page.locator('#table-root a[data-action="new-table"]').count() == 1
    click_until(page, '#table-root a[data-action="rematch"]', '#table-root a[data-action="leave"]')

    matches = rows(
        site_db,
        "SELECT id, status, format FROM games_match WHERE table_id = ? ORDER BY id",
        (table_id,),
    )
    assert [(m[1], m[2]) for m in matches] == [("finished", "best_of:1"), ("playing", "best_of:1")]
    seats = [
        rows(
            site_db,
            'SELECT "index", user_id, bot_level FROM games_participant WHERE match_id = ?'
            ' ORDER BY "index"',
            (m[0],),
        )
        for m in matches
    ]
    assert seats[0] == seats[1]
    assert tp.seat() == 0

    # The finished match's page (score table, who left) and the profile fit a phone.
    page.set_viewport_size(PHONE)
    profile = page.locator("header nav a", has_text="Profile").get_attribute("href")
    for path in (f"/matches/{matches[0][0]}/", f"/matches/{matches[0][0]}/deals/1/", profile):
        page.goto(path)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} is {width} px wide on a phone"


def test_the_lobby_fits_a_phone_screen(new_page, site_db):
    page = new_page()
    sign_up(page, "Maximilian-Alexander")
    create_table(page, "belote", ["open", "hard", "open"])  # an open table
    playing = quick_table(page, "belote")  # and one being played
    site_db.set_bot_delay(playing, 60_000)  # (left alone while we look)
    page.set_viewport_size(PHONE)
    page.goto("/")
    page.locator(f'a[data-watch][href="/tables/{playing}/"]').wait_for()
    assert page.locator("[data-join]").count() >= 1
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the lobby is {width} px wide on a {PHONE['width']} px screen"
    for variant in ("belote", "open_blot"):
        box = page.locator(f'[data-play-bots="{variant}"]').bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # The list refreshes itself: a table that starts now appears without a reload.
    other = new_page()
    sign_up(other, "Bea")
    started = quick_table(other, "open_blot")
    page.locator(f'a[data-watch][href="/tables/{started}/"]').wait_for(timeout=20_000)
