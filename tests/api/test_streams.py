"""The Bot API's streams through the site's ASGI application: a line per change
of the bot seat's view (exactly the engine's observation for that seat), the
bot's events, keep-alives, a revoked token ending a stream, and a closed stream
counting as a lost connection."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from engine.observe import observe
from games.api import streams
from games.live.conduct import conductor
from games.live.plan.turns import plan
from games.live.store import presence
from games.live.submit.play import current
from games.models import Match, Presence, Table
from games.services import bots, social

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def post(api, path: str, body: dict | None = None):
    return api.post(path, body)


@sync_to_async
def run_bots() -> int:
    return conductor.run_due()


async def settled(check, timeout: float = 10.0):
    """``check()`` (run in a thread) once it is truthy: the process's presence
    writer may be flushing the same connections in the background."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        await sync_to_async(presence.live_set.flush)(0)
        found = await sync_to_async(check)()
        if found or asyncio.get_running_loop().time() > deadline:
            return found
        await asyncio.sleep(0.05)


async def new_table(api, variant: str = "open_blot", **extra) -> dict:
    seats = {"open_blot": 1, "belote": 3}[variant]
    body = {
        "variant": variant,
        "levels": ["easy"] * seats,
        "bot_delay_ms": 0,
        "trick_pause_ms": 0,
        **extra,
    }
    answer = await post(api, "/api/bot/table", body)
    assert answer.status_code == 200, answer.content
    return answer.json()


@sync_to_async
def engine_view(table_id: int, seat: int) -> tuple[int, dict | None]:
    """The table's version and the seat's observation of its open deal (None
    between deals: every seat passed twice, say)."""
    table = Table.objects.get(pk=table_id)
    live = current(table)
    return table.version, None if live is None else observe(live.engine, seat).to_dict()


async def test_the_match_stream_sends_the_seat_s_observation_at_each_change(
    api_for, robot, open_api_stream
) -> None:
    _user, value = robot
    api = api_for(value)
    made = await new_table(api, "belote")
    stream = await open_api_stream(f"/api/bot/match/{made['match']}/stream", value)
    assert stream.status == 200
    assert stream.communicator  # opened
    seen = []
    for _ in range(12):
        line = await stream.line()
        assert line["type"] == "state" and line["seat"] == 0 and line["over"] is False
        version, expected = await engine_view(made["table"], 0)
        if line["version"] == version and expected is not None:  # the very observation
            assert line["observation"] == expected
            assert line["legal"] == expected["legal"]
        seen.append(line["version"])
        if line["legal"]:
            answer = await post(
                api,
                f"/api/bot/match/{made['match']}/action",
                {"version": line["version"], "action": line["legal"][0]},
            )
            assert answer.status_code == 200
        else:
            await run_bots()
    assert seen == sorted(seen) and len(set(seen)) == len(seen)  # one line per version
    await stream.close()


async def test_a_whole_match_through_the_stream_then_it_ends(
    api_for, robot, open_api_stream
) -> None:
    _user, value = robot
    api = api_for(value)
    made = await new_table(api, "open_blot", format="best_of:3")
    stream = await open_api_stream(f"/api/bot/match/{made['match']}/stream", value)
    rng = random.Random(5)
    deals = set()
    last = None
    for _ in range(400):
        line = await stream.line()
        if line is None:
            break
        last = line
        deals.add(line["deal"])
        if line["over"]:
            continue
        if line["legal"]:
            await post(
                api,
                f"/api/bot/match/{made['match']}/action",
                {"version": line["version"], "action": rng.choice(line["legal"])},
            )
        elif line["to_act"] is not None:
            await run_bots()
    assert last is not None and last["over"] is True and last["winner"] in (0, 1)
    assert stream.ended  # the stream closes once the match is over
    assert deals >= {1, 2}  # each next deal was dealt once the bot had the result
    match = await sync_to_async(Match.objects.get)(pk=made["match"])
    assert match.status == Match.Status.FINISHED


async def test_an_idle_stream_sends_keep_alive_lines(
    api_for, robot, settings, open_api_stream
) -> None:
    settings.BLOT_API_KEEPALIVE_S = 1
    _user, value = robot
    api = api_for(value)
    made = await new_table(api, "open_blot")
    stream = await open_api_stream(f"/api/bot/match/{made['match']}/stream", value)
    await stream.line()
    await stream.blank(timeout=10)
    events = await open_api_stream("/api/bot/stream/event", value)
    await events.line()  # the match it plays
    await events.blank(timeout=10)
    await stream.close()
    await events.close()


async def test_a_revoked_token_ends_its_open_streams(
    api_for, robot, settings, open_api_stream
) -> None:
    settings.BLOT_API_KEEPALIVE_S = 1
    user, value = robot
    api = api_for(value)
    made = await new_table(api, "open_blot")
    stream = await open_api_stream(f"/api/bot/match/{made['match']}/stream", value)
    events = await open_api_stream("/api/bot/stream/event", value)
    first = await stream.line()
    assert first["type"] == "state"
    await events.line()
    token = (await sync_to_async(bots.tokens_of)(user))[0]
    await sync_to_async(bots.revoke_token)(user, token.pk)
    for opened in (stream, events):
        line = await opened.line(timeout=10)
        while line is not None and line["type"] != "error":
            line = await opened.line(timeout=10)
        assert line is not None and line["error"]["code"] == "unauthorized"
        assert await opened.line(timeout=10) is None  # and the stream ends
    refused = await open_api_stream(f"/api/bot/match/{made['match']}/stream", value)
    assert refused.status == 401


async def test_a_closed_stream_is_a_lost_connection(api_for, robot, open_api_stream) -> None:
    user, value = robot
    api = api_for(value)
    made = await new_table(api, "open_blot")
    stream = await open_api_stream(f"/api/bot/match/{made['match']}/stream", value)
    await stream.line()
    open_rows = await settled(
        lambda: list(Presence.objects.filter(table_id=made["table"], seat_index=0))
    )
    assert [(p.user_id, p.closed_at) for p in open_rows] == [(user.pk, None)]

    await stream.close()
    closed = await settled(
        lambda: Presence.objects.get(table_id=made["table"], seat_index=0).closed_at
    )
    assert closed is not None

    @sync_to_async
    def stand_in_due():
        table = Table.objects.get(pk=made["table"])
        table.disconnect_grace_seconds = 0
        live = current(table)
        if live.engine.to_act != 0:
            return None
        return plan(live, timezone.now() + timedelta(seconds=1))

    step = await stand_in_due()
    if step is not None:  # the bot's turn: a stand-in plays it, as for a person gone
        assert step.level == "normal" and step.away


async def test_the_event_stream_tells_of_challenges_and_matches(
    api_for, robot, alice, open_api_stream
) -> None:
    user, value = robot
    api = api_for(value)
    events = await open_api_stream("/api/bot/stream/event", value)
    challenge = await sync_to_async(social.create_challenge)(
        alice, user, variant="open_blot", fmt="best_of:1"
    )
    line = await events.line()
    assert line["type"] == "challenge" and line["challenge"]["id"] == challenge.pk
    assert line["challenge"]["challenger"] == "alice"
    accepted = await post(api, f"/api/bot/challenge/{challenge.pk}/accept")
    match_id = accepted.json()["match"]
    line = await events.line()
    assert line == {**line, "type": "matchStart", "match": match_id, "seat": 1}
    table_id = line["table"]

    @sync_to_async
    def resign() -> None:
        from games.services import seating

        seating.resign(table_id, alice)

    await resign()
    line = await events.line()
    assert line["type"] == "matchFinish" and line["match"] == match_id and line["winner"] == 1
    await events.close()


async def test_the_event_stream_counts_as_being_online(
    api_for, robot, settings, open_api_stream
) -> None:
    settings.BLOT_API_KEEPALIVE_S = 1
    user, value = robot
    events = await open_api_stream("/api/bot/stream/event", value)
    await events.blank()  # the stream is running
    assert await settled(lambda: presence.online([user.pk])) == {user.pk}
    await events.close()
    assert await settled(lambda: not presence.online([user.pk]))


async def test_a_token_holds_only_so_many_streams(
    api_for, robot, settings, open_api_stream
) -> None:
    settings.BLOT_API_STREAMS_PER_TOKEN = 2
    settings.BLOT_API_KEEPALIVE_S = 1
    _user, value = robot
    opened = [await open_api_stream("/api/bot/stream/event", value) for _ in range(2)]
    for stream in opened:
        await stream.blank()  # running: a stream counts itself once it runs
    refused = await open_api_stream("/api/bot/stream/event", value)
    assert refused.status == 429
    await opened[0].close()
    again = await open_api_stream("/api/bot/stream/event", value)
    assert again.status == 200
    for stream in (opened[1], again):
        await stream.close()
    assert streams._open == {}
