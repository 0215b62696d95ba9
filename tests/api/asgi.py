"""Driving the site's ASGI application in the test's own event loop: a Bot API
stream read line by line, and closed as a client would close it."""

from __future__ import annotations

import json
from typing import Any

from channels.testing import ApplicationCommunicator


def _scope(method: str, path: str, token: str | None) -> dict[str, Any]:
    headers = [(b"host", b"localhost")]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 40000),
        "server": ("localhost", 80),
    }


class Stream:
    """An open NDJSON response."""

    def __init__(self, communicator: ApplicationCommunicator, status: int) -> None:
        self.communicator = communicator
        self.status = status
        self.buffer = b""
        self.ended = False
        self.blank_lines = 0
        self.pending: list[dict[str, Any]] = []
        self.closed = False

    async def _more(self, timeout: float) -> None:
        message = await self.communicator.receive_output(timeout)
        assert message["type"] == "http.response.body", message
        self.buffer += message.get("body", b"")
        if not message.get("more_body", False):
            self.ended = True

    async def line(self, timeout: float = 10) -> dict[str, Any] | None:
        """The next JSON line (keep-alive blank lines are counted and skipped);
        ``None`` when the response ended."""
        if self.pending:
            return self.pending.pop(0)
        while True:
            while b"\n" not in self.buffer:
                if self.ended:
                    return None
                await self._more(timeout)
            text, self.buffer = self.buffer.split(b"\n", 1)
            if text.strip():
                return json.loads(text)
            self.blank_lines += 1

    async def blank(self, timeout: float = 10) -> None:
        """Wait for a keep-alive (an empty line); JSON lines meanwhile are kept."""
        while True:
            while b"\n" not in self.buffer:
                assert not self.ended, "the stream ended without a keep-alive"
                await self._more(timeout)
            text, self.buffer = self.buffer.split(b"\n", 1)
            if not text.strip():
                self.blank_lines += 1
                return
            self.pending.append(json.loads(text))

    async def body(self, timeout: float = 10) -> bytes:
        while not self.ended:
            await self._more(timeout)
        return self.buffer

    async def close(self) -> None:
        self.closed = True
        await self.communicator.send_input({"type": "http.disconnect"})
        await self.communicator.wait(timeout=10)


async def open_stream(path: str, token: str | None, timeout: float = 10) -> Stream:
    from blotsite.asgi import application

    communicator = ApplicationCommunicator(application, _scope("GET", path, token))
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(timeout)
    assert start["type"] == "http.response.start", start
    return Stream(communicator, start["status"])
