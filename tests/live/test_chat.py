"""Table chat over the table's socket: the fairness rules, the
rooms, safety (escaping, length, floods), mute, report, delete, silence."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.models import ChatMessage, ChatReport, Deal, Player, Room, Table
from games.services import chat as chat_service
from tests.live.conftest import live_of
from tests.live.wsclient import connect, receive_table, send_move, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MESSAGE = re.compile(r'<li class="chat-message[^"]*" id="chat-m-(\d+)"[^>]*data-author="([^"]*)"')


async def say(ws, **data) -> None:
    await ws.send_to(text_data=json.dumps({"type": "chat", **data}))


async def sync(ws) -> None:
    """What the page does once its socket is open: ask for the recent messages."""
    await ws.send_to(text_data=json.dumps({"type": "chat-sync"}))


async def collect(ws, seconds: float = 0.4) -> list[str]:
    """Everything the socket receives until it is quiet for ``seconds``."""
    got = []
    # (receive_from's timeout would stop the application; receive_nothing does not)
    while not await ws.receive_nothing(timeout=seconds):
        got.append(await ws.receive_from())
    return got


async def next_with(ws, needle: str, timeout: float = 5) -> str:
    """The next message that contains ``needle`` (others are skipped)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        left = end - loop.time()
        if left <= 0:
            raise AssertionError(f"no message with {needle!r}")
        frame = await ws.receive_from(timeout=left)
        if needle in frame:
            return frame


async def joined(table_id: int, user=None):
    """A connection with its first table frame and its chat logs received."""
    ws, ok = await connect(table_id, user)
    assert ok
    await receive_table(ws)
    await sync(ws)
    await next_with(ws, 'id="chat-log-players"')
    await collect(ws, 0.2)
    return ws


def set_language(user, code: str) -> None:
    Player.objects.filter(user=user).update(language=code)


def between_deals(table: Table) -> None:
    """The open deal is over (the next is not dealt yet): free text is open."""
    Deal.objects.filter(match__table=table, status=Deal.Status.PLAYING).update(
        status=Deal.Status.FINISHED
    )


def stored() -> list[tuple[str, str, str]]:
    return list(ChatMessage.objects.order_by("id").values_list("room", "phrase", "text"))


async def test_a_player_sends_only_quick_phrases_during_a_deal(duel, alice, bob):
    a = await joined(duel.pk, alice)
    b = await joined(duel.pk, bob)
    await say(a, room="players", text="my hand is all hearts")
    refusal = await next_with(a, "data-chat-refusal")
    assert "During a deal, players can send only quick phrases." in refusal
    assert await sync_to_async(stored)() == []
    assert not any("hearts" in m for m in await collect(b))
    await say(a, room="players", phrase="good-luck")
    got = await next_with(b, "data-chat-message")
    assert MESSAGE.search(got).group(2) == "alice"
    assert "data-phrase" not in got and "Good luck!" in got
    assert await sync_to_async(stored)() == [("players", "good-luck", "")]
    for ws in (a, b):
        await ws.disconnect()


async def test_free_text_opens_between_deals_unless_the_organiser_switched_it_off(duel, alice, bob):
    await sync_to_async(between_deals)(duel)
    a = await joined(duel.pk, alice)
    b = await joined(duel.pk, bob)
    await say(a, room="players", text="Well played, one more?")
    assert "Well played, one more?" in await next_with(b, "data-chat-message")
    # The creator (alice) switches free text off: every open chat redraws its
    # controls without the form, and free text is refused.
    await a.send_to(text_data=json.dumps({"type": "chat-free-text", "on": "0"}))
    controls = await next_with(b, 'id="chat-controls-players"')
    assert 'data-free-text="off"' in controls and "data-chat-form" not in controls
    await say(b, room="players", text="hello?")
    assert "Free text is switched off here" in await next_with(b, "data-chat-refusal")
    # Only the organiser may switch it.
    await b.send_to(text_data=json.dumps({"type": "chat-free-text", "on": "1"}))
    assert "Only the organiser" in await next_with(b, "data-chat-refusal")
    for ws in (a, b):
        await ws.disconnect()


async def test_each_reader_gets_a_phrase_in_their_own_language(duel, alice, bob, carol):
    await sync_to_async(set_language)(alice, "fr")
    await sync_to_async(set_language)(bob, "ru")
    await sync_to_async(set_language)(carol, "hy")
    a = await joined(duel.pk, alice)
    b = await joined(duel.pk, bob)
    c = await joined(duel.pk, carol)
    await say(b, room="players", phrase="well-played")
    assert "Bien joué !" in await next_with(a, "data-chat-message")
    assert "Хорошо сыграно!" in await next_with(b, "data-chat-message")
    assert "Լավ խաղացիր\u0589" in await next_with(c, "data-chat-message")  # Armenian full stop
    for ws in (a, b, c):
        await ws.disconnect()


async def test_a_spectators_message_never_reaches_a_player(duel, alice, bob, carol, make_user):
    dave = await sync_to_async(make_user)("dave")
    a = await joined(duel.pk, alice)
    b = await joined(duel.pk, bob)
    c = await joined(duel.pk, carol)
    d = await joined(duel.pk, dave)
    anonymous = await joined(duel.pk, None)
    await say(c, room="spectators", text="alice should lead the ace")
    assert "alice should lead the ace" in await next_with(d, "data-chat-message")
    assert "alice should lead the ace" in await next_with(anonymous, "data-chat-message")
    for player in (a, b):
        assert not any(
            "lead the ace" in m or "data-chat-message" in m for m in await collect(player)
        )
    # Spectators cannot write in the players' room, players not in the spectators'.
    await say(c, room="players", phrase="hello")
    assert "Only the players write" in await next_with(c, "data-chat-refusal")
    await say(a, room="spectators", phrase="hello")
    assert "Players do not write in the spectators&#x27; room." in await next_with(
        a, "data-chat-refusal"
    )
    # A player's page, frames and chat alike, never carries the spectators' room.
    again = await connect(duel.pk, alice)
    await sync(again[0])
    everything = "".join(await collect(again[0], 0.5))
    assert "chat-log-spectators" not in everything
    assert "lead the ace" not in everything
    assert await sync_to_async(ChatMessage.objects.count)() == 1
    for ws in (a, b, c, d, anonymous, again[0]):
        await ws.disconnect()


async def test_a_signed_out_visitor_reads_the_spectators_room_but_cannot_post(duel, carol):
    c = await joined(duel.pk, carol)
    anonymous, _ = await connect(duel.pk, None)
    await sync(anonymous)
    first = "".join(await collect(anonymous, 0.5))
    assert "Log in to chat." in first and "data-chat-form" not in first
    await say(c, room="spectators", phrase="hello")
    got = await next_with(anonymous, "data-chat-message")
    # Nobody to mute or report for a reader who is not signed in.
    assert 'data-action="mute"' not in got and 'data-action="report"' not in got
    await say(anonymous, room="spectators", phrase="hello")
    assert "Log in to chat." in await next_with(anonymous, "data-chat-refusal")
    for ws in (c, anonymous):
        await ws.disconnect()


async def test_text_is_escaped_and_links_stay_text(duel, carol, make_user):
    dave = await sync_to_async(make_user)("dave")
    c = await joined(duel.pk, carol)
    d = await joined(duel.pk, dave)
    evil = '<script>alert(1)</script><a href="https://evil.example">win</a> https://x.example "q\''
    await say(c, room="spectators", text=evil)
    got = await next_with(d, "data-chat-message")
    assert "<script" not in got and "<a " not in got and 'href="' not in got
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in got
    assert "https://x.example" in got and "&quot;q&#x27;" in got
    # Readers other than the author may mute and report it; the author may not.
    assert 'data-action="mute"' in got and 'data-action="report"' in got
    mine = await next_with(c, "data-chat-message")
    assert 'data-action="mute"' not in mine
    await say(c, room="spectators", text="x" * (chat_service.MAX_TEXT + 1))
    assert "at most 200 characters" in await next_with(c, "data-chat-refusal")
    await say(c, room="spectators", text=" \u200b\u202e ")
    assert "Write a message first." in await next_with(c, "data-chat-refusal")
    assert await sync_to_async(ChatMessage.objects.count)() == 1
    for ws in (c, d):
        await ws.disconnect()


async def test_a_flood_is_refused_and_disturbs_nothing_else(
    duel, alice, bob, settings, monkeypatch
):
    settings.BLOT_CHAT_BURST = (5, 60)
    settings.BLOT_CHAT_SUSTAINED = (30, 600)
    asked = []
    post = chat_service.post

    def counting_post(*args, **kwargs):
        asked.append(1)
        return post(*args, **kwargs)

    monkeypatch.setattr(chat_service, "post", counting_post)
    a = await joined(duel.pk, alice)
    b = await joined(duel.pk, bob)
    for _ in range(40):
        await say(a, room="players", phrase="oops")
    got = await collect(b, 0.6)
    assert sum("data-chat-message" in m for m in got) == 5
    assert not any('id="table-root"' in m for m in got)  # the table was not redrawn
    refusals = [m for m in await collect(a, 0.6) if "data-chat-refusal" in m]
    assert refusals and "You are sending messages too fast." in refusals[-1]
    table = await sync_to_async(Table.objects.get)(pk=duel.pk)
    assert table.version == duel.version
    assert await sync_to_async(ChatMessage.objects.count)() == 5
    # The 35 refusals were made by the socket itself: none reached the service.
    assert len(asked) == 5
    # The game goes on: the player to act still plays.
    live = await sync_to_async(live_of)(duel)
    mover = {0: a, 1: b}[live.engine.to_act]
    action = live.engine.legal_actions()[0]
    await send_move(
        mover, version=duel.version, **{k: v for k, v in action.to_dict().items() if k != "seat"}
    )
    assert version_of(await receive_table(mover, at_least=duel.version + 1)) == duel.version + 1
    for ws in (a, b):
        await ws.disconnect()


async def test_the_sustained_limit_holds_too(duel, carol, settings):
    settings.BLOT_CHAT_BURST = (100, 60)
    settings.BLOT_CHAT_SUSTAINED = (3, 600)
    c = await joined(duel.pk, carol)
    for _ in range(4):
        await say(c, room="spectators", phrase="hello")
    assert "a lot of messages in the last few minutes" in await next_with(c, "data-chat-refusal")
    assert await sync_to_async(ChatMessage.objects.count)() == 3
    await c.disconnect()


async def test_muting_hides_a_person_for_the_muter_everywhere(duel, alice, bob):
    await sync_to_async(between_deals)(duel)
    a = await joined(duel.pk, alice)
    b = await joined(duel.pk, bob)
    b2 = await joined(duel.pk, bob)  # bob's second page
    await say(a, room="players", text="first")
    for ws in (b, b2):
        await next_with(ws, "first")
    await b.send_to(text_data=json.dumps({"type": "chat-mute", "author": "alice"}))
    # Both of bob's pages redraw the room without alice.
    for ws in (b, b2):
        log = await next_with(ws, 'id="chat-log-players" class="chat-log" hx-swap-oob="true"')
        assert "first" not in log
        assert 'data-action="unmute"' in log and "Unmute alice" in log
    await say(a, room="players", text="second")
    await next_with(a, "second")
    for ws in (b, b2):
        assert not any("second" in m for m in await collect(ws))
    muted = await sync_to_async(chat_service.recent)(
        chat_service.Where(Room.PLAYERS, table_id=duel.pk)
    )
    assert len(muted) == 2  # still there for everyone else
    await b.send_to(text_data=json.dumps({"type": "chat-unmute", "author": "alice"}))
    log = await next_with(b, 'id="chat-log-players" class="chat-log" hx-swap-oob="true"')
    assert "first" in log and "second" in log
    for ws in (a, b, b2):
        await ws.disconnect()


async def test_a_report_keeps_the_message_and_what_came_before(duel, alice, bob, carol):
    await sync_to_async(between_deals)(duel)
    a = await joined(duel.pk, alice)
    b = await joined(duel.pk, bob)
    await say(b, room="players", text="hi")
    await next_with(a, "hi")
    await say(a, room="players", text="you are terrible")
    got = await next_with(b, "terrible")
    message_id = int(MESSAGE.search(got).group(1))
    await b.send_to(text_data=json.dumps({"type": "chat-report", "message": message_id}))
    assert "The moderators will read" in await next_with(b, "chat-notice")
    report = await sync_to_async(ChatReport.objects.select_related("reported_user").get)()
    assert report.reported_user.username == "alice" and report.reported_text == "you are terrible"
    assert [c["said"] for c in report.context] == ["hi", "you are terrible"]
    await b.send_to(text_data=json.dumps({"type": "chat-report", "message": message_id}))
    assert "already reported" in await next_with(b, "data-chat-refusal")
    await a.send_to(text_data=json.dumps({"type": "chat-report", "message": message_id}))
    assert "your own message" in await next_with(a, "data-chat-refusal")
    for ws in (a, b):
        await ws.disconnect()


async def test_a_player_cannot_report_what_only_spectators_read(duel, alice, carol):
    message = await sync_to_async(chat_service.post)(
        chat_service.Where(Room.SPECTATORS, table_id=duel.pk), carol, text="psst"
    )
    a = await joined(duel.pk, alice)
    await a.send_to(text_data=json.dumps({"type": "chat-report", "message": message.pk}))
    assert "There is no such message." in await next_with(a, "data-chat-refusal")
    await a.disconnect()


async def test_a_report_names_only_a_message_of_a_room_the_socket_reads(
    duel, make_table, alice, bob, make_user
):
    """A stranger at a public table cannot report (and so copy for staff) a
    message of a private table's players' room; and whether a message is
    missing, foreign or malformed, the answer is the same."""
    dave = await sync_to_async(make_user)("dave")
    await sync_to_async(between_deals)(duel)
    secret = await sync_to_async(chat_service.post)(
        chat_service.Where(Room.PLAYERS, table_id=duel.pk), alice, text="our private plan"
    )
    public = await sync_to_async(make_table)(bob, "belote")
    d = await joined(public.pk, dave)
    answers = []
    for message_id in (secret.pk, secret.pk + 1000, "x1", -1):
        await d.send_to(text_data=json.dumps({"type": "chat-report", "message": message_id}))
        answers.append(await next_with(d, "chat-refusal"))
    assert len(set(answers)) == 1 and "There is no such message." in answers[0]
    assert await sync_to_async(ChatReport.objects.count)() == 0
    await d.disconnect()


async def test_staff_delete_takes_a_message_off_every_page_at_once(duel, alice, bob, make_user):
    staff = await sync_to_async(make_user)("mod", is_staff=True)
    await sync_to_async(between_deals)(duel)
    a = await joined(duel.pk, alice)
    b = await joined(duel.pk, bob)
    await say(a, room="players", text="something rude")
    message_id = int(MESSAGE.search(await next_with(b, "rude")).group(1))
    await sync_to_async(chat_service.delete_messages)([message_id], staff)
    for ws in (a, b):
        assert f'<li id="chat-m-{message_id}" hx-swap-oob="delete">' in await next_with(
            ws, "delete"
        )
    late = await joined(duel.pk, bob)
    assert (
        await sync_to_async(chat_service.recent)(chat_service.Where(Room.PLAYERS, table_id=duel.pk))
        == []
    )
    with pytest.raises(chat_service.ServiceError):
        await sync_to_async(chat_service.delete_messages)([message_id], alice)
    for ws in (a, b, late):
        await ws.disconnect()


async def test_a_silenced_person_cannot_post_until_the_silence_ends(duel, alice, make_user):
    staff = await sync_to_async(make_user)("mod", is_staff=True)
    await sync_to_async(chat_service.silence)(alice.pk, timezone.now() + timedelta(hours=1), staff)
    a = await joined(duel.pk, alice)
    await say(a, room="players", phrase="hello")
    assert "A moderator has silenced you in the chat until" in await next_with(
        a, "data-chat-refusal"
    )
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await a.disconnect()


async def test_a_joining_or_returning_viewer_sees_the_recent_messages(duel, alice, bob, carol):
    where = chat_service.Where(Room.PLAYERS, table_id=duel.pk)
    await sync_to_async(chat_service.post)(where, alice, phrase="hello")
    await sync_to_async(chat_service.post)(where, bob, phrase="good-luck")
    spectators = chat_service.Where(Room.SPECTATORS, table_id=duel.pk)
    await sync_to_async(chat_service.post)(spectators, carol, text="go bob")
    ws, _ = await connect(duel.pk, carol)
    await sync(ws)
    logs = "".join(await collect(ws, 0.5))
    assert [m.group(2) for m in MESSAGE.finditer(logs)] == ["alice", "bob", "carol"]
    await ws.disconnect()


async def test_a_tournament_page_has_a_room(alice, bob):
    from channels.testing import WebsocketCommunicator

    from blotsite.asgi import application
    from games.models import RuleSetConfig, Tournament
    from tests.live.wsclient import session_cookie

    rule_set = await sync_to_async(RuleSetConfig.objects.filter(variant="belote").first)()
    tournament = await sync_to_async(Tournament.objects.create)(
        name="Cup",
        variant="belote",
        rule_set=rule_set,
        format="first_to:1001",
        created_by=alice,
        status="registration",
    )

    async def open_as(user):
        cookie = await sync_to_async(session_cookie)(user)
        headers = [
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
            (b"cookie", cookie.encode()),
        ]
        ws = WebsocketCommunicator(application, f"/ws/chat/tournament/{tournament.pk}/", headers)
        assert (await ws.connect(timeout=5))[0]
        await sync(ws)
        await next_with(ws, 'id="chat-log-tournament"')
        return ws

    a, b = await open_as(alice), await open_as(bob)
    await b.send_to(text_data=json.dumps({"type": "chat", "room": "tournament", "text": "gl all"}))
    assert "gl all" in await next_with(a, "data-chat-message")
    await a.send_to(text_data=json.dumps({"type": "chat-free-text", "on": "0"}))
    await next_with(b, 'data-free-text="off"')
    await b.send_to(text_data=json.dumps({"type": "chat", "room": "tournament", "text": "x"}))
    assert "Free text is switched off" in await next_with(b, "data-chat-refusal")
    for ws in (a, b):
        await ws.disconnect()


async def test_malformed_chat_messages_are_refused_quietly(duel, alice, caplog, settings):
    settings.BLOT_CHAT_BURST = (100, 60)
    await sync_to_async(between_deals)(duel)
    a = await joined(duel.pk, alice)
    hostile = [
        {"type": "chat", "room": ["players"], "text": "x"},
        {"type": "chat", "room": "players", "text": {"a": 1}},
        {"type": "chat", "room": "players", "phrase": ["hello"]},
        {"type": "chat", "room": "players", "phrase": "my-hand-is-hearts"},
        {"type": "chat-report", "message": "9" * 40},
        {"type": "chat-report", "message": None},
        {"type": "chat-mute", "author": {"$ne": ""}},
        {"type": "chat-mute", "author": "alice"},
        {"type": "chat-free-text", "on": [1]},
    ]
    with caplog.at_level("WARNING"):
        for data in hostile:
            await a.send_to(text_data=json.dumps(data))
            refusal = await next_with(a, "chat-refusal")
            assert "data-chat-refusal" in refusal and "too fast" not in refusal
    assert [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")] == []
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await a.disconnect()
