"""Ratings and pairing a player can trust, in real Chromium (two or three people,
each in their own browser context):

- a person who closes their last tab leaves the pool within seconds, and nobody
  is seated with them afterwards;
- two people far apart are told why they wait, and their window widens;
- a new player's number is the same on the leaderboard's sentence, their page,
  the table (players and spectators), the lobby's list and the match page;
- a rated match both sides abandoned to stand-ins moves no rating.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.browser.pages import TablePage, sign_up

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


def username_of(page) -> str:
    href = page.locator("header nav a", has_text="Profile").get_attribute("href")
    return href.rstrip("/").rsplit("/", 1)[1]


def person(new_page, name: str, viewport=None):
    page = new_page(viewport)
    sign_up(page, name)
    return page, username_of(page)


def press_play_now(page, variant: str, fmt: str, rated: bool = True) -> None:
    page.goto("/")
    form = page.locator("form[data-play-now]")
    form.locator("select[name=variant]").select_option(variant)
    form.locator("select[name=format]").select_option(fmt)
    if rated:
        form.locator("input[name=rated]").check()
    form.locator('[data-action="play-now"]').click()


def until(check, timeout_s: float, every_s: float = 0.1):
    """Poll ``check`` until it returns something true; that value, or AssertionError."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every_s)
    raise AssertionError(f"not within {timeout_s} s")


def test_a_closed_tab_leaves_the_pool_and_nobody_is_seated_with_a_ghost(new_page, site_db):
    fmt = "best_of:5"
    ghost, ghost_name = person(new_page, "Ghost")
    stay, stay_name = person(new_page, "Stay")
    press_play_now(ghost, "open_blot", fmt)
    ghost.locator("[data-queue-status]").wait_for()
    assert site_db.pool_entry(ghost_name) is not None
    # A second tab of theirs, on another page (no waiting status there, only
    # their own socket): closing the lobby keeps them in the pool.
    second = ghost.context.new_page()
    second.goto(f"/players/{ghost_name}/")
    expect(second.locator("html")).to_have_attribute("data-person-socket", "open")
    ghost.close()
    time.sleep(5)
    assert site_db.pool_entry(ghost_name) is not None, "a tab of theirs is still open"
    closed = time.monotonic()
    second.close()  # the last one
    until(lambda: site_db.pool_entry(ghost_name) is None, 10)
    left_after = time.monotonic() - closed
    assert left_after < 5, f"left the pool {left_after:.1f} s after the last tab closed"
    # The one who stayed is told they are alone, and is seated with nobody.
    press_play_now(stay, "open_blot", fmt)
    reason = stay.locator("[data-queue-reason]")
    expect(reason).to_contain_text("nobody else is in this pool")
    time.sleep(3)  # three pairing passes
    assert site_db.tables_of(ghost_name) == []
    assert site_db.pool_entry(stay_name)["table"] is None
    # Someone who is there: seated with them at once.
    third, third_name = person(new_page, "Third")
    press_play_now(third, "open_blot", fmt)
    for page in (stay, third):
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"), timeout=30_000)
    table_id = int(re.search(r"/tables/(\d+)/$", stay.url).group(1))
    assert site_db.seated_at(table_id) == {stay_name, third_name}
    print(f"left the pool {left_after:.2f} s after the last tab closed")


def test_closing_the_lobby_that_shows_the_wait_leaves_the_pool_within_five_seconds(
    new_page, site_db
):
    """The slowest case: the last tab is the lobby, whose status has just shown
    them waiting (it counts for 3 s) as well as holding their socket."""
    fmt = "first_to:501"
    timings = []
    for attempt in range(3):
        page, name = person(new_page, f"Lobby{attempt}")
        press_play_now(page, "open_blot", fmt, rated=False)
        status = page.locator("[data-queue-status]")
        status.wait_for()
        # Just after a refresh of the status (every 2 s): the longest grace left.
        seconds = status.get_attribute("data-waiting-seconds")
        page.wait_for_function(
            "s => { const e = document.querySelector('[data-queue-status]');"
            " return e && e.dataset.waitingSeconds !== s; }",
            arg=seconds,
        )
        closed = time.monotonic()
        page.close()
        until(lambda n=name: site_db.pool_entry(n) is None, 10)
        timings.append(time.monotonic() - closed)
    print("left the pool after closing the lobby:", ", ".join(f"{t:.2f} s" for t in timings))
    assert max(timings) < 5


def test_two_people_far_apart_are_told_why_they_wait(new_page, site_db):
    fmt = "first_to:2001"
    low, low_name = person(new_page, "Low", PHONE)
    high, high_name = person(new_page, "High")
    site_db.set_rating(low_name, "open_blot", 815, matches=3)
    site_db.set_rating(high_name, "open_blot", 2200, matches=12)
    press_play_now(low, "open_blot", fmt)
    press_play_now(high, "open_blot", fmt)
    status = low.locator("[data-queue-status]")
    expect(status).to_have_attribute("data-in-pool", "2", timeout=10_000)
    window = low.locator("[data-queue-window]")
    expect(window).to_contain_text("Your rating here is 815?.")
    expect(window).to_contain_text("0 other people waiting are within your range")
    reason = low.locator("[data-queue-reason]")
    expect(reason).to_contain_text(
        "You wait because the nearest players are rated outside your range, or you "
        "outside theirs. If everyone waits on, the ranges meet in about"
    )
    first = int(window.get_attribute("data-queue-window"))
    seconds = int(re.search(r"in about (\d+) seconds", reason.inner_text()).group(1))
    assert 60 <= seconds <= 86  # (2200 - 815 - 100) / 15 = 85.7 s, less what they waited
    # The window widens as they wait (the status refreshes every 2 s).
    until(lambda: int(window.get_attribute("data-queue-window")) > first + 15, 10)
    expect(high.locator("[data-queue-window]")).to_contain_text("Your rating here is 2200.")
    assert site_db.pool_entry(low_name)["table"] is None
    assert low.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    low.screenshot(path="/tmp/r36-queue-phone.png", full_page=True)
    high.screenshot(path="/tmp/r36-queue-desktop.png", full_page=True)
    for page in (low, high):
        page.locator('[data-action="leave-queue"]').click()
        page.locator("form[data-play-now]").wait_for()
    # The form kept what they chose.
    assert low.locator("select[name=format]").input_value() == fmt
    assert low.locator("input[name=rated]").is_checked()


def test_a_new_players_number_agrees_everywhere(new_page, site_db):
    ann, ann_name = person(new_page, "Ann")
    ann.goto("/leaderboard/open-blot/")
    assert "a new player starts at 1500?, level with the Normal bot" in ann.locator(
        "[data-scale-note]"
    ).inner_text()
    assert ann.locator('tr[data-bot-rating="normal"][data-level="normal"]').count() == 1
    ann.goto(f"/players/{ann_name}/")
    assert ann.locator('[data-rating][data-variant="open_blot"]').inner_text() == "1500?"
    # A table with someone settled: each sees both numbers, and so does a spectator.
    bob, bob_name = person(new_page, "Bob")
    site_db.set_rating(bob_name, "open_blot", 1612, matches=14)
    ann.goto("/tables/new/?variant=open_blot")
    ann.locator("select[name=seat_1]").select_option("open")
    ann.get_by_role("button", name="Create the table").click()
    ann.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", ann.url).group(1))
    assert ann.locator("li.seat [data-seat-rating]").first.inner_text() == "1500?"
    bob.goto(f"/tables/{table_id}/")
    bob.locator("li.seat form button").first.click()
    for page in (ann, bob, spectator := new_page(PHONE)):
        TablePage(page, table_id, site_db).open()
    for page in (ann, bob, spectator):
        ratings = {
            page.locator(f'[data-seat-place="{i}"] [data-seat-rating]').inner_text()
            for i in (0, 1)
        }
        assert ratings == {"1500?", "1612"}
    spectator.screenshot(path="/tmp/r36-seat-ratings-phone.png")
    bob.goto("/")
    row = bob.locator(f'li.table-row[data-table="{table_id}"]')
    expect(row.locator("[data-seat-rating]").first).to_be_visible()
    assert set(row.locator("[data-seat-rating]").all_inner_texts()) == {"1500?", "1612"}
    match = site_db.match_of(table_id)
    bob.goto(f"/matches/{match['id']}/")
    assert bob.locator(f'[data-player-rating="{ann_name}"]').inner_text() == "1500?"
    assert bob.locator(f'[data-player-rating="{bob_name}"]').inner_text() == "1612"


def play_cards(tables: list[TablePage], site_db, table_id: int, cards: int) -> None:
    """Each person moves on their turn until ``cards`` cards have been played."""
    last: dict[int, int | None] = {id(t): None for t in tables}
    deadline = time.monotonic() + 120
    while site_db.cards_played(table_id) < cards:
        assert time.monotonic() < deadline, "the cards were not played"
        for t in tables:
            try:
                state = t.wait_turn(last[id(t)], timeout=250)
            except AssertionError:
                continue
            if state == "turn":
                last[id(t)] = t.act()


def leave(page) -> None:
    for _ in range(5):  # a redraw between press and release loses a click
        try:
            page.locator('#table-root a[data-action="leave"]').click(timeout=5_000)
            page.locator("#leave-dialog").wait_for(state="visible", timeout=5_000)
            break
        except Exception:
            continue
    with page.expect_navigation():
        page.locator('#leave-dialog [data-action="leave-confirm"]').click()


def test_a_rated_match_both_sides_abandoned_moves_no_rating(new_page, site_db):
    fmt = "first_to:1001"
    ann, ann_name = person(new_page, "Quit")
    bob, bob_name = person(new_page, "Gone")
    press_play_now(ann, "open_blot", fmt)
    press_play_now(bob, "open_blot", fmt)
    for page in (ann, bob):
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"), timeout=30_000)
    table_id = int(re.search(r"/tables/(\d+)/$", ann.url).group(1))
    tables = [TablePage(page, table_id, site_db).wait_live() for page in (ann, bob)]
    assert tables[0].attr("data-rated") == "1"
    play_cards(tables, site_db, table_id, 16)  # past half a deal: a real match
    leave(ann)
    leave(bob)
    until(lambda: site_db.match_of(table_id)["status"] == "finished", 15)
    match = site_db.match_of(table_id)
    assert match["rated"] and match["changes"] == 0 and match["unrated"] == "stand-ins"
    ann.goto(f"/matches/{match['id']}/")
    note = ann.locator('[data-unrated="stand-ins"]')
    assert note.inner_text() == "This match was not rated: both sides left it to stand-ins."
    assert ann.locator("[data-rating-change]").count() == 0
    for name in (ann_name, bob_name):
        ann.goto(f"/players/{name}/")
        assert ann.locator('[data-rating][data-variant="open_blot"]').inner_text() == "1500?"


#: An analysed deal (one card marked though best with all cards known, one blunder)
#: and a rated match both sides left to stand-ins; prints the replay's address at
#: the first marked card and the unrated match's page.
ANALYSED_AND_UNRATED = """
import random
from django.contrib.auth import get_user_model
from games.models import DealAnalysis, RuleSetConfig
from games.services import seating, tables
from games.services.matches import finish_deal
User = get_user_model()
def person(name):
    return User.objects.filter(username=name).first() or User.objects.create_user(
        name, password="a-long-enough-Passw0rd")
a, b = person("polyglot-a"), person("polyglot-b")
table = tables.create_table(user=a, variant="belote", fmt="first_to:1001",
    rule_set=RuleSetConfig.objects.get(variant="belote", is_default=True),
    others=["normal", "normal", "normal"])
match = table.matches.get()
deal = match.deals.get()
played = deal.rebuild()
rng = random.Random(36)
while not played.is_over:
    legal = played.legal_actions()
    takes = [x for x in legal if x.type == "take"]
    played.apply(takes[0] if takes else rng.choice(legal))
deal.actions = [x.to_dict() for x in played.history]
deal.save(update_fields=["actions"])
finish_deal(deal)
plays = [i for i, x in enumerate(deal.actions) if x["type"] == "play"]
one, two = plays[:2]
c1, c2 = deal.actions[one]["card"], deal.actions[two]["card"]
steps = [
    {"step": one, "seat": deal.actions[one]["seat"], "chosen": c1, "honest": {c1: 70.0, "XX": 82.0},
     "loss": 12.0, "mark": "inaccuracy", "exact": {c1: 94, "XX": 94}, "exact_loss": 0},
    {"step": two, "seat": deal.actions[two]["seat"], "chosen": c2, "honest": {c2: 20.0, "YY": 80.0},
     "loss": 60.0, "mark": "blunder", "exact": {c2: 40, "YY": 90}, "exact_loss": 50},
]
DealAnalysis.objects.create(deal=deal, status="done", total_steps=len(deal.actions),
    done_steps=len(deal.actions), result={"play_unit": "card", "steps": steps,
    "graph": [[i, 60 + i] for i in plays], "accuracy": {"0": 91.5, "1": 88.0}, "samples": 3})
duel = tables.create_table(user=a, variant="open_blot", fmt="best_of:1", rated=True,
    rule_set=RuleSetConfig.objects.get(variant="open_blot", is_default=True), others=["open"])
tables.join_seat(duel.pk, b, 1)
rated = duel.matches.get()
d = rated.deals.get()
engine = d.rebuild()
cards = 0
while cards < 20:
    legal = engine.legal_actions()
    bids = [x for x in legal if x.type in ("take", "choose")]
    x = bids[0] if bids else rng.choice(legal)
    engine.apply(x)
    cards += x.type == "play"
d.actions = [x.to_dict() for x in engine.history]
d.save(update_fields=["actions"])
seating.leave(duel.pk, a)
seating.leave(duel.pk, b)
print(f"/matches/{match.pk}/deals/1/replay/?step={one}", f"/matches/{rated.pk}/")
"""


def test_the_changed_pages_fit_a_phone_in_every_language(new_page, site_db, blot_server):
    from tests.browser.servers import manage
    from tests.browser.test_languages import switch_language

    replay, unrated = manage(blot_server.env, "shell", "-c", ANALYSED_AND_UNRATED).split()[-2:]
    page, name = person(new_page, "Poly", PHONE)
    press_play_now(page, "open_blot", "best_of:3")
    page.locator("[data-queue-status]").wait_for()
    # The lobby open in a second tab, as someone browsing while they wait keeps
    # it: on a busy machine a page can take longer to open its socket than the
    # pool waits for someone between two pages.
    page.context.new_page().goto("/")
    with site_db_connection(site_db) as db:  # waited long enough to be offered alternatives
        db.execute(
            "UPDATE games_poolentry SET joined_at = datetime('now', '-60 seconds') WHERE user_id"
            " = (SELECT id FROM auth_user WHERE username = ?)",
            (name,),
        )
    pages = ["/", "/leaderboard/open-blot/", replay, unrated]
    for language in ("en", "fr", "ru", "hy", "ka"):
        if language != "en":
            switch_language(page, language)
        for path in pages:
            page.goto(path)
            if path == "/":
                page.locator("[data-queue-alternatives]").wait_for()
            if path == replay:
                assert page.locator("a[data-graph-step]").count() >= 8
                assert page.locator("[data-marked-decisions] a[data-mark]").count() == 2
                assert page.locator("[data-best-exact]").count() == 1
            if path == unrated:
                assert page.locator('[data-unrated="stand-ins"]').count() == 1
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{path} in {language}: {width} px wide"
        if language in ("en", "hy"):
            page.goto(replay)
            page.screenshot(path=f"/tmp/r36-replay-{language}-phone.png", full_page=True)
    # The graph's steps lead to their step, the current one marked.
    page.goto(replay)
    step = page.locator("[data-replay]").get_attribute("data-step")
    current = page.locator('a[data-graph-step][aria-current="step"]')
    assert current.get_attribute("data-graph-step") == step
    later = page.locator("a[data-graph-step]").nth(5)
    target = later.get_attribute("data-graph-step")
    later.click()
    page.wait_for_url(re.compile(rf"step={target}$"))
    assert page.locator("[data-replay]").get_attribute("data-step") == target


def site_db_connection(site_db):
    import sqlite3

    return sqlite3.connect(site_db.path, timeout=10)
