"""Talking to the real ASGI application over WebSockets in tests."""

from __future__ import annotations

import json
import re

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from blotsite.asgi import application

VERSION = re.compile(r'data-version="(\d+)"')
TO_ACT = re.compile(r'data-to-act="(\d*)"')


def session_cookie(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


async def connect(
    table_id: int, user=None, *, origin: str = "http://localhost", query: str = ""
) -> tuple[WebsocketCommunicator, bool]:
    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    path = f"/ws/table/{table_id}/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


def version_of(frame: str) -> int | None:
    match = VERSION.search(frame)
    return int(match.group(1)) if match else None


async def receive_table(
    communicator: WebsocketCommunicator, timeout: float = 5, at_least: int = 0
) -> str:
    """The next frame that carries the table root at version ``at_least`` or later
    (skipping error fragments, and re-sends of older versions such as the ones a
    spectator's arrival causes)."""
    while True:
        frame = await communicator.receive_from(timeout=timeout)
        if 'id="table-root"' in frame and (version_of(frame) or 0) >= at_least:
            return frame


async def send_move(communicator: WebsocketCommunicator, **data) -> None:
    await communicator.send_to(text_data=json.dumps(data))


async def receive_error(communicator: WebsocketCommunicator, timeout: float = 5) -> str:
    """The next refusal message (skipping table frames)."""
    while True:
        frame = await communicator.receive_from(timeout=timeout)
        if 'id="table-error"' in frame and 'id="table-root"' not in frame:
            return frame


async def receive_watchers(communicator: WebsocketCommunicator, timeout: float = 10) -> str:
    """The next watcher-count fragment (sent alone, without the table)."""
    while True:
        frame = await communicator.receive_from(timeout=timeout)
        if 'id="watchers"' in frame and 'id="table-root"' not in frame:
            return frame
