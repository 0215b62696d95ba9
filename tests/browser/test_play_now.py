"""Play now in real Chromium: people pressing "Play now" in separate browser
contexts meet at one rated table, play it out, and each sees their rating
change at the end (on the table and the match page).

Going to the table: the pairing pass tells every open page of each person
(``announce_to_user(..., "paired")``) and the per-person socket turns that into a
navigation; the lobby's waiting status, which refreshes every 2 s, also sends
the page to the table itself (``HX-Redirect``); the test waits for the table's
URL either way.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.browser.pages import TablePage, sign_up


def press_play_now(page, variant: str, fmt: str, first: bool) -> None:
    """Press Play now; the first to press waits in the pool (the others may be
    paired as soon as they join, before their lobby shows the wait)."""
    page.goto("/")
    form = page.locator("form[data-play-now]")
    form.locator("select[name=variant]").select_option(variant)
    form.locator("select[name=format]").select_option(fmt)
    form.locator("input[name=rated]").check()
    form.locator('[data-action="play-now"]').click()
    if not first:
        return
    status = page.locator("[data-queue-status]")
    status.wait_for(state="visible")
    assert status.get_attribute("data-waiting-seconds") is not None
    assert page.locator('[data-action="leave-queue"]').count() == 1


def username_of(page) -> str:
    href = page.locator("header nav a", has_text="Profile").get_attribute("href")
    return href.rstrip("/").rsplit("/", 1)[1]


def play_until_over(tables: list[TablePage], timeout_s: float = 240) -> None:
    """Each person moves on their turn until the match is over on every page."""
    deadline = time.monotonic() + timeout_s
    last: dict[int, int | None] = {id(t): None for t in tables}
    while time.monotonic() < deadline:
        if all(t.page.locator(".match-over").count() for t in tables):
            return
        for t in tables:
            if t.page.locator(".match-over").count():
                continue
            try:
                state = t.wait_turn(last[id(t)], timeout=250)
            except AssertionError:
                continue
            if state == "turn":
                last[id(t)] = t.act()
        time.sleep(0.05)
    raise AssertionError("the match did not end")


def meet_and_play(new_page, site_db, variant: str, fmt: str, people: int) -> None:
    pages = [new_page() for _ in range(people)]
    names = []
    for i, page in enumerate(pages):
        sign_up(page, f"Pn{i}")
        names.append(username_of(page))
    for i, page in enumerate(pages):
        press_play_now(page, variant, fmt, first=i == 0)
    urls = set()
    for page in pages:
        # Polled, not awaited as one navigation: a page may start more than one on
        # its way (its form's redirect to the lobby, the socket's "go"), and the
        # later aborts the earlier; what counts is where it ends.
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"), timeout=30_000)
        urls.add(page.url)
    assert len(urls) == 1  # everyone at one table
    table_id = int(re.search(r"/tables/(\d+)/$", urls.pop()).group(1))
    site_db.set_bot_delay(table_id, 100)
    tables = [TablePage(page, table_id, site_db).wait_live() for page in pages]
    for t in tables:
        assert t.attr("data-rated") == "1"
    play_until_over(tables)
    for t in tables:
        for name in names:
            change = t.page.locator(f'[data-rating-change][data-player="{name}"]')
            change.wait_for(state="visible")
            assert re.fullmatch(r"[+-]\d+", change.inner_text())
    # The match page shows the same changes.
    pages[0].locator(".match-over a").click()
    pages[0].wait_for_url(re.compile(r"/matches/\d+/$"))
    for name in names:
        assert pages[0].locator(f'[data-rating-change][data-player="{name}"]').count() == 1
    # And the player page the new (provisional) rating.
    pages[0].goto(f"/players/{names[0]}/")
    shown = pages[0].locator(f'[data-rating][data-variant="{variant}"]').inner_text()
    assert shown.endswith("?")


def test_two_people_press_play_now_meet_at_open_blot_and_see_their_ratings_move(
    new_page, site_db
):
    meet_and_play(new_page, site_db, "open_blot", "best_of:1", 2)


def test_four_people_press_play_now_and_meet_at_a_belote_table(new_page, site_db):
    meet_and_play(new_page, site_db, "belote", "best_of:1", 4)
