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
from games.live.play import submit
from games.live.render import render_table
from tests.live.conftest import live_of

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
    submit(duel.pk, Action(live.engine.to_act, "choose", trump=3), duel.version)
    for _ in range(3):  # into a trick where following suit restricts the answer
        live = live_of(duel)
        plays = [a for a in live.engine.legal_actions() if a.type == "play"]
        html = render_table(live.table, live.engine.to_act)
        assert sorted(BUTTON_CARDS.findall(html)) == sorted(CODES[a.card] for a in plays)
        submit(duel.pk, plays[0], live.table.version)


def test_it_offers_the_announce_menu_in_the_first_trick(duel) -> None:
    live = live_of(duel)
    live.deal.deck = [CODES[c] for c in deck_with_a_declaration(live.deal.dealer)]
    live.deal.save(update_fields=["deck"])
    live = live_of(duel)
    submit(duel.pk, Action(live.engine.to_act, "choose", trump=0), duel.version)
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
