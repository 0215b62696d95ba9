"""Bot accounts in real Chromium: a person turns their account into a bot
account and makes an API token on the account page (shown once), the bot plays
through the API, and its name carries the bot mark at the table, where a person
playing against it sees it; the bot leaderboard lists the built-in levels as
fixed anchors. Screenshots at 1366x768 and 390x844 go to /tmp."""

from __future__ import annotations

import json
import re
import urllib.request

from tests.browser.pages import TablePage, sign_up
from tests.browser.test_social import username_of, wait_for_socket

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
TABLE_URL = re.compile(r"/tables/(\d+)/$")


def _call(url: str, token: str, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        url + path,
        None if body is None else json.dumps(body).encode(),
        {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method=method,
    )
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.load(answer)


def _assert_fits(page, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def become_bot_with_token(page) -> tuple[str, str]:
    """Sign up, turn the account into a bot account, make a token: (display name, token)."""
    name = sign_up(page, "Rob")
    page.goto("/accounts/profile/")
    upgrade = page.locator("form[data-bot-account]")
    upgrade.wait_for()
    assert page.locator("form[data-api-token]").count() == 0
    upgrade.locator("input[name=confirm]").check()
    upgrade.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/$"))
    assert page.locator("form[data-bot-account]").count() == 0
    form = page.locator("form[data-api-token]")
    form.locator("input[name=name]").fill("laptop")
    form.locator("button[type=submit]").click()
    shown = page.locator("[data-token-value]")
    shown.wait_for()
    return name, shown.inner_text().strip()


def test_a_person_makes_a_bot_account_and_a_token_shown_once(new_page, blot_server) -> None:
    page = new_page(DESKTOP)
    name, token = become_bot_with_token(page)
    assert token.startswith("blot_") and len(token) > 40
    assert page.locator("tr[data-api-token-row]").count() == 1
    page.screenshot(path="/tmp/b40-account-token-desktop.png", full_page=True)
    account = _call(blot_server.url, token, "GET", "/api/bot/account")
    assert account["name"] == name and account["bot"] is True

    # Never again: not on the page once it is loaded anew, nor anywhere else.
    page.goto("/accounts/profile/")
    assert token not in page.content()
    assert page.locator("[data-token-value]").count() == 0
    assert token[:12] in page.locator("tr[data-api-token-row]").inner_text()
    page.set_viewport_size(PHONE)
    _assert_fits(page, PHONE["width"])
    page.screenshot(path="/tmp/b40-account-bot-phone.png", full_page=True)

    # Revoked: the next call is refused.
    page.locator("form[data-token-revoke] button").click()
    page.locator("tr[data-api-token-row][data-revoked]").wait_for()
    request = urllib.request.Request(
        blot_server.url + "/api/bot/account", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as exc:
        assert exc.code == 401
    else:
        raise AssertionError("a revoked token was accepted")


def test_the_upgrade_form_on_both_screens(new_page) -> None:
    for size, shot in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_page(size)
        sign_up(page, "Uma")
        page.goto("/accounts/profile/")
        form = page.locator("form[data-bot-account]")
        form.wait_for()
        assert form.is_visible()
        _assert_fits(page, size["width"])
        page.screenshot(path=f"/tmp/b40-account-upgrade-{shot}.png", full_page=True)


def test_a_person_playing_a_bot_sees_its_mark_at_the_table(new_page, blot_server, site_db) -> None:
    bot_page = new_page(DESKTOP)
    bot_name, token = become_bot_with_token(bot_page)
    person = new_page(DESKTOP)
    person_name = sign_up(person, "Pia")
    person.goto("/tournaments/")
    wait_for_socket(person)

    # The bot challenges the person through the API; the person accepts on the page.
    made = _call(
        blot_server.url,
        token,
        "POST",
        f"/api/challenge/{username_of(person_name)}",
        {"variant": "open_blot", "format": "best_of:1"},
    )
    notice = person.locator(f"[data-challenge='{made['challenge']['id']}']")
    notice.wait_for()
    assert notice.locator("[data-bot-badge]").count() == 1  # "Challenge from Rob … BOT"
    notice.locator("[data-action=accept]").click()
    person.wait_for_url(TABLE_URL)
    table_id = int(TABLE_URL.search(person.url).group(1))
    site_db.set_bot_delay(table_id, 0)

    table = TablePage(person, table_id, site_db).wait_live()
    badge = person.locator(".seat-place:not(.mine) [data-bot-badge]")
    badge.wait_for()
    assert bot_name in person.locator(".seat-place:not(.mine) .seat-label").inner_text()
    assert person.locator(".seat-place.mine [data-bot-badge]").count() == 0
    table.assert_on_first_screen("[data-hand], .stacks", ".seat-place:not(.mine) [data-bot-badge]")
    person.screenshot(path="/tmp/b40-table-player-desktop.png")
    person.set_viewport_size(PHONE)
    badge.wait_for()
    _assert_fits(person, PHONE["width"])
    person.screenshot(path="/tmp/b40-table-player-phone.png")

    # A spectator sees the mark too.
    for size, shot in ((DESKTOP, "desktop"), (PHONE, "phone")):
        watcher = new_page(size)
        watcher.goto(f"/tables/{table_id}/")
        watcher.locator("[data-bot-badge]").first.wait_for()
        assert watcher.locator("[data-bot-badge]").count() == 1
        watcher.screenshot(path=f"/tmp/b40-table-spectator-{shot}.png")


def test_the_bot_leaderboard_lists_the_built_in_levels_as_anchors(
    new_page, blot_server, site_db
) -> None:
    page = new_page(DESKTOP)
    name, _token = become_bot_with_token(page)
    user_id = site_db._rows(
        "SELECT user_id FROM games_player WHERE display_name = ?", (name,)
    )[0][0]
    site_db._rows(
        "INSERT INTO games_botrating (user_id, variant, mu, sigma, shown, matches)"
        " VALUES (?, 'open_blot', 1700, 60, 1580, 12)",
        (user_id,),
    )
    for size, shot in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.goto("/bots/leaderboard/open-blot/")
        ranked = page.locator("tr[data-bot-leader][data-rank]")
        assert ranked.count() >= 1
        row = page.locator(f"tr[data-bot-leader][data-player='{username_of(name)}']")
        assert row.get_attribute("data-rank") is not None
        assert row.locator("[data-bot-badge]").count() == 1
        assert page.locator("tr[data-bot-anchor]").count() == 3
        _assert_fits(page, size["width"])
        page.screenshot(path=f"/tmp/b40-bot-leaderboard-{shot}.png", full_page=True)
