"""Talking at a table in real Chromium: two players and a spectator,
each reading the site in another language.

Ann (French, desktop) and Boris (Russian, phone) play Open Blot; Carla
(Armenian) watches. A quick phrase reaches each of them in their own words; the
spectators' room never reaches the players; on the phone the chat is one tap
away with an unread count and never reaches down over the hand. Screenshots go
to /tmp/h25shots (not the repository).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.browser.pages import TablePage, sign_up
from tests.browser.test_languages import create_table, switch_language

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
SHOTS = Path("/tmp/h25shots")


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def room_text(page, room: str) -> str:
    return page.locator(f'[data-chat] [data-chat-room="{room}"] .chat-log').text_content() or ""


def wait_for_text(page, room: str, text: str) -> None:
    page.wait_for_function(
        "([room, text]) => { const log = document.querySelector("
        "`[data-chat-room='${room}'] .chat-log`);"
        " return !!log && log.textContent.includes(text); }",
        arg=[room, text],
    )


def test_two_players_and_a_spectator_talk_each_in_their_language(new_page, site_db):
    ann = new_page(DESKTOP)
    sign_up(ann, "Ann")
    switch_language(ann, "fr")
    table_id = create_table(ann, "open_blot", ["open"])

    boris = new_page(PHONE)
    sign_up(boris, "Boris")
    switch_language(boris, "ru")
    boris.goto(f"/tables/{table_id}/")
    boris.locator(f"form[action='/tables/{table_id}/seats/1/join/'] button").click()
    boris.wait_for_url(re.compile(rf"/tables/{table_id}/$"))
    TablePage(boris, table_id, site_db).wait_live()
    ann.goto(f"/tables/{table_id}/")
    TablePage(ann, table_id, site_db).wait_live()

    carla = new_page(DESKTOP)
    sign_up(carla, "Carla")
    switch_language(carla, "hy")
    carla.goto(f"/tables/{table_id}/")
    TablePage(carla, table_id, site_db).wait_live()

    # The players see their room only; the spectator both, starting in hers.
    assert ann.locator('[data-chat-room="spectators"]').count() == 0
    assert boris.locator('[data-chat-room="spectators"]').count() == 0
    assert carla.locator('[data-chat-room="spectators"]').is_visible()

    # During the deal a player has the quick phrases, not the free-text form.
    assert ann.locator("form[data-chat-form]").is_hidden()
    ann.locator('button[data-phrase="good-luck"]').click()
    wait_for_text(ann, "players", "Bonne chance !")
    wait_for_text(boris, "players", "Удачи!")
    wait_for_text(carla, "players", "Հաջողությո՛ւն\u0589")
    author = ann.locator("[data-chat-message]").first.get_attribute("data-author")
    assert author and author.startswith("ann")
    # Each new message is said once by the polite live region.
    assert ann.locator("#chat-announcer p").count() == 1
    assert ann.locator("#chat-announcer").get_attribute("aria-live") == "polite"

    # On the phone the chat is closed, one tap away, and counts what arrived.
    toggle = boris.locator("#chat-toggle")
    assert toggle.is_visible() and toggle.locator("[data-chat-unread]").inner_text() == "1"
    assert boris.locator("[data-chat]").is_hidden()
    shot(boris, "phone-player-closed")

    # The spectator writes in her room: links stay text, HTML stays text.
    room = carla.locator('[data-chat-room="spectators"]')
    room.locator("input[name=text]").fill("Allez Ann <b>!</b> https://example.com")
    room.locator("form[data-chat-form] button[type=submit]").click()
    wait_for_text(carla, "spectators", "Allez Ann <b>!</b> https://example.com")
    assert room.locator(".chat-said a, .chat-said b").count() == 0
    assert room.locator("input[name=text]").input_value() == ""
    carla.locator('[data-chat-tab="players"]').click()
    shot(carla, "desktop-spectator")

    # Boris opens the chat: the unread count goes, the panel stops above his hand.
    toggle.click()
    assert boris.locator("[data-chat]").is_visible()
    assert toggle.locator("[data-chat-unread]").is_hidden()
    chat_box = boris.locator("[data-chat]").bounding_box()
    hand_box = boris.locator("#table-root [data-hand]").bounding_box()
    assert chat_box["y"] + chat_box["height"] <= hand_box["y"] + 1
    boris.locator('button[data-phrase="thanks"]').click()
    wait_for_text(ann, "players", "Merci !")
    wait_for_text(carla, "players", "Շնորհակալությո՛ւն\u0589")
    shot(boris, "phone-player-open")
    # Mute and report are offered on others' messages, not on one's own.
    assert ann.locator('[data-chat-message] [data-action="mute"]').count() == 1
    assert ann.locator('[data-chat-message] [data-action="report"]').count() == 1
    # Reporting says thank you; muting hides Boris for Ann until she unmutes him.
    ann.locator('[data-chat-message] [data-action="report"]').click()
    ann.wait_for_selector("#chat-refusal.chat-notice")
    ann.locator('[data-chat-message] [data-action="mute"]').click()
    ann.wait_for_function(
        "() => !document.getElementById('chat-log-players').textContent.includes('Merci')"
    )
    unmute = ann.locator('[data-action="unmute"]')
    assert unmute.count() == 1
    unmute.click()
    wait_for_text(ann, "players", "Merci !")
    assert ann.locator('[data-action="unmute"]').count() == 0
    shot(ann, "desktop-player")

    # Nothing of the spectators' room ever reached a player's page.
    for page in (ann, boris):
        assert "Allez Ann" not in page.content()

    # The spectator on a phone: one tap away too.
    carla.set_viewport_size(PHONE)
    carla.locator("#chat-toggle").click()
    shot(carla, "phone-spectator")
    carla.locator("[data-chat-close]").click()
    assert carla.locator("[data-chat]").is_hidden()

    # At desktop size the chat sits beside the table: hand and controls uncovered.
    tp = TablePage(ann, table_id, site_db)
    tp.assert_on_first_screen("[data-chat]", "#table-root [data-hand]")
    chat_box = ann.locator("[data-chat]").bounding_box()
    felt_box = ann.locator("#table-root .felt").bounding_box()
    assert chat_box["x"] >= felt_box["x"] + felt_box["width"]


def test_a_tournament_page_has_its_own_room(new_page, site_db):
    organiser = new_page(DESKTOP)
    sign_up(organiser, "Olga")
    organiser.goto("/tournaments/new/")
    form = organiser.locator("#tournament-form")
    form.locator("input[name=name]").fill("Chat Cup")
    form.locator("select[name=variant]").select_option("open_blot")
    form.get_by_role("button", name="Create the tournament").click()
    organiser.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    path = re.search(r"/tournaments/\d+/$", organiser.url).group(0)

    guest = new_page(PHONE)
    sign_up(guest, "Gia")
    switch_language(guest, "ka")
    guest.goto(path)
    guest.wait_for_function("() => window.__blot && window.__blot.opened > 0")
    organiser.wait_for_function("() => window.__blot && window.__blot.opened > 0")
    room = organiser.locator('[data-chat-room="tournament"]')
    room.locator('button[data-phrase="good-luck"]').click()
    wait_for_text(guest, "tournament", "წარმატებები!")
    toggle = guest.locator("#chat-toggle")
    assert toggle.locator("[data-chat-unread]").inner_text() == "1"
    toggle.click()
    guest.locator('[data-chat-room="tournament"] input[name=text]').fill("გამარჯობა ყველას")
    guest.locator('[data-chat-room="tournament"] form[data-chat-form] button').click()
    wait_for_text(organiser, "tournament", "გამარჯობა ყველას")
    # The live region is for screen readers only.
    assert organiser.locator("#chat-announcer").bounding_box()["height"] <= 1
    shot(organiser, "desktop-tournament")
    shot(guest, "phone-tournament")
