"""Fixtures for the Bot API tests: bot accounts, their tokens, a client that
sends the token, and the live tables' quick settings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import pytest_asyncio
from django.test import Client

from games.services import bots
from tests.live.conftest import _quick_tables  # noqa: F401 - fixtures shared
from tests.site.conftest import (  # noqa: F401 - fixtures shared with the site tests
    _fast_password_hashing,
    alice,
    bob,
    carol,
    make_table,
    make_user,
)


@pytest.fixture
def make_bot(make_user) -> Callable[..., Any]:  # noqa: F811
    """A bot account and a token for it: ``(user, token value)``."""

    def make(username: str = "robot", scopes: tuple[str, ...] = ("play", "challenge")):
        user = make_user(username)
        bots.make_bot_account(user, confirmed=True)
        user.refresh_from_db()
        return user, bots.create_token(user, name="test", scopes=list(scopes)).value

    return make


@pytest.fixture
def robot(make_bot):
    return make_bot("robot")


class Api:
    """The Django test client, sending a bearer token."""

    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.token = token

    def _headers(self, extra: dict[str, str]) -> dict[str, str]:
        headers = dict(extra)
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def get(self, path: str, **headers: str):
        return self.client.get(path, headers=self._headers(headers))

    def post(self, path: str, data: Any = None, *, raw: str | bytes | None = None, **headers: str):
        import json

        body = raw if raw is not None else json.dumps(data if data is not None else {})
        return self.client.post(
            path, body, content_type="application/json", headers=self._headers(headers)
        )


@pytest.fixture
def api_for() -> Callable[[str | None], Api]:
    return Api


@pytest_asyncio.fixture
async def open_api_stream():
    """``open_api_stream(path, token)``: a stream closed after the test, whatever
    happens (an application left running would hold the event loop's end)."""
    import contextlib

    from tests.api.asgi import open_stream

    opened = []

    async def open_(path: str, token: str | None):
        stream = await open_stream(path, token)
        opened.append(stream)
        return stream

    yield open_
    for stream in opened:
        if not stream.closed:
            with contextlib.suppress(Exception):
                await stream.close()
