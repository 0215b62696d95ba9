"""What a new player tripped over, in real Chromium: quick play with a
bot level, resigning a bot match (the dialog's focus on Cancel) and the bot-table
limit freed, a deal's result that stays until Next deal, a timed-out turn said at
the seat, a tournament table that links back, and every page within a 390 px
phone in every language.

Set ``BLOT_SCREENSHOTS=<folder>`` to save screenshots of these screens there
(never into the repository)."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

from tests.browser.pages import SiteDB, TablePage, sign_up

SHOTS = os.environ.get("BLOT_SCREENSHOTS")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
LANGUAGES = ("en", "fr", "ru", "hy", "ka")
BOT_DELAY_MS = 120
LONG = 120_000


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def sql(db: SiteDB, query: str, params: tuple = ()) -> list[tuple]:
    with sqlite3.connect(db.path, timeout=10) as conn:
        return conn.execute(query, params).fetchall()


def quick_play(page, variant: str, level: str | None = None) -> int:
    page.goto("/")
    if level:
        page.locator("[data-play-bots] >> xpath=ancestor::form").first.locator(
            "select[name=bot_level]"
        ).select_option(level)
    page.locator(f'[data-play-bots="{variant}"]').click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/$", page.url).group(1))


def page_width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def resign(page) -> None:
    page.locator('#table-root a[data-action="resign"]').click()
    page.locator("#resign-dialog").wait_for()
    with page.expect_navigation():
        page.locator('#resign-dialog [data-action="resign-confirm"]').click()


def test_quick_play_levels_resigning_and_the_freed_limit(new_page, site_db):
    page = new_page(DESKTOP)
    sign_up(page, "Narek")
    first = quick_play(page, "open_blot", "easy")
    assert sql(
        site_db, 'SELECT bot_level FROM games_seat WHERE table_id = ? AND "index" = 1', (first,)
    ) == [("easy",)]
    page.goto("/")
    assert page.locator("select[name=bot_level]").input_value() == "easy", "remembered"

    # The resign dialog opens with the focus on Cancel: Enter resigns nothing.
    page.goto(f"/tables/{first}/")
    TablePage(page, first, site_db).wait_live()
    page.locator('#table-root a[data-action="resign"]').click()
    page.locator("#resign-dialog").wait_for()
    assert page.evaluate("() => document.activeElement.dataset.action") == "resign-cancel"
    shot(page, "resign-dialog-desktop-en")
    page.keyboard.press("Enter")
    assert not page.locator("#resign-dialog").is_visible()
    assert sql(site_db, "SELECT status FROM games_match WHERE table_id = ?", (first,)) == [
        ("playing",)
    ]
    resign(page)
    page.locator("#table-root [data-resigned]").wait_for()
    assert page.locator("#table-root [data-status]").inner_text() == "Match over"
    assert sql(site_db, "SELECT status, winner FROM games_match WHERE table_id = ?", (first,)) == [
        ("finished", 1)
    ]
    shot(page, "resigned-player-desktop-en")
    spectator = new_page(PHONE)
    spectator.goto(f"/tables/{first}/")
    spectator.locator("#table-root [data-resigned]").wait_for()
    assert page_width(spectator) <= PHONE["width"]
    shot(spectator, "resigned-spectator-phone-en")
    match_id = sql(site_db, "SELECT id FROM games_match WHERE table_id = ?", (first,))[0][0]
    page.goto(f"/matches/{match_id}/")
    assert page.locator("[data-resigned]").count() == 1
    assert page.locator('#seat-events [data-event="resigned"]').count() == 1

    # Three more bot tables: the resigned one no longer counts against the limit.
    for _ in range(3):
        quick_play(page, "belote")
    page.goto("/")
    page.locator('[data-play-bots="belote"]').click()
    assert "already have 3 tables with bots" in page.locator(".messages").inner_text()


def test_the_result_stays_until_next_deal_and_a_timeout_is_said(new_page, site_db):
    page = new_page(PHONE)
    sign_up(page, "Narek")
    table_id = quick_play(page, "open_blot", "easy")
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    tp = TablePage(page, table_id, site_db).wait_live()
    tp.play()  # one whole deal, by clicking
    page.locator("#table-root [data-deal-result]").wait_for()
    page.wait_for_timeout(3000)  # longer than the old 2.5 s
    assert page.locator("#table-root [data-deal-result]").count() == 1
    assert tp.attr("data-deal") == "1"
    button = page.locator('#table-root [data-action="next-deal"]')
    assert button.is_visible()
    assert tp.focused() == "next-deal"  # Enter deals the next deal
    tp.assert_on_first_screen('#table-root [data-action="next-deal"]')
    assert page_width(page) <= PHONE["width"]
    shot(page, "result-next-deal-player-phone-en")
    watcher = new_page(DESKTOP)
    watcher.goto(f"/tables/{table_id}/")
    TablePage(watcher, table_id, site_db).wait_live()
    assert watcher.locator('#table-root [data-action="next-deal"]').count() == 0
    assert watcher.locator("#table-root [data-deal-result] [data-countdown]").count() == 1
    shot(watcher, "result-spectator-desktop-en")
    tp.next_deal()
    page.wait_for_function("() => document.getElementById('table-root').dataset.deal === '2'")

    # A timeout: the clock runs out on my turn; a bot plays for me and says so.
    with sqlite3.connect(site_db.path, timeout=10) as conn:
        conn.execute("UPDATE games_table SET turn_seconds = 5 WHERE id = ?", (table_id,))
    page.reload()
    tp.wait_live()
    tp.wait_turn(timeout=LONG)
    seat = page.locator('[data-seat-place="0"][data-stand-in]')
    seat.wait_for(timeout=20_000)
    assert "Time ran out — a bot played for you" in seat.inner_text()
    tp.assert_on_first_screen('[data-seat-place="0"] [data-timed-out]')
    assert page.locator('#table-root a[data-action="return"]').count() == 1
    shot(page, "timed-out-player-phone-en")
    watcher.locator('[data-seat-place="0"][data-stand-in]').wait_for()
    assert (
        "Time ran out — a bot is playing" in watcher.locator('[data-seat-place="0"]').inner_text()
    )
    # The stand-in's clock, not a full 30 s one, for the timed-out seat.
    assert watcher.locator('[data-seat-place="0"] [data-countdown]').count() == 0
    shot(watcher, "timed-out-spectator-desktop-en")
    # Back at the seat with a whole turn's time: a 5 s turn could run out again
    # before a loaded machine has drawn the page that shows the return.
    with sqlite3.connect(site_db.path, timeout=10) as conn:
        conn.execute("UPDATE games_table SET turn_seconds = 600 WHERE id = ?", (table_id,))
    page.locator('#table-root a[data-action="return"]').click()
    page.locator('[data-seat-place="0"][data-stand-in]').wait_for(state="detached")


def test_a_tournament_table_links_back_and_the_bracket_fits(new_page, site_db):
    page = new_page(DESKTOP)
    sign_up(page, "Narek")
    page.goto("/tournaments/new/")
    form = page.locator("#tournament-form")
    form.locator("input[name=name]").fill("Phone Cup")
    form.locator("select[name=variant]").select_option("open_blot")
    form.locator("select[name=kind]").select_option("knockout")
    form.locator("select[name=match_format]").select_option("best_of:3")
    form.locator("input[name=max_entrants]").fill("4")
    form.locator("select[name=fill_with_bots]").select_option("easy")
    form.locator("input[name=bot_delay_ms]").fill("0")
    form.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    path = re.search(r"/tournaments/\d+/$", page.url).group(0)
    page.locator("[data-action=register]").click()
    page.wait_for_url(re.compile(path + "$"))
    page.locator("[data-action=start]").click()
    page.locator("[data-tournament-status=running]").wait_for()
    page.locator("#tournament-live [data-your-match]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    tp = TablePage(page, table_id, site_db).wait_live()
    # The bot across the table is the entrant the bracket names.
    opponent = page.locator('[data-seat-place="1"] .seat-name').inner_text()
    assert page.locator("a[data-tournament-link]").count() == 1
    resign(page)
    tp.wait_live()
    page.locator("#table-root .match-over a[data-tournament-link]").wait_for()
    assert page.locator('#table-root [data-action="rematch"]').count() == 0
    shot(page, "tournament-table-over-desktop-en")
    page.locator("#table-root .match-over a[data-tournament-link]").click()
    page.wait_for_url(re.compile(path + "$"))
    page.locator("[data-bracket-match][data-round='1'][data-winner]").first.wait_for()
    assert opponent in page.locator(".bracket").inner_text()
    # Entrants are numbered once ("1 Narek", not "1. 1 Narek").
    row = page.locator("[data-entrant-row]").first
    assert row.evaluate("el => getComputedStyle(el).listStyleType") == "none"
    # The lines of the bracket: each first-round pair has its spine beside it.
    spine = page.locator(".bracket-round").first.locator("[data-bracket-pair]").first
    assert spine.evaluate("el => getComputedStyle(el, '::after').borderRightStyle") == "solid"
    # Wait for the other semifinal (bots) so deals won show for a best of three.
    page.wait_for_function(
        "() => document.querySelectorAll(\"[data-bracket-match][data-round='1'][data-winner]\")"
        ".length === 2",
        timeout=LONG,
    )
    shot(page, "bracket-desktop-en")
    points = [int(p) for p in page.locator("[data-bracket-match] .pts").all_inner_texts()]
    assert points and max(points) <= 3, "a best of three shows deals won, not points"
    page.set_viewport_size(PHONE)
    assert page_width(page) <= PHONE["width"]
    shot(page, "bracket-phone-en")


def pages_to_check(db: SiteDB, username: str) -> list[str]:
    matches = sql(
        db,
        "SELECT m.id, m.table_id FROM games_match m JOIN games_participant p ON p.match_id = m.id"
        " JOIN auth_user u ON u.id = p.user_id WHERE u.username = ? AND m.status = 'finished'"
        " ORDER BY m.id",
        (username,),
    )
    tournaments = sql(db, "SELECT id FROM games_tournament ORDER BY id DESC LIMIT 1")
    swiss = sql(db, "SELECT id FROM games_tournament WHERE kind != 'knockout' LIMIT 1")
    paths = ["/", "/rules/belote/", "/rules/open-blot/", "/tournaments/", f"/players/{username}/"]
    paths += [f"/tables/{t}/" for _m, t in matches[-2:]]
    paths += [f"/matches/{m}/" for m, _t in matches[-2:]]
    paths += [f"/tournaments/{t}/" for (t,) in tournaments + swiss]
    return paths


def test_every_page_fits_a_phone_in_every_language(new_page, site_db):
    """Lobby, rules, tournaments (bracket, standings), match pages, the player's
    page and tables at match end with a deal's result, in en, fr, ru, hy, ka, as
    the signed-in player and as a spectator."""
    page = new_page(PHONE)
    name = sign_up(page, "Narek")
    username = sql(
        site_db,
        "SELECT u.username FROM auth_user u JOIN games_player p"
        " ON p.user_id = u.id WHERE p.display_name = ?",
        (name,),
    )[0][0]
    # A match played to its end (a best of one against an Easy bot), so the table
    # shows the match over with the last deal's result, and a Belote one resigned.
    page.goto("/tables/new/?variant=open_blot")
    page.locator("select[name=format]").select_option("best_of:1")
    page.locator("select[name=seat_1]").select_option("easy")
    page.locator("form.table-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    tp = TablePage(page, table_id, site_db).wait_live()
    for _ in range(10):
        tp.play()
        if sql(site_db, "SELECT status FROM games_match WHERE table_id = ?", (table_id,)) == [
            ("finished",)
        ]:
            break
        page.locator('#table-root [data-action="next-deal"]').wait_for()
        tp.next_deal()
    page.locator("#table-root .match-over").wait_for()
    belote = quick_play(page, "belote")
    TablePage(page, belote, site_db).wait_live()
    resign(page)
    # A swiss tournament, for its standings.
    page.goto("/tournaments/new/")
    form = page.locator("#tournament-form")
    form.locator("input[name=name]").fill("Swiss Cup")
    form.locator("select[name=variant]").select_option("open_blot")
    form.locator("select[name=kind]").select_option("swiss")
    form.locator("select[name=match_format]").select_option("best_of:1")
    form.locator("input[name=max_entrants]").fill("4")
    form.locator("select[name=fill_with_bots]").select_option("easy")
    form.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    page.locator("[data-action=start]").click()
    page.locator("[data-tournament-status=running]").wait_for()

    spectator = new_page(PHONE)
    too_wide = []
    for language in LANGUAGES:
        with page.expect_navigation():
            page.locator("header select[name=language]").select_option(language)
        spectator.goto("/")
        if spectator.locator("html").get_attribute("lang") != language:
            with spectator.expect_navigation():
                spectator.locator("header select[name=language]").select_option(language)
        for path in pages_to_check(site_db, username):
            for who, view in (("player", page), ("spectator", spectator)):
                view.goto(path)
                if "/tables/" in path:
                    view.locator("#table-root").wait_for()
                assert view.locator("html").get_attribute("lang") == language, (who, path)
                width = page_width(view)
                if language == "hy":
                    slug = path.strip("/").replace("/", "-") or "lobby"
                    shot(view, f"page-{slug}-{who}-phone-hy")
                if width > PHONE["width"]:
                    too_wide.append(f"{language} {who} {path}: {width} px")
        # The header is a menu on a phone: its links open from it, none broken in two.
        page.goto("/")
        assert not page.locator("header nav").is_visible()
        page.locator("[data-menu-button]").click()
        assert page.locator("header nav").is_visible()
        heights = page.eval_on_selector_all(
            "header nav > a", "els => els.map(e => e.getBoundingClientRect().height)"
        )
        assert max(heights) < 2 * min(heights), "a header link broke across lines"
        if language in ("en", "ka", "hy"):
            shot(page, f"menu-open-phone-{language}")
            page.goto(f"/tables/{table_id}/")
            page.locator("#table-root").wait_for()
            shot(page, f"match-over-player-phone-{language}")
            spectator.goto(f"/tables/{table_id}/")
            spectator.locator("#table-root").wait_for()
            shot(spectator, f"match-over-spectator-phone-{language}")
            spectator.set_viewport_size(DESKTOP)
            shot(spectator, f"match-over-spectator-desktop-{language}")
            spectator.set_viewport_size(PHONE)
            page.set_viewport_size(DESKTOP)
            shot(page, f"match-over-player-desktop-{language}")
            page.set_viewport_size(PHONE)
    assert too_wide == [], "\n".join(too_wide)


def test_phone_details_touch_hints_edges_red_suits_and_the_background(
    browser, blot_server, site_db
):
    """On a touch phone no key hints show, bid buttons and Leave keep off the
    screen's left edge, hearts and diamonds are red in the result and the score
    table, and a long page's background does not turn white below the fold."""
    context = browser.new_context(
        base_url=blot_server.url, viewport=PHONE, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(20_000)
    from tests.browser.pages import RECORDER_JS

    context.add_init_script(RECORDER_JS)
    try:
        page = context.new_page()
        sign_up(page, "Nare")
        table_id = quick_play(page, "belote", "easy")
        site_db.set_bot_delay(table_id, BOT_DELAY_MS)
        tp = TablePage(page, table_id, site_db).wait_live()
        tp.wait_turn(timeout=LONG)
        kbd = page.locator("#controls kbd")
        assert all(not k.is_visible() for k in kbd.all()), "key hints on a touch screen"
        for control in page.locator(
            "#controls button[data-action], #controls a[data-action]"
        ).all():
            box = control.bounding_box()
            if box:
                assert box["x"] >= 4, f"a control touches the left edge: {box}"
        tp.play(card_plays=100)  # the whole deal, until its result
        page.locator("#table-root [data-deal-result]").wait_for()
        # Every suit named in the score table and the result: ♥ ♦ red, ♣ ♠ not.
        colors = page.evaluate(
            """() => [...document.querySelectorAll(
                 '#score-table tbody td, #table-root [data-deal-result] .summary span')]
               .filter(el => ['♥', '♦', '♣', '♠'].includes(el.textContent.trim()))
               .map(el => [el.textContent.trim(), getComputedStyle(el).color])"""
        )
        assert colors, "no suit named in the score table"
        red = "rgb(192, 38, 45)"
        for suit, color in colors:
            assert (color == red) == (suit in "♥♦"), (suit, color)
        shot(page, "result-player-phone-touch-en")
        # A long page: the html element carries the felt, not white.
        page.goto("/rules/belote/")
        color = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
        assert color not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")
    finally:
        context.close()
