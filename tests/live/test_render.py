"""What a viewer's table shows: controls only for the seat to act, only legal
cards as buttons, the Announce menu during the first trick, nothing for spectators."""

from __future__ import annotations

import random
import re

import pytest

from engine import RuleSet, new_deal
from engine.actions import Action
from engine.cards import CODES
from engine.shuffle import shuffled_deck
from games.labels import kind_label
from games.live.conduct.conductor import act_if_due
from games.live.draw.render import render_table
from games.live.submit.play import submit
from games.services.matches import deal_next
from tests.live.conftest import all_bots, later, live_of, play_as_holder

pytestmark = pytest.mark.django_db

BUTTON_CARDS = re.compile(r'<button[^>]*data-card="(..)"')


def deck_with_a_declaration(dealer: int) -> list[int]:
    """A deck where the non-dealer, choosing clubs, can declare in the first trick."""
    rules = RuleSet.build("open_blot")
    for seed in range(1000):
        deck = shuffled_deck(random.Random(seed))
        deal = new_deal(rules, dealer, deck)
        deal.apply(Action((dealer + 1) % 2, "choose", trump=0))
        if any(a.type == "declare" for a in deal.legal_actions()):
            return deck
    raise AssertionError("no such deck in 1000 shuffles")


def test_it_shows_the_bidding_buttons_only_to_the_seat_to_act(duel) -> None:
    live = live_of(duel)
    to_act = live.engine.to_act
    mine = render_table(duel, to_act)
    theirs = render_table(duel, 1 - to_act)
    assert 'data-action="pass"' in mine and 'data-action="choose"' in mine
    assert 'data-trump="NT"' in mine
    assert 'data-action="pass"' not in theirs
    assert not BUTTON_CARDS.findall(mine)


def test_it_makes_only_the_legal_cards_buttons(duel) -> None:
    live = live_of(duel)
    play_as_holder(duel.pk, Action(live.engine.to_act, "choose", trump=3), duel.version)
    for _ in range(3):  # into a trick where following suit restricts the answer
        live = live_of(duel)
        plays = [a for a in live.engine.legal_actions() if a.type == "play"]
        html = render_table(live.table, live.engine.to_act)
        assert sorted(BUTTON_CARDS.findall(html)) == sorted(CODES[a.card] for a in plays)
        play_as_holder(duel.pk, plays[0], live.table.version)


def test_it_offers_the_announce_menu_in_the_first_trick(duel) -> None:
    live = live_of(duel)
    live.deal.deck = [CODES[c] for c in deck_with_a_declaration(live.deal.dealer)]
    live.deal.save(update_fields=["deck"])
    live = live_of(duel)
    play_as_holder(duel.pk, Action(live.engine.to_act, "choose", trump=0), duel.version)
    live = live_of(duel)
    html = render_table(live.table, live.engine.to_act)
    assert 'data-action="announce-menu"' in html and "F2" in html
    assert 'data-action="declare"' in html


def test_it_gives_a_spectator_no_controls_and_no_seat(duel) -> None:
    html = render_table(duel, None)
    assert 'data-seat=""' in html
    assert "data-action=" not in html
    assert "Watching" in html


def test_it_marks_the_socket_frame_for_an_out_of_band_swap(duel) -> None:
    assert 'hx-swap-oob="morph"' in render_table(duel, 0, oob=True)
    assert "hx-swap-oob" not in render_table(duel, 0)


def play_until(table, done) -> None:
    """Submit legal moves (the last offered: a bid, or a card) until ``done(live)``."""
    while not done(live := live_of(table)):
        play_as_holder(table.pk, live.engine.legal_actions()[-1], live.table.version)


TRICK = re.compile(r"<div[^>]*data-trick(?=[\s>])[^>]*>")
TRICK_SEATS = re.compile(r'data-trick-seat="(\d)"')


def test_it_leaves_the_completed_trick_in_the_middle_with_its_winner(duel) -> None:
    play_until(duel, lambda live: live.engine.tricks)
    live = live_of(duel)
    winner = live.engine.tricks[-1][2]
    for viewer in (0, 1, None):
        html = render_table(live.table, viewer)
        middle = TRICK.search(html).group(0)
        assert "data-complete" in middle and f'data-winner="{winner}"' in middle
        assert sorted(TRICK_SEATS.findall(html)) == ["0", "1"]
        assert "points in 1 trick." in html and "points in 0 tricks." in html
    play_as_holder(duel.pk, live.engine.legal_actions()[0], live.table.version)  # the next lead
    html = render_table(duel, None)
    assert "data-complete" not in TRICK.search(html).group(0)
    assert len(TRICK_SEATS.findall(html)) == 1


def test_it_shows_the_deal_result_on_the_table_until_the_next_deal(duel) -> None:
    play_until(duel, lambda live: live is None)
    html = render_table(duel, 0)
    assert html.count("data-deal-result") == 1
    match = duel.current_match()
    assert f'/matches/{match.pk}/deals/1/replay/" data-replay-link' in html
    assert "data-complete" in TRICK.search(html).group(0)
    assert len(TRICK_SEATS.findall(html)) == 2  # the deal's last trick
    deal_next(duel.current_match().pk)
    html = render_table(duel, 0)
    assert "data-deal-result" not in html
    assert "Deal 1 result" in html  # still one tap away, below the table


def test_it_puts_an_open_blot_declaration_in_the_declarers_column(duel) -> None:
    live = live_of(duel)
    live.deal.deck = [CODES[c] for c in deck_with_a_declaration(live.deal.dealer)]
    live.deal.save(update_fields=["deck"])
    live = live_of(duel)
    declarer = live.engine.to_act
    play_as_holder(duel.pk, Action(declarer, "choose", trump=0), duel.version)
    live = live_of(duel)
    declare = next(a for a in live.engine.legal_actions() if a.type == "declare")
    play_as_holder(duel.pk, declare, live.table.version)
    html = render_table(duel, declarer)
    assert 'class="callout"' in html  # said at the seat as it happens
    play_until(duel, lambda live: live is None)
    result = duel.current_match().deals.get(number=1).result
    mine = next(d for d in result["declarations"] if d["seat"] == declarer)
    section = render_table(duel, None).split("data-deal-result", 1)[1]
    row = re.search(rf"<tr><th>[^<]*{kind_label(mine['kind'])}.*?</tr>", section).group(0)
    cells = re.findall(r"<td>([^<]*)</td>", row)
    expected = ["", ""]
    expected[declarer] = str(mine["points"])
    assert cells == expected


def test_it_says_who_is_to_bid_and_colours_the_red_trump_choices(duel) -> None:
    live = live_of(duel)
    to_act = live.engine.to_act
    name = duel.current_match().participants.get(index=to_act).name
    assert f"{name} to bid" in render_table(duel, 1 - to_act)
    html = render_table(duel, to_act)
    for trump, red in (("H", True), ("D", True), ("S", False), ("C", False)):
        button = re.search(rf'<button[^>]*data-trump="{trump}"[^>]*>', html).group(0)
        assert (" red" in button.split('class="', 1)[1].split('"', 1)[0]) == red


def test_it_tells_the_live_header_the_match_is_over(make_table, alice) -> None:
    table = all_bots(make_table(alice, "open_blot", fmt="best_of:1", others=["easy"]))
    html = render_table(table, None)
    assert "A single deal" in html and ">Playing<" in html
    while table.current_match().status != "finished":
        assert act_if_due(table.pk, now=later()) or live_of(table) is None
        table.refresh_from_db()
    html = render_table(table, None)
    status = re.search(r"<span[^>]*data-status>([^<]*)<", html).group(1)
    assert status == "Match over"
    assert "data-match-score" in html


def belote_deck_with_belote(dealer: int) -> list[int]:
    """A deck where, once the first bidder takes, someone holds trump King and Queen."""
    rules = RuleSet.build("belote")
    for seed in range(1000):
        deck = shuffled_deck(random.Random(seed))
        deal = new_deal(rules, dealer, deck)
        deal.apply(next(a for a in deal.legal_actions() if a.type == "take"))
        if deal.belote_seat is not None:
            return deck
    raise AssertionError("no such deck in 1000 shuffles")


def test_it_calls_belote_at_the_seat_that_played_it(make_table, alice) -> None:
    table = all_bots(make_table(alice, "belote", others=["easy", "easy", "easy"]))
    live = live_of(table)
    live.deal.deck = [CODES[c] for c in belote_deck_with_belote(live.deal.dealer)]
    live.deal.save(update_fields=["deck"])
    live = live_of(table)
    take = next(a for a in live.engine.legal_actions() if a.type == "take")
    submit(table.pk, take, live.table.version, by_server=True)
    while not (live := live_of(table)).engine.announcements:
        submit(table.pk, live.engine.legal_actions()[0], live.table.version, by_server=True)
    seat = live.engine.announcements[0][0]
    html = render_table(table, None)
    place = html.split(f'data-seat-place="{seat}"', 1)[1].split("data-seat-place", 1)[0]
    assert '<span class="callout">Belote!</span>' in place
    assert html.count('class="callout"') == 1
    # Said as it happens: gone once its trick is won and the next one led.
    said_in = len(live.engine.tricks)
    while len(live.engine.tricks) == said_in or not live.engine.trick:
        submit(table.pk, live.engine.legal_actions()[0], live.table.version, by_server=True)
        live = live_of(table)
    assert '<span class="callout">Belote!</span>' not in render_table(table, None)


def test_it_escapes_what_fills_a_sentence_but_not_the_translation(duel) -> None:
    """A name drawn into a translated sentence is escaped as Django escapes it,
    everywhere it appears; the sentence's own words are not escaped twice."""
    from django.utils import translation

    participant = duel.matches.get().participants.get(index=1)
    participant.name = "O'Hara <b>&"
    participant.save(update_fields=["name"])
    escaped = "O&#x27;Hara &lt;b&gt;&amp;"
    mine = render_table(duel, 1)
    theirs = render_table(duel, 0)
    assert f"{escaped} (you)" in mine
    assert f'<span class="seat-name">{escaped}</span>' in theirs
    for html in (mine, theirs):
        assert "<b>&" not in html and "O'Hara" not in html
    with translation.override("fr"):
        # (French: "%(name)s (vous)"; its words come through as written)
        assert f"{escaped} (vous)" in render_table(duel, 1)
