"""People meeting people in real Chromium: a challenge sent from a player's page
reaches the other person's open page by push, and accepting it in that other
browser sends both to the same table; a tournament's "your match is ready"
appears on another open page when the match begins and goes when it ends,
without a reload."""

from __future__ import annotations

import re

from tests.browser.pages import TablePage, sign_up
from tests.browser.test_languages import switch_language
from tests.browser.test_tournament import BOT_DELAY_MS, LONG, play_whole_match

TABLE_URL = re.compile(r"/tables/(\d+)/$")


def username_of(display_name: str) -> str:
    """sign_up's username for the display name it returned ("Ann 1a2b3c" → "ann1a2b3c")."""
    name, suffix = display_name.split(" ")
    return f"{name.lower()}{suffix}"


def wait_for_socket(page) -> None:
    page.locator("html[data-person-socket=open]").wait_for(state="attached")
    page.evaluate("() => { window.__sameTab = true; }")


def assert_within(page, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def test_a_challenge_accepted_in_another_browser_sends_both_to_one_table(new_page, site_db):
    challenger = new_page({"width": 1366, "height": 768})
    sign_up(challenger, "Ann")
    phone = {"width": 390, "height": 844}
    challenged = new_page(phone)
    their_name = sign_up(challenged, "Bo")
    challenged.goto("/tournaments/")  # any page: the notice comes to whatever is open
    wait_for_socket(challenged)

    challenger.goto(f"/players/{username_of(their_name)}/")
    form = challenger.locator("form[data-challenge-form]")
    form.locator("select[name=variant]").select_option("open_blot")
    form.locator("select[name=format]").select_option("best_of:1")
    form.locator("[data-action=challenge]").click()
    challenger.locator("[data-challenge-waiting]").wait_for()
    wait_for_socket(challenger)
    challenger.screenshot(path="/tmp/blot-waiting-desktop.png")

    notice = challenged.locator("[data-challenge]")
    notice.wait_for()
    assert "Ann" in notice.inner_text()
    assert challenged.evaluate("() => window.__sameTab === true")  # pushed, not reloaded
    assert_within(challenged, 390)
    challenged.screenshot(path="/tmp/blot-challenge-phone.png")
    notice.locator("[data-action=accept]").click()

    challenged.wait_for_url(TABLE_URL)
    challenger.wait_for_url(TABLE_URL, timeout=LONG)
    assert challenged.url == challenger.url
    table_id = int(TABLE_URL.search(challenger.url).group(1))
    seats = {
        TablePage(challenger, table_id, site_db).wait_live().seat(),
        TablePage(challenged, table_id, site_db).wait_live().seat(),
    }
    assert seats == {0, 1}


def test_the_tournament_banner_comes_and_goes_by_push(new_page, site_db):
    page = new_page()
    name = sign_up(page)
    page.goto("/tournaments/new/")
    form = page.locator("#tournament-form")
    form.locator("input[name=name]").fill("Banner Cup")
    form.locator("select[name=variant]").select_option("open_blot")
    form.locator("select[name=kind]").select_option("knockout")
    form.locator("select[name=match_format]").select_option("best_of:1")
    form.locator("input[name=max_entrants]").fill("2")
    form.locator("select[name=fill_with_bots]").select_option("easy")
    form.locator("input[name=bot_delay_ms]").fill(str(BOT_DELAY_MS))
    form.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    page.locator("[data-action=register]").click()
    page.locator("[data-action=start]").wait_for()

    # Another tab, on the player's own page, with no banner yet.
    tab = page.context.new_page()
    tab.goto(f"/players/{username_of(name)}/")
    wait_for_socket(tab)
    banner = tab.locator("#your-matches [data-your-match]")
    assert banner.count() == 0

    page.locator("[data-action=start]").click()
    banner.wait_for()
    assert tab.evaluate("() => window.__sameTab === true")

    banner.click()
    tab.wait_for_url(TABLE_URL)
    table_id = int(TABLE_URL.search(tab.url).group(1))
    tab.locator("html[data-person-socket=open]").wait_for(state="attached")
    assert not tab.locator("#your-matches [data-your-match]").is_visible()  # at it already
    # The first tab stays on the tournament page: its banner must go by push too.
    page.goto("/")
    wait_for_socket(page)
    assert page.locator("#your-matches [data-your-match]").count() == 1
    play_whole_match(TablePage(tab, table_id, site_db).wait_live(), site_db)
    page.locator("#your-matches [data-your-match]").wait_for(state="detached", timeout=LONG)
    assert page.evaluate("() => window.__sameTab === true")


LANGUAGES = ("en", "fr", "ru", "hy", "ka")


def test_follow_and_challenge_pages_fit_a_phone_in_every_language(new_page):
    phone = {"width": 390, "height": 844}
    them = new_page(phone)
    their_name = sign_up(them, "Bo")
    me = new_page(phone)
    my_name = sign_up(me, "Ann")
    # They challenge me to Belote (a long notice on every page of mine).
    them.goto(f"/players/{username_of(my_name)}/")
    form = them.locator("form[data-challenge-form]")
    form.locator("select[name=variant]").select_option("belote")
    form.locator("select[name=format]").select_option("first_to:2001")
    form.locator("[data-action=challenge]").click()
    them.locator("[data-challenge-waiting]").wait_for()

    their_page = f"/players/{username_of(their_name)}/"
    me.goto(their_page)
    me.locator("[data-action=follow]").click()
    me.locator("[data-action=unfollow]").wait_for()
    for code in LANGUAGES:
        switch_language(me, code)
        for path in (their_page, "/following/"):
            me.goto(path)
            me.locator("[data-challenge] [data-action=accept]").wait_for()
            assert me.locator("[data-action=challenge]").count() == 1, (code, path)
            assert_within(me, 390)
            if code in ("hy", "ka"):
                name = "player" if path == their_page else "following"
                me.screenshot(path=f"/tmp/blot-{name}-{code}.png", full_page=True)
    assert me.locator("[data-person][data-online='1']").count() == 1  # they are online


def test_a_declined_challenge_is_told_to_the_challenger_by_push(new_page):
    challenger = new_page()
    sign_up(challenger, "Ann")
    challenged = new_page()
    their_name = sign_up(challenged, "Bo")
    wait_for_socket(challenged)
    challenger.goto(f"/players/{username_of(their_name)}/")
    challenger.locator("form[data-challenge-form] [data-action=challenge]").click()
    challenger.locator("[data-challenge-waiting]").wait_for()
    wait_for_socket(challenger)

    challenged.locator("[data-challenge] [data-action=decline]").click()
    challenged.locator("[data-challenge]").wait_for(state="detached")
    outcome = challenger.locator("[data-challenge-outcome=declined]")
    outcome.wait_for()
    assert "declined your challenge" in outcome.inner_text()
    assert challenger.locator("[data-challenge-waiting]").count() == 0
    assert challenger.evaluate("() => window.__sameTab === true")  # pushed, not reloaded
    outcome.locator("[data-action=dismiss]").click()
    outcome.wait_for(state="detached")
