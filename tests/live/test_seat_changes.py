"""A table socket acts and sees only as what its user is now.

When a seat changes hands before the match (a move to another seat, leaving a
seat, sitting down from watching), every socket the person has open at the
table is moved to their new place — the new seat's viewpoint, the spectators'
view and room — or closed when they may no longer view the table. Whatever a
socket believes, the move path checks on every move that the seat belongs to
the socket's user at that moment.
"""

from __future__ import annotations

import json
import random

import pytest
from asgiref.sync import sync_to_async

from engine.ai import decide
from engine.observe import observe
from games.live.store import presence
from games.live.submit.play import current
from games.models import Presence, Room, Table
from games.services import chat as chat_service
from games.services import tables as table_services
from games.services.tables import join_seat, leave_seat
from tests.live.test_chat import collect, next_with, say, sync
from tests.live.test_leaks import hidden_cards, shown_cards
from tests.live.wsclient import connect, receive_error, receive_table, send_move, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def seat_of(frame: str) -> str:
    """The seat a frame was drawn for ("" for the spectators' view)."""
    return frame.split('data-seat="', 1)[1].split('"', 1)[0]


def table_version(table_id: int) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table_id)


def to_act_and_move(table_id: int, rng: random.Random) -> tuple[int, dict, int]:
    """The seat to act, a move for it as a browser sends it, the table version."""
    table = Table.objects.get(pk=table_id)
    live = current(table)
    seat = live.engine.to_act
    action = decide("easy", observe(live.engine, seat), rng)
    move = {k: v for k, v in action.to_dict().items() if k != "seat"}
    if "cards" in move:
        move["cards"] = " ".join(move["cards"])
    return seat, move, table.version


def engine_now(table_id: int):
    return current(Table.objects.get(pk=table_id)).engine


async def frames_until_quiet(ws, seconds: float = 0.5) -> list[str]:
    """Every table frame the socket is sent until it is quiet for ``seconds``."""
    return [m for m in await collect(ws, seconds) if 'id="table-root"' in m]


async def play_until(table_id: int, sockets: dict[int, object], seat: int, watched) -> list[str]:
    """The holders play over their own sockets (``sockets`` by seat), at least
    one move, until ``seat`` is to act; every table frame ``watched`` receives
    meanwhile is returned (``watched`` may be one of them)."""
    rng = random.Random(3)
    seen: list[str] = []
    for played in range(12):
        to_act, move, version = await sync_to_async(to_act_and_move)(table_id, rng)
        if to_act == seat and played:
            return seen
        await send_move(sockets[to_act], version=version, **move)
        for ws in sockets.values():
            while True:
                frame = await ws.receive_from(timeout=5)
                if ws is watched and 'id="table-root"' in frame:
                    seen.append(frame)
                if 'id="table-root"' in frame and (version_of(frame) or 0) > version:
                    break
        if watched not in sockets.values():
            seen += await frames_until_quiet(watched, 0.3)
    raise AssertionError(f"seat {seat} never came to act")


async def test_a_socket_follows_its_user_to_another_seat_and_never_sees_the_old_one(
    make_table, make_user
) -> None:
    alice, bob, carol, dave = [
        await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol", "dave")
    ]
    table = await sync_to_async(make_table)(alice, "belote")
    old, connected = await connect(table.pk, alice)
    assert connected
    assert seat_of(await receive_table(old)) == "0"

    await sync_to_async(join_seat)(table.pk, alice, 3)
    moved = await receive_table(old, at_least=await sync_to_async(table_version)(table.pk))
    assert seat_of(moved) == "3"
    for index, user in enumerate((bob, carol, dave)):
        await sync_to_async(join_seat)(table.pk, user, index)
    assert (await Table.objects.aget(pk=table.pk)).status == Table.Status.PLAYING

    holders = {}
    for index, user in enumerate((bob, carol, dave)):
        holders[index], _ = await connect(table.pk, user)
        assert seat_of(await receive_table(holders[index])) == str(index)
    seen = await play_until(table.pk, {**holders, 3: old}, 0, old)
    seen += await frames_until_quiet(old, 0.3)
    engine = await sync_to_async(engine_now)(table.pk)
    assert seen, "the old socket heard nothing of the match"
    for frame in seen:
        assert seat_of(frame) == "3", "the old socket was sent another seat's frame"
        assert not shown_cards(frame) & hidden_cards(engine, 3)

    # Seat 0 is to act: a pass sent on the old socket is not taken as seat 0's.
    version = await sync_to_async(table_version)(table.pk)
    await send_move(old, type="pass", version=version)
    await receive_error(old)
    assert await sync_to_async(table_version)(table.pk) == version
    for ws in (old, *holders.values()):
        await ws.disconnect()


async def test_a_move_from_a_socket_that_has_not_heard_of_the_change_is_refused(
    make_table, alice, bob, monkeypatch
) -> None:
    """Even a socket that missed the announcement (say, the channel layer lost
    it) cannot act for a seat that is no longer its user's."""
    table = await sync_to_async(make_table)(alice, "open_blot")
    old, _ = await connect(table.pk, alice)
    assert seat_of(await receive_table(old)) == "0"
    monkeypatch.setattr(
        table_services, "announce_seats_changed", lambda *a, **k: None, raising=False
    )
    await sync_to_async(join_seat)(table.pk, alice, 1)
    await sync_to_async(join_seat)(table.pk, bob, 0)
    bobs, _ = await connect(table.pk, bob)
    await receive_table(bobs)
    alices, _ = await connect(table.pk, alice)
    await receive_table(alices)
    sockets = {0: bobs, 1: alices}
    seen = await play_until(table.pk, sockets, 0, old)
    engine = await sync_to_async(engine_now)(table.pk)
    assert not any(shown_cards(f) & hidden_cards(engine, 1) for f in seen)
    assert all(seat_of(f) != "0" for f in seen)

    version = await sync_to_async(table_version)(table.pk)
    await old.send_to(text_data=json.dumps({"type": "pass", "version": version}))
    refusal = await receive_error(old)
    assert "This seat is no longer yours." in refusal
    assert await sync_to_async(table_version)(table.pk) == version
    # The refusal sends the socket to where its user is now: seat 1.
    assert seat_of(await receive_table(old)) == "1"
    for ws in (old, bobs, alices):
        await ws.disconnect()


async def test_two_tabs_of_one_person_both_follow_them(make_table, alice, bob) -> None:
    table = await sync_to_async(make_table)(alice, "open_blot")
    tabs = []
    for _ in range(2):
        ws, _ = await connect(table.pk, alice)
        assert seat_of(await receive_table(ws)) == "0"
        tabs.append(ws)
    await sync_to_async(join_seat)(table.pk, alice, 1)
    version = await sync_to_async(table_version)(table.pk)
    for ws in tabs:
        assert seat_of(await receive_table(ws, at_least=version)) == "1"
    await sync_to_async(join_seat)(table.pk, bob, 0)
    bobs, _ = await connect(table.pk, bob)
    await receive_table(bobs)
    seen = await play_until(table.pk, {0: bobs, 1: tabs[0]}, 0, tabs[1])
    engine = await sync_to_async(engine_now)(table.pk)
    for frame in seen + await frames_until_quiet(tabs[0], 0.1):
        assert seat_of(frame) == "1"
        assert not shown_cards(frame) & hidden_cards(engine, 1)
    for ws in (*tabs, bobs):
        await ws.disconnect()


async def test_a_player_who_leaves_a_seat_is_moved_to_the_spectators(make_table, make_user) -> None:
    alice, bob, carol, dave, erin = [
        await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol", "dave", "erin")
    ]
    table = await sync_to_async(make_table)(bob, "belote")
    await sync_to_async(join_seat)(table.pk, alice, 1)
    old, _ = await connect(table.pk, alice)
    assert seat_of(await receive_table(old)) == "1"

    await sync_to_async(leave_seat)(table.pk, alice, 1)
    version = await sync_to_async(table_version)(table.pk)
    assert seat_of(await receive_table(old, at_least=version)) == ""
    for index, user in ((1, carol), (2, dave), (3, erin)):
        await sync_to_async(join_seat)(table.pk, user, index)
    holders = {}
    for index, user in enumerate((bob, carol, dave, erin)):
        holders[index], _ = await connect(table.pk, user)
        await receive_table(holders[index])
    seen = await play_until(table.pk, holders, 1, old)
    engine = await sync_to_async(engine_now)(table.pk)
    for frame in seen:
        assert seat_of(frame) == ""
        assert not shown_cards(frame) & hidden_cards(engine, None)

    version = await sync_to_async(table_version)(table.pk)
    await send_move(old, type="pass", version=version)
    assert "Spectators cannot play." in await receive_error(old)
    assert await sync_to_async(table_version)(table.pk) == version
    for ws in (old, *holders.values()):
        await ws.disconnect()


async def test_leaving_a_seat_of_a_private_table_closes_the_socket(make_table, alice, bob) -> None:
    table = await sync_to_async(make_table)(bob, "belote", is_private=True)
    await sync_to_async(join_seat)(table.pk, alice, 2)
    old, connected = await connect(table.pk, alice)
    assert connected
    assert seat_of(await receive_table(old)) == "2"
    await sync_to_async(leave_seat)(table.pk, alice, 2)
    while True:
        output = await old.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == 4404


async def test_a_spectator_who_sits_down_stops_reading_the_spectators_room(
    make_table, make_user
) -> None:
    alice, bob, carol = [await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol")]
    table = await sync_to_async(make_table)(bob, "belote")
    watching, _ = await connect(table.pk, alice)
    assert seat_of(await receive_table(watching)) == ""
    await sync(watching)
    await next_with(watching, 'id="chat-log-spectators"')
    await collect(watching, 0.2)
    carols, _ = await connect(table.pk, carol)
    await receive_table(carols)
    await say(carols, room="spectators", text="before she sat down")
    assert "before she sat down" in await next_with(watching, "data-chat-message")

    await sync_to_async(join_seat)(table.pk, alice, 1)
    version = await sync_to_async(table_version)(table.pk)
    assert seat_of(await receive_table(watching, at_least=version)) == "1"
    await collect(watching, 0.3)
    await say(carols, room="spectators", text="psst, her cards")
    bobs, _ = await connect(table.pk, bob)
    await receive_table(bobs)
    await say(bobs, room="players", text="welcome")
    got = await collect(watching, 0.6)
    assert any("welcome" in m for m in got)
    assert not any("psst" in m for m in got)
    stored = await sync_to_async(
        lambda: list(chat_service.recent(chat_service.Where(Room.SPECTATORS, table_id=table.pk)))
    )()
    assert [m.text for m in stored] == ["before she sat down", "psst, her cards"]
    await say(watching, room="spectators", phrase="hello")
    assert "Players do not write in the spectators&#x27; room." in await next_with(
        watching, "data-chat-refusal"
    )
    for ws in (watching, carols, bobs):
        await ws.disconnect()


async def test_a_sockets_first_frame_is_its_seat_as_it_is_now(make_table, alice, bob) -> None:
    """A frame is drawn for a seat only while its socket's user holds it: a
    version the old holder's socket is sent after the change is the new place's."""
    table = await sync_to_async(make_table)(alice, "open_blot")
    ws, _ = await connect(table.pk, alice)
    await receive_table(ws)
    await sync_to_async(join_seat)(table.pk, alice, 1)
    await sync_to_async(join_seat)(table.pk, bob, 0)
    await ws.send_to(text_data=json.dumps({"type": "refresh"}))
    frames = await frames_until_quiet(ws, 0.5)
    assert frames and {seat_of(f) for f in frames} == {"1"}
    assert version_of(frames[-1]) == await sync_to_async(table_version)(table.pk)
    await ws.disconnect()


def _presence_follows_the_socket(table_id: int, user_id: int) -> None:
    book = presence.LiveSet()
    book.open("watching", table_id, user_id, None)
    book.flush()
    book.move("watching", 2)  # sat down
    assert book.flush() == {table_id: 0}  # a spectator fewer
    row = Presence.objects.get(channel_name="watching")
    assert (row.seat_index, row.closed_at) == (2, None)
    # Moved again and closed before the next batch: its row is closed all the same.
    book.move("watching", 3)
    book.close("watching")
    book.flush()
    assert Presence.objects.get(channel_name="watching").closed_at is not None
    # Moved before its row was ever written: written once, as it is now.
    book.open("new", table_id, user_id, 0)
    book.move("new", None)
    book.flush()
    assert Presence.objects.get(channel_name="new").seat_index is None


async def test_a_moved_sockets_presence_row_follows_it(make_table, alice) -> None:
    table = await sync_to_async(make_table)(alice, "belote")
    await sync_to_async(_presence_follows_the_socket)(table.pk, alice.pk)
