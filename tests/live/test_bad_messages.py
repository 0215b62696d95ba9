"""Hostile WebSocket messages are refusals, never exceptions.

Each message goes through the real consumer; the refusal must come back as the
usual error fragment plus the unchanged table, and the server must not log a
traceback (an anonymous spectator could otherwise flood the log).
"""

from __future__ import annotations

import logging

import pytest

from tests.live.wsclient import connect, receive_error, receive_table, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HOSTILE = {
    "deep-list": "[" * 1020 + "]" * 1020,
    "deep-object": '{"type": "play", "version": ' + "[" * 1000 + "]" * 1000 + "}",
    "infinity": '{"type": "pass", "version": Infinity}',
    "minus-infinity": '{"type": "pass", "version": -Infinity}',
    "nan": '{"type": "pass", "version": NaN}',
    "huge-float": '{"type": "pass", "version": 1e400}',
    "huge-int": '{"type": "pass", "version": ' + "9" * 1900 + "}",
    "bool-version": '{"type": "pass", "version": true}',
    "list-card": '{"type": "play", "card": ["JH"], "version": 0}',
    "object-card": '{"type": "play", "card": {"a": 1}, "version": 0}',
    "cards-of-objects": '{"type": "declare", "cards": [{}, []], "version": 0}',
    "huge-seat": '{"type": "pass", "seat": ' + "7" * 1900 + ', "version": 0}',
    "type-list": '{"type": ["pass"], "version": 0}',
    "lone-surrogate": '{"type": "play", "card": "\\ud800", "version": 0}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
async def test_it_refuses_a_hostile_message_without_logging_a_traceback(
    duel, alice, caplog, name
) -> None:
    ws, _ = await connect(duel.pk, alice)
    await receive_table(ws)
    with caplog.at_level(logging.DEBUG):
        await ws.send_to(text_data=HOSTILE[name])
        assert "table-error" in await receive_error(ws)
        assert version_of(await receive_table(ws)) == duel.version
    await ws.disconnect()
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) <= 1


async def test_it_refuses_a_hostile_message_from_an_anonymous_spectator_quietly(
    duel, caplog
) -> None:
    ws, _ = await connect(duel.pk, None)
    await receive_table(ws)
    with caplog.at_level(logging.DEBUG):
        for _ in range(20):
            await ws.send_to(text_data=HOSTILE["deep-list"])
            await receive_error(ws)
    await ws.disconnect()
    assert not [r for r in caplog.records if r.exc_info]
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) <= 1
