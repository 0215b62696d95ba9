"""No frame ever carries a card its viewer may not see.

Complete deals of both variants are played through the real consumer path: every
seat's player is connected, the seat to act sends its move over its own socket
(chosen by a bot from that seat's observation), and a spectator watches. After
each move every frame is checked against the cards hidden at that moment.
"""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import sync_to_async

from engine.ai import decide
from engine.belote import BeloteDeal
from engine.cards import CODES, card_list
from engine.observe import observe
from games.live.conduct.conductor import act_if_due
from games.live.submit.play import current
from games.models import Deal, Table
from games.services.tables import join_seat
from tests.live.wsclient import connect, receive_table, send_move, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SHOWN_CARD = re.compile(r'data-card="(..)"|"card":"(..)"')


def hidden_cards(engine, viewer: int | None) -> set[str]:
    """Codes ``viewer`` (None: a spectator) must not be sent."""
    if isinstance(engine, BeloteDeal):
        hidden = set(engine.deck[20:]) if engine.trump is None else set()
        for seat, hand in enumerate(engine.hands):
            if seat != viewer:
                hidden |= set(card_list(hand))
        hidden.discard(engine.proposed)
    else:
        hidden = set() if engine.second_batch_dealt else set(engine.deck[24:])
        hidden |= set(card_list(engine.face_down[0] | engine.face_down[1]))
    return {CODES[c] for c in hidden}


def shown_cards(frame: str) -> set[str]:
    return {a or b for a, b in SHOWN_CARD.findall(frame)}


def seated_table(make_table, make_user, variant: str) -> tuple[Table, list]:
    users = [make_user(f"p{i}") for i in range({"belote": 4, "open_blot": 2}[variant])]
    table = make_table(users[0], variant, fmt="best_of:1" if variant == "open_blot" else None)
    for index, user in enumerate(users[1:], start=1):
        join_seat(table.pk, user, index)
    table.refresh_from_db()
    return table, users


def next_move(table_id: int, rng: random.Random):
    table = Table.objects.get(pk=table_id)
    live = current(table)
    if live is None:  # between deals: the conductor deals the next one (no pause here)
        act_if_due(table_id)
        table = Table.objects.get(pk=table_id)
        live = current(table)
    seat = live.engine.to_act
    action = decide("easy", observe(live.engine, seat), rng)
    return seat, action, table.version, live.deal.number


def state_now(table_id: int):
    """The deal the table shows: the open one, or the last one once the match ended."""
    table = Table.objects.get(pk=table_id)
    live = current(table)
    if live is not None:
        return live.engine
    return table.current_match().deals.order_by("-number").first().rebuild()


@pytest.mark.parametrize("variant", ["belote", "open_blot"])
async def test_it_never_sends_a_hidden_card_to_a_seat_or_a_spectator(
    variant, make_table, make_user
) -> None:
    table, users = await sync_to_async(seated_table)(make_table, make_user, variant)
    viewers = {}
    for seat, user in enumerate(users):
        viewers[seat], connected = await connect(table.pk, user)
        assert connected
    viewers[None], _ = await connect(table.pk, None)
    for ws in viewers.values():
        await receive_table(ws)
    rng = random.Random(7)
    checked = 0
    first_deal_done = False
    while not first_deal_done:
        seat, action, version, number = await sync_to_async(next_move)(table.pk, rng)
        move = {k: v for k, v in action.to_dict().items() if k != "seat"}
        if "cards" in move:
            move["cards"] = " ".join(move["cards"])
        await send_move(viewers[seat], version=version, **move)
        frames = {
            viewer: await receive_table(ws, at_least=version + 1) for viewer, ws in viewers.items()
        }
        # Only these moves change the table, so the state now is what was drawn.
        engine = await sync_to_async(state_now)(table.pk)
        for viewer, frame in frames.items():
            assert version_of(frame) > version, "the move was refused"
            leaked = shown_cards(frame) & hidden_cards(engine, viewer)
            assert not leaked, f"viewer {viewer} was sent {leaked}"
            checked += 1
        # Play on until a deal has been played out (a void Belote deal shows no play).
        first_deal_done = await Deal.objects.filter(
            match__table_id=table.pk, number=number, status=Deal.Status.FINISHED,
            result__void=False,
        ).aexists()
    assert checked >= 32 * len(viewers)
    for ws in viewers.values():
        await ws.disconnect()
