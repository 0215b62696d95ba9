"""Real processes and real faults: a TCP proxy in front of PostgreSQL that the
test can cut, and a private redis-server the test can kill and restart.

The machine's shared PostgreSQL and Redis are never stopped or reconfigured:
the PostgreSQL outage is the proxy refusing and dropping connections, the Redis
restart is a redis-server of the test's own on a free port.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from tests.browser.servers import free_port
from tests.live.conftest import (  # noqa: F401 - fixtures shared with the live tests
    _fast_password_hashing,
    alice,
    bob,
    carol,
    make_table,
    make_user,
)

websockets_sync = pytest.importorskip("websockets.sync.client")


def real_services() -> bool:
    database = os.environ.get("DATABASE_URL", "")
    return database.startswith(("postgres://", "postgresql://")) and bool(
        os.environ.get("REDIS_URL")
    )


needs_real_services = pytest.mark.skipif(
    not real_services(),
    reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: the faults are in real processes",
)


def servers_database_url(port: int | None = None) -> str:
    """DATABASE_URL naming the database pytest-django created (through ``port``)."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    netloc = parts.netloc
    if port is not None:
        credentials = netloc.rsplit("@", 1)[0] + "@" if "@" in netloc else ""
        netloc = f"{credentials}127.0.0.1:{port}"
    return urlunsplit(parts._replace(netloc=netloc, path="/" + connection.settings_dict["NAME"]))


class CuttableProxy:
    """Forwards TCP connections to ``target`` until cut: then every open
    connection is dropped and new ones are refused, until restored."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._cut = False
        self._listener: socket.socket | None = None
        self._stopped = False
        self._listen()
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def _listen(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        listener.settimeout(0.2)
        self._listener = listener

    def _accept_loop(self) -> None:
        while not self._stopped:
            listener = self._listener
            if listener is None:
                time.sleep(0.05)
                continue
            try:
                client, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            client.settimeout(None)
            with self._lock:
                if self._cut:
                    client.close()
                    upstream.close()
                    continue
                self._sockets |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with self._lock:
                    self._sockets.discard(s)
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def cut(self) -> None:
        """PostgreSQL 'goes away': connections reset, new ones refused."""
        with self._lock:
            self._cut = True
            listener, self._listener = self._listener, None
            sockets, self._sockets = set(self._sockets), set()
        if listener is not None:
            listener.close()
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def restore(self) -> None:
        with self._lock:
            self._cut = False
        self._listen()

    def stop(self) -> None:
        self._stopped = True
        self.cut()


@pytest.fixture
def pg_proxy() -> Iterator[CuttableProxy]:
    parts = urlsplit(os.environ["DATABASE_URL"])
    proxy = CuttableProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    try:
        yield proxy
    finally:
        proxy.stop()


class PrivateRedis:
    """A redis-server of this test's own, on a free port, without persistence."""

    def __init__(self, log_path) -> None:
        self.port = free_port()
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    shutil.which("redis-server") or "redis-server",
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the private redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def private_redis(tmp_path) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server on PATH for a private Redis the test may restart")
    redis = PrivateRedis(tmp_path / "redis.log")
    redis.start()
    try:
        yield redis
    finally:
        redis.kill()
