"""A tournament in real Chromium: a player creates an Open Blot knockout for four
with Easy bots filling, registers, starts it, plays their match by clicking (from
the "your match is ready" link), sees the bracket update on the tournament page
without a reload, and a spectator follows the final from the tournament page."""

from __future__ import annotations

import re
import sqlite3

from tests.browser.pages import SiteDB, TablePage, sign_up

#: The bots' pause at the tournament's tables (set on the create form).
BOT_DELAY_MS = 150
#: Generous: a whole match of bots, plus the page's poll.
LONG = 120_000


def match_finished(db: SiteDB, table_id: int) -> bool:
    with sqlite3.connect(db.path, timeout=10) as conn:
        row = conn.execute(
            "SELECT status FROM games_match WHERE table_id = ? ORDER BY id DESC LIMIT 1",
            (table_id,),
        ).fetchone()
    return row is not None and row[0] == "finished"


def play_whole_match(tp: TablePage, db: SiteDB) -> None:
    """Click through every deal of the viewer's match (best of one: usually one
    deal, more when a deal is void or a litige)."""
    last = None
    for _ in range(20):
        last = tp.play(last_version=last)
        if match_finished(db, tp.table_id):
            return
        # The next deal: a player alone with bots deals it once they have read
        # the result; then wait until the last result has gone or it is my turn.
        tp.page.locator('#table-root [data-action="next-deal"]').wait_for()
        tp.next_deal()
        tp.page.wait_for_function(
            "() => !document.getElementById('deal-result') ||"
            " document.getElementById('table-root').dataset.version > " + str(last or 0),
            timeout=LONG,
        )
    raise AssertionError("the match did not finish")


def test_it_runs_a_knockout_a_player_plays_and_a_spectator_follows(new_page, site_db):
    page = new_page()
    sign_up(page)
    page.goto("/tournaments/new/")
    form = page.locator("#tournament-form")
    form.locator("input[name=name]").fill("Browser Cup")
    form.locator("select[name=variant]").select_option("open_blot")
    form.locator("select[name=kind]").select_option("knockout")
    form.locator("select[name=match_format]").select_option("best_of:1")
    form.locator("input[name=max_entrants]").fill("4")
    form.locator("select[name=fill_with_bots]").select_option("easy")
    form.locator("input[name=bot_delay_ms]").fill(str(BOT_DELAY_MS))
    form.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    path = re.search(r"/tournaments/\d+/$", page.url).group(0)
    assert page.locator("[data-tournament-status=registration]").count() == 1

    page.locator("[data-action=register]").click()
    page.wait_for_url(re.compile(path + "$"))
    page.locator("[data-action=start]").click()
    page.locator("[data-tournament-status=running]").wait_for()
    assert page.locator("[data-bracket-match][data-round='1']").count() == 2
    assert page.locator("[data-bracket-match][data-round='2']").count() == 1

    # A second tab stays on the tournament page; a mark proves it never reloads.
    tab = page.context.new_page()
    tab.goto(path)
    tab.evaluate("() => { window.__sameTab = true; }")
    my_spot = tab.locator("#tournament-live [data-your-match]")
    assert my_spot.count() == 1

    page.locator("#tournament-live [data-your-match]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    tp = TablePage(page, table_id, site_db).wait_live()
    assert tp.seat() == 0  # the first seed holds side 0
    play_whole_match(tp, site_db)

    # The bracket on the other tab shows both first-round winners, without a reload.
    tab.wait_for_function(
        "() => document.querySelectorAll(\"[data-bracket-match][data-round='1'][data-winner]\")"
        ".length === 2",
        timeout=LONG,
    )
    assert tab.evaluate("() => window.__sameTab === true")

    # A spectator (another browser, not signed in) follows the final.
    spectator = new_page()
    spectator.goto(path)
    final = spectator.locator("[data-bracket-match][data-round='2']")
    assert final.count() == 1
    spectator.evaluate("() => { window.__sameTab = true; }")
    in_final = tab.locator("#tournament-live [data-your-match]")
    tab.wait_for_function(
        "() => document.querySelector(\"[data-bracket-match][data-round='2'] a[data-watch]\")"
        " || document.querySelector(\"[data-bracket-match][data-round='2'][data-winner]\")",
        timeout=LONG,
    )
    if in_final.count():  # the player won their semifinal: they play the final too
        in_final.click()
        tab.wait_for_url(re.compile(r"/tables/\d+/$"))
        final_id = int(re.search(r"/tables/(\d+)/$", tab.url).group(1))
        play_whole_match(TablePage(tab, final_id, site_db).wait_live(), site_db)
    spectator.locator("[data-tournament-status=finished]").wait_for(timeout=LONG)
    assert spectator.evaluate("() => window.__sameTab === true")
    winner = final.get_attribute("data-winner")
    assert winner
    assert (
        spectator.locator(
            f"#tournament-live [data-entrant-row='{winner}'] [data-place='1']"
        ).count()
        == 1
    )
    assert spectator.locator("[data-bracket-match] a[data-score]").count() == 3
