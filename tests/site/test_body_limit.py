"""Oversized request bodies are refused before they are read."""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
from collections.abc import Iterator

import pytest
from django.conf import settings

from blotsite.asgi import application
from tests.browser.servers import Server, manage, server_env, start_daphne

CHUNK = 64 * 1024
HUGE = 300 * 1024 * 1024


async def _call(headers: list[tuple[bytes, bytes]], body_messages: Iterator[bytes]):
    """Run one HTTP request through the site's ASGI application; returns the
    response status and how many body messages the application asked for."""
    reads = 0
    sent: list[dict] = []
    ended = False

    async def receive() -> dict:
        nonlocal reads, ended
        if ended:  # the client stays connected: Django waits for a disconnect
            await asyncio.Event().wait()
        reads += 1
        chunk = next(body_messages, None)
        if chunk is None:
            ended = True
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "path": "/accounts/login/",
        "raw_path": b"/accounts/login/",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "headers": [(b"host", b"localhost"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    await application(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], reads


def _endless() -> Iterator[bytes]:
    while True:
        yield b"x" * CHUNK


@pytest.mark.asyncio
async def test_it_refuses_a_declared_oversized_body_without_reading_it() -> None:
    status, reads = await _call([(b"content-length", str(HUGE).encode())], _endless())
    assert status == 413
    assert reads == 0


@pytest.mark.asyncio
async def test_it_stops_reading_a_streamed_body_once_it_passes_the_limit() -> None:
    status, reads = await _call([(b"transfer-encoding", b"chunked")], _endless())
    assert status == 413
    assert reads <= settings.BLOT_MAX_REQUEST_BODY_BYTES // CHUNK + 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_it_still_reads_a_normal_form() -> None:
    body = b"username=alice&password=x"
    status, _reads = await _call(
        [
            (b"content-length", str(len(body)).encode()),
            (b"content-type", b"application/x-www-form-urlencoded"),
        ],
        iter([body]),
    )
    assert status == 403  # read and handled by Django: no CSRF token here


@pytest.fixture(scope="module")
def daphne(tmp_path_factory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("body-limit")
    env = server_env(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", STATIC_ROOT=str(folder / "static")
    )
    manage(env, "migrate", "--noinput")
    server = start_daphne(env, folder / "daphne.log")
    try:
        yield server
    finally:
        server.stop()


def _answer(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        part = sock.recv(4096)
        if not part:
            break
        data += part
    return data


def test_it_answers_413_under_daphne_before_the_body_is_sent(daphne: Server) -> None:
    with socket.create_connection(("127.0.0.1", daphne.port), timeout=30) as sock:
        sock.sendall(
            b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/octet-stream\r\n"
            b"Content-Length: " + str(HUGE).encode() + b"\r\n\r\n" + b"x" * 4096
        )
        # Nothing more is sent: the answer can only come from the declared length.
        assert _answer(sock).startswith(b"HTTP/1.1 413")


def test_it_answers_413_under_daphne_once_a_chunked_body_passes_the_limit(
    daphne: Server,
) -> None:
    chunk = b"x" * CHUNK
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    with socket.create_connection(("127.0.0.1", daphne.port), timeout=30) as sock:
        sock.sendall(
            b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        # Keep streaming (never ending the body) until the server answers.
        with contextlib.suppress(OSError):  # it may close while we still send
            for _ in range(HUGE // CHUNK):
                if select.select([sock], [], [], 0)[0]:
                    break
                sock.sendall(framed)
        assert _answer(sock).startswith(b"HTTP/1.1 413")
