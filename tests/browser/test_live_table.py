"""The live table in real Chromium: a person signs up, creates a table and plays by
clicking; a spectator watches; a reload mid-deal restores the table.

Before every move the page's buttons are checked against the engine's legal moves
at the version the page shows (read from the server's database), so only legal
cards were ever buttons; no refusal message ever reaches the player.
"""

from __future__ import annotations

import json

from games.labels import kind_label
from tests.browser.pages import SiteDB, TablePage, create_table, sign_up
from tests.browser.servers import Server, manage

#: The bots' pause before each move at the tests' tables (the site's default is 700 ms).
BOT_DELAY_MS = 150


def assert_deal_one_result_shown(tp: TablePage, db: SiteDB) -> dict:
    """Deal 1 is over in the database, and its result and score row were on the
    table (as the recorder saw them, since the next deal follows after a pause)."""
    deal = db.deal(tp.table_id, 1)
    assert deal["status"] == "finished"
    result = deal["result"]
    shown = tp.record()["results"][0]
    assert shown["deal"] == 1 and "Deal 1 result" in shown["title"]
    assert shown["rows"]["Card points"] == [str(p) for p in result["card_points"]]
    assert shown["rows"]["Deal points"] == [str(p) for p in result["deal_points"]]
    assert shown["scoreRows"] == 1
    return deal


def test_it_plays_a_whole_belote_deal_against_three_bots_by_clicking(new_page, site_db):
    page = new_page()
    name = sign_up(page)
    table_id = create_table(page, "belote", ["easy", "easy", "easy"])
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    tp = TablePage(page, table_id, site_db).wait_live()
    assert tp.attr("data-variant") == "belote"
    assert tp.seat() == 0
    assert name in page.locator('[data-seat-place="0"] .seat-name').inner_text()

    tp.play()

    deal = assert_deal_one_result_shown(tp, site_db)
    assert tp.card_plays == 8
    mine = [a for a in deal["actions"] if a["seat"] == 0 and a["type"] == "play"]
    assert len(mine) == 8
    tp.assert_clean()


# Run on the server's database (manage.py shell): put a Hard bot in the open seat,
# start the match, and make deal 1 one in which the bot deals, so the person bids
# first and leads the first trick, and in which, once the person chooses
# ``trump``, their face-up cards hold a combination to declare. The deck is
# replaced in the same transaction that starts the match: nobody has moved yet.
START_WITH_A_DECLARATION = """
import json, random
from django.db import transaction
from engine.actions import Action
from engine.cards import CODES
from engine.deal import new_deal
from engine.shuffle import commit
from games.models import Seat, Table
from games.services.matches import start_match

with transaction.atomic():
    table = Table.objects.select_for_update().get(pk={table_id})
    Seat.objects.filter(table=table, index=1).update(user=None, bot_level="hard")
    table.bot_delay_ms = {bot_delay_ms}
    table.save(update_fields=["bot_delay_ms"])
    match = start_match(table)
    rng = random.Random(1)
    while True:
        deck = list(range(32))
        rng.shuffle(deck)
        deal = new_deal(match.rule_set(), 1, deck)
        deal.apply(Action.from_dict({{"seat": 0, "type": "choose", "trump": "{trump}"}}))
        declarations = [a for a in deal.legal_actions() if a.type == "declare"]
        if declarations:
            break
    codes = [CODES[c] for c in deck]
    commitment = commit(codes)
    match.first_dealer = 1
    match.save(update_fields=["first_dealer"])
    match.deals.filter(number=1).update(
        dealer=1, deck=codes, shuffle_salt=commitment.salt, commitment=commitment.digest
    )
print(json.dumps([a.to_dict()["cards"] for a in declarations]))
"""


def test_it_plays_open_blot_against_a_hard_bot_with_an_announcement_by_f2(
    new_page, blot_server: Server, site_db
):
    page = new_page()
    name = sign_up(page, "Bea")
    table_id = create_table(page, "open_blot", ["open"])
    script = START_WITH_A_DECLARATION.format(
        table_id=table_id, bot_delay_ms=BOT_DELAY_MS, trump="C"
    )
    offered = json.loads(manage(blot_server.env, "shell", "-c", script).strip().splitlines()[-1])
    tp = TablePage(page, table_id, site_db).open()
    assert tp.attr("data-variant") == "open_blot"

    # The person bids first and chooses clubs.
    choose_clubs = ('[data-action=choose][data-trump="C"]',)
    assert tp.wait_turn() == "turn"
    tp.check_legal()
    last = tp.act(choose_clubs)
    # Then they lead the first trick: the declaration window. F2 opens the menu.
    assert tp.wait_turn(last) == "turn"
    tp.check_legal()
    menu = page.locator("#announce-menu")
    assert page.locator("#controls button[data-action=announce-menu]").is_visible()
    assert menu.is_hidden()
    page.keyboard.press("F2")
    assert menu.is_visible()
    buttons = menu.locator("button[data-action=declare]")
    assert buttons.count() == len(offered)
    declared = sorted(tp.cards("#announce-menu li:first-child button [data-card]"))
    assert declared == sorted(offered[0])
    # The button reads "Terz J♠ Q♠ K♠": the combination's name, then its cards.
    label = buttons.first.evaluate("b => b.firstChild.textContent").strip()
    version = tp.version()
    buttons.first.click()
    page.wait_for_function(
        "v => document.getElementById('table-root').dataset.version > v", arg=version
    )
    entry = page.locator(".more ul.declarations li", has_text=f"{name}: {label}")
    assert sorted(tp.cards(".more ul.declarations li [data-card]")) == declared
    assert entry.count() == 1
    stored = site_db.deal(table_id, 1)["actions"][-1]
    assert stored == {"seat": 0, "type": "declare", "cards": stored["cards"]}
    assert sorted(stored["cards"]) == declared

    tp.play(last_version=version)

    deal = assert_deal_one_result_shown(tp, site_db)
    assert tp.card_plays == 16
    mine = [d for d in deal["result"]["declarations"] if d["seat"] == 0]
    assert len(mine) == 1
    assert set(declared) <= set(mine[0]["cards"])  # a run may grow as cards turn up
    rows = list(tp.record()["results"][0]["rows"])
    assert any(row.startswith(str(kind_label(mine[0]["kind"]))) for row in rows), rows
    tp.assert_clean()


def test_it_shows_a_spectator_every_card_as_it_is_played(new_page, site_db):
    player_page = new_page()
    sign_up(player_page, "Cid")
    table_id = create_table(player_page, "belote", ["easy", "easy", "easy"])
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    player = TablePage(player_page, table_id, site_db).wait_live()
    watcher = TablePage(new_page(), table_id, site_db).open()  # anonymous: a spectator
    assert watcher.seat() is None
    assert watcher.page.locator("#table-root .table-head .badge", has_text="Watching").count()

    def same_view(tp: TablePage) -> None:
        # Whenever the player is to act, the spectator shows the same version and
        # the same cards on the table, and never the player's hand.
        watcher.page.wait_for_function(
            "v => Number(document.getElementById('table-root').dataset.version) >= v",
            arg=tp.version(),
            timeout=5_000,
        )
        assert watcher.version() == tp.version()
        assert watcher.table_cards() == tp.table_cards()
        assert watcher.my_cards() == []

    last = player.play(card_plays=4, each_turn=same_view)
    assert player.wait_turn(last) == "turn"
    same_view(player)

    live = site_db.live_deal(table_id)
    played = [a.to_dict()["card"] for a in live.engine.history if a.type == "play"]
    assert len(played) >= 13  # four tricks begun by the player's fourth card, at least
    seen = watcher.record()
    assert set(played) <= set(seen["seen"])
    assert seen["versions"] == sorted(seen["versions"])  # never goes back
    assert seen["versions"][-1] == live.version
    assert seen["cardButtons"] == 0 and seen["actionButtons"] == 0
    assert seen["errors"] == []
    player.assert_clean()


def test_it_restores_the_table_after_a_reload_mid_deal(new_page, site_db):
    page = new_page()
    sign_up(page, "Dan")
    table_id = create_table(page, "belote", ["normal", "easy", "normal"])
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    tp = TablePage(page, table_id, site_db).wait_live()
    last = tp.play(card_plays=2)
    assert tp.wait_turn(last) == "turn"  # the table waits for this player now
    before = (tp.version(), tp.my_cards(), tp.card_buttons(), tp.table_cards())
    assert len(before[1]) == 6

    page.reload(wait_until="domcontentloaded")
    # Drawn by the server at once, before the WebSocket says anything...
    assert (tp.version(), tp.my_cards(), tp.card_buttons(), tp.table_cards()) == before
    tp.wait_live()
    # ...and the same once it is connected again.
    assert (tp.version(), tp.my_cards(), tp.card_buttons(), tp.table_cards()) == before
    tp.check_legal()

    # Play goes on from the reloaded page.
    last = tp.act()
    assert tp.wait_turn(last) == "turn"
    assert tp.version() > before[0]
    assert len(tp.my_cards()) == 5
    tp.assert_clean()
