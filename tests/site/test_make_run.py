"""The README's `make run` path: migrate, collectstatic, Daphne serving the lobby
and static files (a temporary SQLite file, a free port)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 5.0) -> tuple[int, bytes, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


def _serve(args: list[str], env: dict[str, str], port: int):
    # A new session so the whole group (make and the Daphne it starts) can be stopped.
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited early:\n{proc.stdout.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    _stop(proc)
    raise AssertionError("server did not start in time")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEBUG")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env["STATIC_ROOT"] = str(tmp_path / "static")
    env.update(extra)
    return env


@pytest.mark.skipif(not (ROOT / ".venv/bin/daphne").exists(), reason="needs `make install`")
def test_it_serves_the_lobby_and_static_files_with_make_run(tmp_path):
    port = _free_port()
    proc = _serve(["make", "--no-print-directory", "run", f"PORT={port}"], _env(tmp_path), port)
    try:
        status, body, _ = _get(f"http://127.0.0.1:{port}/")
        assert status == 200
        assert b"Lobby" in body
        status, body, headers = _get(f"http://127.0.0.1:{port}/static/css/blot.css")
        assert status == 200
        assert b"playing-card" in body
        assert headers["Content-Type"].startswith("text/css")
        status, body, _ = _get(f"http://127.0.0.1:{port}/static/django_htmx/htmx-2.min.js")
        assert status == 200
        assert b"htmx" in body
        status, _, _ = _get(f"http://127.0.0.1:{port}/accounts/signup/")
        assert status == 200
    finally:
        _stop(proc)
    assert (tmp_path / "db.sqlite3").exists()
    assert (tmp_path / "static" / "css" / "blot.css").exists()


@pytest.mark.skipif(not (ROOT / ".venv/bin/daphne").exists(), reason="needs `make install`")
def test_it_serves_hashed_static_files_with_debug_off(tmp_path):
    env = _env(
        tmp_path,
        DEBUG="0",
        SECRET_KEY="test-only-" + "k" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
    )
    bin_ = ROOT / ".venv/bin"
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([str(bin_ / "python"), "manage.py", *command], cwd=ROOT, env=env, check=True)
    port = _free_port()
    proc = _serve(
        [str(bin_ / "daphne"), "-b", "127.0.0.1", "-p", str(port), "blotsite.asgi:application"],
        env,
        port,
    )
    try:
        status, body, _ = _get(f"http://127.0.0.1:{port}/")
        assert status == 200
        html = body.decode()
        start = html.index("/static/css/blot.")
        css_url = html[start : html.index('"', start)]
        assert css_url != "/static/css/blot.css"  # a hashed name from the manifest
        status, body, headers = _get(f"http://127.0.0.1:{port}{css_url}")
        assert status == 200
        assert "immutable" in headers.get("Cache-Control", "")
        status, _, _ = _get(f"http://127.0.0.1:{port}/no-such-page/")
        assert status == 404
    finally:
        _stop(proc)
