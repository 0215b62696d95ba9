"""A table learns its viewers' languages once per process, not once per join."""

from __future__ import annotations

import asyncio

import pytest

from games.live.draw import frames
from games.live.receive import consumers
from games.runtime.sharedcache import shared


@pytest.fixture
def writes(monkeypatch) -> list[str]:
    made: list[str] = []
    client = shared()
    real = client.set

    def counting(key, *args, **kwargs):
        made.append(key)
        return real(key, *args, **kwargs)

    monkeypatch.setattr(client, "set", counting)
    return made


def test_a_storm_of_joins_in_one_language_writes_it_once(writes) -> None:
    for _ in range(50):
        frames.note_language(7, "ru")
    frames.note_language(7, "hy")
    frames.note_language(8, "ru")
    assert len(writes) == 3
    assert set(frames.languages_in_use(7)) == {"hy", "ru"}


def test_languages_are_written_again_once_the_channel_layer_is_back(writes) -> None:
    # Redis restarted: the shared cache may have lost them.
    frames.note_language(7, "ru")
    asyncio.run(consumers.resync_live_connections())
    frames.note_language(7, "ru")
    assert len(writes) == 2


def test_a_language_the_cache_could_not_take_is_tried_again_at_the_next_join(
    writes, monkeypatch
) -> None:
    client = shared()
    counting = client.set

    def away(key, *args, **kwargs):
        counting(key, *args, **kwargs)
        raise ConnectionError("the cache is away")

    monkeypatch.setattr(client, "set", away)
    frames.note_language(7, "ru")
    monkeypatch.setattr(client, "set", counting)
    frames.note_language(7, "ru")
    assert len(writes) == 2
    assert "ru" in frames.languages_in_use(7)
