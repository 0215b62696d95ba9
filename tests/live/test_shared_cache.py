"""The shared cache is one client per process: every connection (each its own
asyncio context in Daphne) and every database thread share it, and with it
Redis's connection pool. Django's ``cache`` is a client per context, so each
spectator's join opened a Redis connection of its own."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import caches

from games import ratelimit
from games.live.draw import frames


async def clients_made_by(work: Callable[[], object], contexts: int, monkeypatch) -> int:
    """How many cache clients ``work`` makes when run once in each of
    ``contexts`` fresh asyncio contexts, as sockets run."""
    made = []
    create = caches.create_connection

    def counting(alias: str):
        made.append(alias)
        return create(alias)

    monkeypatch.setattr(caches, "create_connection", counting)

    async def one() -> None:  # a task: a context of its own
        await sync_to_async(work, thread_sensitive=False)()

    await asyncio.gather(*(one() for _ in range(contexts)))
    return len(made)


@pytest.mark.asyncio
async def test_noting_a_language_on_every_join_uses_one_client(monkeypatch) -> None:
    assert await clients_made_by(lambda: frames.note_language(1, "en"), 20, monkeypatch) <= 1


@pytest.mark.asyncio
async def test_counting_a_limit_in_every_request_uses_one_client(monkeypatch) -> None:
    limit = ratelimit.Limit(1000, 60)
    work = lambda: ratelimit.take("test-shared", "someone", limit)  # noqa: E731
    assert await clients_made_by(work, 20, monkeypatch) <= 1
