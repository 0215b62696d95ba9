"""Applying moves to a live table: the one serialised path, and every refusal."""

from __future__ import annotations

import json

import pytest

from engine.actions import Action
from games.live.conduct.conductor import act_if_due
from games.live.submit.play import (
    MAX_MESSAGE_BYTES,
    NotYourSeat,
    Refused,
    action_from_client,
    parse_client_message,
    submit,
)
from games.models import Deal, Table
from tests.live.conftest import holder_of, live_of, play_as_holder


def snapshot(table: Table) -> tuple:
    table.refresh_from_db()
    deal = table.current_match().deals.get(status=Deal.Status.PLAYING)
    return table.version, list(deal.actions)


def first_legal(table: Table) -> Action:
    return live_of(table).engine.legal_actions()[0]


def test_it_applies_a_legal_move_stores_it_and_bumps_the_version(duel) -> None:
    version, actions = snapshot(duel)
    action = first_legal(duel)
    assert play_as_holder(duel.pk, action, version) == version + 1
    new_version, new_actions = snapshot(duel)
    assert new_version == version + 1
    assert new_actions == [*actions, action.to_dict()]


def test_it_refuses_a_stale_version_and_changes_nothing(duel) -> None:
    before = snapshot(duel)
    with pytest.raises(Refused, match="out of date"):
        play_as_holder(duel.pk, first_legal(duel), before[0] - 1)
    assert snapshot(duel) == before


@pytest.mark.parametrize("who", ["the other player", "nobody"])
def test_it_refuses_a_persons_move_for_a_seat_that_is_not_theirs(duel, alice, bob, who) -> None:
    """Every person's move names its person, and only the seat's holder of the
    moment may make it: whatever seat the caller thought they had."""
    before = snapshot(duel)
    action = first_legal(duel)
    holder = holder_of(duel.pk, action.seat)
    other = None if who == "nobody" else ({alice.pk, bob.pk} - {holder}).pop()
    with pytest.raises(NotYourSeat, match="This seat is no longer yours"):
        submit(duel.pk, action, before[0], user_id=other)
    assert snapshot(duel) == before


def test_it_refuses_a_move_out_of_turn(duel) -> None:
    before = snapshot(duel)
    to_act = live_of(duel).engine.to_act
    with pytest.raises(Refused, match="not allowed"):
        play_as_holder(duel.pk, Action(1 - to_act, "pass"), before[0])
    assert snapshot(duel) == before


def test_it_refuses_an_illegal_card(duel) -> None:
    live = live_of(duel)
    while live.engine.phase != "play":
        play_as_holder(duel.pk, live.engine.legal_actions()[-1], duel.version)
        live = live_of(duel)
    seat = live.engine.to_act
    legal = {a.card for a in live.engine.legal_actions() if a.type == "play"}
    illegal = next(c for c in range(32) if c not in legal)
    before = snapshot(duel)
    with pytest.raises(Refused, match="not allowed"):
        play_as_holder(duel.pk, Action(seat, "play", card=illegal), before[0])
    assert snapshot(duel) == before


def test_it_refuses_a_person_acting_for_a_bot_seat(make_table, alice) -> None:
    table = make_table(alice, "open_blot", others=["easy"])
    live = live_of(table)
    if live.engine.to_act == 0:
        play_as_holder(table.pk, live.engine.legal_actions()[0], table.version)
        live = live_of(table)
    before = snapshot(table)
    with pytest.raises(Refused, match="bot"):
        play_as_holder(table.pk, live.engine.legal_actions()[0], before[0])
    assert snapshot(table) == before


def test_it_takes_the_seat_from_the_connection_never_from_the_message() -> None:
    action, version = action_from_client({"type": "pass", "version": 3}, seat=1)
    assert action == Action(1, "pass") and version == 3
    with pytest.raises(Refused, match="own seat"):
        action_from_client({"type": "pass", "version": 3, "seat": 0}, seat=1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x" * (MAX_MESSAGE_BYTES + 1), "too large"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a move"),
    ],
)
def test_it_refuses_a_malformed_or_oversized_message(text: str, message: str) -> None:
    with pytest.raises(Refused, match=message):
        parse_client_message(text)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "shuffle", "version": 1},
        {"type": "play", "card": "ZZ", "version": 1},
        {"type": "play", "card": "JH"},
        {"type": "play", "card": "JH", "version": "x"},
        {"type": "choose", "trump": "X", "version": 1},
        {"type": "declare", "cards": "AH KH QH", "version": 1},
    ],
)
def test_it_refuses_a_malformed_move(data: dict) -> None:
    with pytest.raises(Refused):
        action_from_client(data, seat=0)


def test_it_drops_htmx_headers_from_a_message() -> None:
    data = parse_client_message(json.dumps({"type": "pass", "version": 2, "HEADERS": {"a": 1}}))
    assert data == {"type": "pass", "version": 2}


def test_it_closes_a_finished_deal_into_the_score_table_and_deals_the_next(duel) -> None:
    match = duel.current_match()
    while match.deals.count() == 1:
        live = live_of(duel)
        play_as_holder(duel.pk, live.engine.legal_actions()[-1], duel.version)
        if live_of(duel) is None:
            break
    first = match.deals.get(number=1)
    assert first.status == Deal.Status.FINISHED and first.result is not None
    assert match.score_rows.count() == 1
    # The next deal waits for the pause; then the conductor deals it.
    assert not match.deals.filter(number=2).exists()
    assert act_if_due(duel.pk)
    assert match.deals.get(number=2).dealer == (first.dealer + 1) % 2
