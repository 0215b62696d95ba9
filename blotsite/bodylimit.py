"""Refusing oversized request bodies before the site reads them.

An ASGI middleware around the HTTP application: a request whose Content-Length
is over the limit gets 413 at once, without a single body message being read;
a body without a length (chunked) is counted as it streams in and refused as
soon as it passes the limit. Django's DATA_UPLOAD_MAX_MEMORY_SIZE is no help
here: it is checked only after the ASGI handler has read the whole body.

The server in front still receives what the client sends: in production the
proxy's own limit (docs/operations.md) stops a large body before it reaches
Daphne at all.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _TooLarge(Exception):
    """The streamed body passed the limit."""


def declared_length(scope: Scope) -> int | None:
    """The request's Content-Length; ``None`` when absent, -1 when unreadable."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 19 else -1
    return None


class BodySizeLimit:
    """Wraps an ASGI app; HTTP bodies over ``max_bytes`` are answered with 413."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = declared_length(scope)
        if length is not None and not 0 <= length <= self.max_bytes:
            await self._refuse(send)
            return
        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _TooLarge
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = (_("The request is too large.") + "\n").encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def install_daphne_guard(max_bytes: int) -> bool:
    """Make Daphne itself refuse an oversized body while it arrives.

    Daphne receives a whole request body before it starts the application, then
    queues all of it in memory at once: a 300 MB POST took the process from 79 to
    395 MB even with :class:`BodySizeLimit` answering 413 (docs/operations.md).
    So, when Daphne serves the site, its request class is swapped for one that
    answers 413 and closes the connection as soon as the declared length, or the
    bytes received so far, pass the limit, and drops the rest unread. Returns
    whether Daphne was there to guard (another ASGI server streams bodies, and the
    middleware alone refuses them early)."""
    import sys

    module = sys.modules.get("daphne.http_protocol")
    if module is None or getattr(module.WebRequest, "blot_body_limit", None) is not None:
        return module is not None
    from io import BytesIO

    base = module.WebRequest
    body = (_("The request is too large.") + "\n").encode()
    answer = (
        b"HTTP/1.1 413 Payload Too Large\r\n"
        b"Content-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n"
        b"Connection: close\r\n\r\n" + body
    )

    class LimitedWebRequest(base):  # type: ignore[misc, valid-type]
        blot_body_limit = max_bytes
        _refused = False
        _received = 0

        def gotLength(self, length: int | None) -> None:
            if length is not None and length > max_bytes:
                super().gotLength(0)
                self._refuse()
                return
            super().gotLength(length)

        def handleContentChunk(self, data: bytes) -> None:
            if self._refused:
                return
            self._received += len(data)
            if self._received > max_bytes:
                self.content = BytesIO()
                self._refuse()
                return
            super().handleContentChunk(data)

        def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
            if not self._refused:
                super().requestReceived(command, path, version)

        def _refuse(self) -> None:
            self._refused = True
            transport = self.channel.transport
            transport.write(answer)
            transport.loseConnection()

    setattr(module, "WebRequest", LimitedWebRequest)  # noqa: B010 (Daphne has no hook for it)
    return True
