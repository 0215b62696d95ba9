"""The coinche auction and Belote's announcements at the live table: each new
socket move goes through the one submit path, the table draws the auction, the
contract and the announcements from each viewer's observation, and a bad move
(malformed, illegal, stale) is refused with the table unchanged."""

from __future__ import annotations

import random
import re

import pytest

from engine import new_deal
from engine.actions import Action, bid
from engine.cards import CODES, SUITS
from engine.observe import observe
from engine.shuffle import shuffled_deck
from games.labels import kind_label
from games.live.draw.render import render_table
from games.live.submit.play import (
    NotAllowed,
    Refused,
    StaleVersion,
    action_from_client,
    parse_client_message,
    submit,
)
from games.models import RuleSetConfig, Table
from tests.live.conftest import holder_of, live_of, play_as_holder

pytestmark = pytest.mark.django_db

HEARTS = SUITS.index("H")
SPADES = SUITS.index("S")
BUTTON_CARDS = re.compile(r'<button[^>]*data-card="(..)"')
SHOWN_CARDS = re.compile(r'data-card="(..)"')


@pytest.fixture
def four(make_table, make_user, alice, bob, carol):
    """A Coinche table of four people, match started."""
    from games.services.tables import join_seat

    rule_set = RuleSetConfig.objects.get(name="Coinche")
    table = make_table(alice, "belote", rule_set=rule_set)
    for index, user in ((1, bob), (2, carol), (3, make_user("dave"))):
        join_seat(table.pk, user, index)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table


def client_move(table: Table, seat: int, message: str) -> int:
    """A move as a browser sends it, through the socket's parsing and the one
    submit path, as the person holding ``seat``."""
    action, version = action_from_client(parse_client_message(message), seat)
    return submit(table.pk, action, version, user_id=holder_of(table.pk, seat))


def test_the_table_offers_every_bid_with_all_trump_and_no_trump_to_the_first_bidder(four) -> None:
    live = live_of(four)
    seat = live.engine.to_act
    html = render_table(four, seat)
    assert "data-auction" in html
    offered = set(re.findall(r'data-action="bid" data-value="(\d+)" data-trump="(\w+)"', html))
    values = (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)
    assert offered == {(str(v), t) for v in values for t in ("C", "D", "H", "S", "AT", "NT")}
    assert 'data-action="pass"' in html
    assert 'data-action="coinche"' not in html  # nothing to coinche yet
    others = render_table(four, (seat + 1) % 4)
    assert "data-auction" in others and 'data-action="bid"' not in others


def test_a_bid_from_the_socket_becomes_the_contract_shown_to_everyone(four) -> None:
    live = live_of(four)
    seat = live.engine.to_act
    message = f'{{"type": "bid", "value": "90", "trump": "H", "version": {four.version}}}'
    client_move(four, seat, message)
    four.refresh_from_db()
    for viewer in (0, 1, 2, 3, None):
        html = render_table(four, viewer)
        assert re.search(
            rf'data-contract data-value="90" data-trump="H" data-multiplier="1" '
            rf'data-taker-seat="{seat}"',
            html,
        )
        assert 'data-call="bid"' in html
    # Only higher bids are offered now.
    html = render_table(four, (seat + 1) % 4)
    offered = {int(v) for v in re.findall(r'data-action="bid" data-value="(\d+)"', html)}
    assert min(offered) == 100


@pytest.mark.parametrize(
    "message",
    [
        '{"type": "bid", "value": 85, "trump": "H"}',  # not a bid value
        '{"type": "bid", "value": 90, "trump": "X"}',  # not a trump
        '{"type": "bid", "value": "ninety", "trump": "H"}',
        '{"type": "bid", "value": 9000000000000000000000, "trump": "H"}',
        '{"type": "bid", "trump": "H"}',
        '{"type": "bid", "value": 90, "trump": ["H"]}',
        '{"type": "bid", "value": true, "trump": "H"}',
    ],
)
def test_a_malformed_bid_is_refused_and_changes_nothing(four, message) -> None:
    live = live_of(four)
    seat = live.engine.to_act
    before = list(live.deal.actions)
    with_version = message[:-1] + f', "version": {four.version}}}'
    with pytest.raises(Refused):
        client_move(four, seat, with_version)
    after = live_of(four)
    assert after.table.version == four.version and list(after.deal.actions) == before


def test_an_illegal_call_is_refused_with_its_reason_and_changes_nothing(four) -> None:
    live = live_of(four)
    seat = live.engine.to_act
    version = play_as_holder(four.pk, bid(seat, 100, HEARTS), four.version)
    nxt = (seat + 1) % 4
    # Lower than the current bid; coinche by the bidder's partner; out of turn.
    for who, message in (
        (nxt, '{"type": "bid", "value": 90, "trump": "S"}'),
        (nxt, '{"type": "surcoinche"}'),
        ((seat + 2) % 4, '{"type": "pass"}'),
    ):
        with pytest.raises(NotAllowed) as refused:
            client_move(four, who, message[:-1] + f', "version": {version}}}')
        assert "not allowed now" in str(refused.value.message)
    assert live_of(four).table.version == version


def test_a_call_made_on_an_old_version_is_refused(four) -> None:
    live = live_of(four)
    seat = live.engine.to_act
    old = four.version
    play_as_holder(four.pk, bid(seat, 80, SPADES), old)
    with pytest.raises(StaleVersion):
        client_move(four, (seat + 1) % 4, f'{{"type": "pass", "version": {old}}}')


def test_coinche_and_surcoinche_double_and_redouble_the_contract_and_end_the_auction(four) -> None:
    live = live_of(four)
    seat = live.engine.to_act
    version = play_as_holder(four.pk, bid(seat, 110, HEARTS), four.version)
    opponent = (seat + 1) % 4
    html = render_table(live_of(four).table, opponent)
    assert 'data-action="coinche"' in html
    four.refresh_from_db()
    client_move(four, opponent, f'{{"type": "coinche", "version": {version}}}')
    four.refresh_from_db()
    html = render_table(four, None)
    assert 'data-multiplier="2"' in html and 'data-call="coinche"' in html
    partner = (seat + 2) % 4
    mine = render_table(four, partner)
    assert 'data-action="surcoinche"' in mine and 'data-action="pass"' in mine
    assert 'data-action="bid"' not in mine  # after a coinche only one call is left
    client_move(four, partner, f'{{"type": "surcoinche", "version": {four.version}}}')
    live = live_of(four)
    assert live.engine.phase == "play"
    html = render_table(live.table, seat)
    assert re.search(r'data-contract data-value="110" data-trump="H" data-multiplier="4"', html)
    assert "surcoinched" in html
    assert "data-auction-log" in html  # kept below the felt, not as controls
    assert 'data-action="bid"' not in html


def test_a_spectator_sees_the_auction_but_never_a_hidden_card(four) -> None:
    live = live_of(four)
    seat = live.engine.to_act
    version = play_as_holder(four.pk, bid(seat, 80, HEARTS), four.version)
    for k in (1, 2, 3):
        version = play_as_holder(four.pk, Action((seat + k) % 4, "pass"), version)
    live = live_of(four)
    html = render_table(live.table, None)
    assert "data-contract" in html
    assert not BUTTON_CARDS.findall(html)
    assert SHOWN_CARDS.findall(html) == []  # nothing played yet, nothing shown


def _deck_with_a_tierce_for_the_leader(dealer: int) -> list[int]:
    """A Coinche deck in which the player who leads holds a combination."""
    from games.models import RuleSetConfig

    rules = RuleSetConfig.objects.get(name="Coinche").rules()
    for seed in range(2000):
        deck = shuffled_deck(random.Random(seed))
        deal = new_deal(rules, dealer, deck)
        leader = (dealer + 1) % 4
        deal.apply(bid(leader, 80, HEARTS))
        for k in (1, 2, 3):
            deal.apply(Action((leader + k) % 4, "pass"))
        if any(a.type == "declare" for a in deal.legal_actions()):
            return deck
    raise AssertionError("no such deck in 2000 shuffles")


def test_announcements_are_offered_as_buttons_and_shown_at_the_table(four) -> None:
    live = live_of(four)
    live.deal.deck = [CODES[c] for c in _deck_with_a_tierce_for_the_leader(live.deal.dealer)]
    live.deal.save(update_fields=["deck"])
    live = live_of(four)
    leader = live.engine.to_act
    version = play_as_holder(four.pk, bid(leader, 80, HEARTS), four.version)
    for k in (1, 2, 3):
        version = play_as_holder(four.pk, Action((leader + k) % 4, "pass"), version)
    live = live_of(four)
    html = render_table(live.table, leader)
    offered = re.findall(r'data-action="declare" data-cards="([^"]+)" data-kind="(\w+)"', html)
    legal = [a for a in live.engine.legal_actions() if a.type == "declare"]
    assert sorted(c for c, _k in offered) == sorted(" ".join(a.to_dict()["cards"]) for a in legal)
    cards, kind = offered[0]
    message = f'{{"type": "declare", "cards": "{cards}", "version": {version}}}'
    client_move(live.table, leader, message)
    live = live_of(four)
    other = render_table(live.table, (leader + 1) % 4)
    assert re.search(rf'data-announcement data-seat="{leader}" data-kind="{kind}"', other)
    # Its kind is public at once; its cards only after the first trick.
    hidden = observe(live.engine, (leader + 1) % 4).declarations
    assert all(d.cards == () for d in hidden if d.seat == leader)
    for code in cards.split():
        assert f'data-card="{code}"' not in other
    # The screen reader hears the kind, read from the public announcement.
    assert f"announced {kind_label(kind)}." in other


def test_a_whole_coinche_deal_closes_with_its_contract_in_words(four) -> None:
    live = live_of(four)
    seat = live.engine.to_act
    version = play_as_holder(four.pk, bid(seat, 80, HEARTS), four.version)
    version = play_as_holder(four.pk, Action((seat + 1) % 4, "coinche"), version)
    version = play_as_holder(four.pk, Action((seat + 2) % 4, "pass"), version)
    rng = random.Random(3)
    live = live_of(four)
    while live is not None:  # None once the last card closed the deal
        action = rng.choice([a for a in live.engine.legal_actions() if a.type == "play"])
        play_as_holder(four.pk, action, live.table.version)
        live = live_of(four)
    four.refresh_from_db()
    html = render_table(four, 0)
    assert "Coinched: the points are doubled." in html
    assert re.search(r"(made|failed) the contract 80 ♥", html)
    assert "data-row-contract" in html and "80 ♥ coinched" in html


def test_belote_with_announcements_offers_them_after_classic_bidding(
    make_table, make_user, alice, bob, carol
) -> None:
    from games.services.tables import join_seat

    rule_set = RuleSetConfig.objects.get(name="Belote with announcements")
    table = make_table(alice, "belote", rule_set=rule_set)
    for index, user in ((1, bob), (2, carol), (3, make_user("dave"))):
        join_seat(table.pk, user, index)
    live = live_of(table)
    rules = rule_set.rules()
    dealer = live.deal.dealer
    for seed in range(2000):  # a deck whose first player, taking, holds a combination
        deck = shuffled_deck(random.Random(seed))
        deal = new_deal(rules, dealer, deck)
        deal.apply(Action((dealer + 1) % 4, "take"))
        if any(a.type == "declare" for a in deal.legal_actions()):
            break
    live.deal.deck = [CODES[c] for c in deck]
    live.deal.save(update_fields=["deck"])
    live = live_of(table)
    leader = live.engine.to_act
    play_as_holder(table.pk, Action(leader, "take"), live.table.version)
    live = live_of(table)
    html = render_table(live.table, leader)
    assert "data-auction" not in html  # classic bidding: no auction box
    offered = re.findall(r'data-action="declare" data-cards="([^"]+)"', html)
    legal = [a for a in live.engine.legal_actions() if a.type == "declare"]
    assert sorted(offered) == sorted(" ".join(a.to_dict()["cards"]) for a in legal)
    assert 'data-action="declare"' not in render_table(live.table, (leader + 1) % 4)
