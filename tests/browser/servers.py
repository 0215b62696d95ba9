"""Real Daphne servers for tests: started as subprocesses on free ports, always stopped.

Shared by the browser tests (one server on a temporary SQLite file) and the
two-Daphne test (two servers sharing PostgreSQL and Redis). Each server runs in
its own process group, so stopping it ends everything it started; its output
goes to a log file (a pipe nobody reads could fill up and stall it).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

#: Settings from the environment that a test server must not inherit by accident.
SERVER_ENV_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "BLOT_CONDUCTOR",
    "BLOT_NEXT_DEAL_PAUSE_MS",
    "BLOT_BOT_BUDGET_MS",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(**settings: str) -> dict[str, str]:
    """This process's environment without the site's settings, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV_VARIABLES}
    env.update(settings)
    return env


def manage(env: Mapping[str, str], *args: str, timeout: float = 120) -> str:
    """Run ``manage.py`` with ``env``; its output, or AssertionError with it."""
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise AssertionError(
            f"manage.py {' '.join(args[:1])} failed ({done.returncode}):\n"
            f"{done.stdout}\n{done.stderr}"
        )
    return done.stdout


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    env: dict[str, str]
    log_path: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def log(self, last: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-last:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def _spawn(argv: list[str], env: Mapping[str, str], log_path: Path) -> subprocess.Popen:
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            argv,
            cwd=ROOT,
            env=dict(env),
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def launch_daphne(env: Mapping[str, str], log_path: Path) -> Server:
    """Start Daphne serving the site on a free port (without waiting for it)."""
    port = free_port()
    argv = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "blotsite.asgi:application"]
    return Server(_spawn(argv, env, log_path), port, dict(env), log_path)


def launch_worker(env: Mapping[str, str], log_path: Path) -> Server:
    """Start ``manage.py blotworker`` (it serves no port: ``port`` is 0)."""
    argv = [PYTHON, "manage.py", "blotworker"]
    return Server(_spawn(argv, env, log_path), 0, dict(env), log_path)


def wait_until_serving(server: Server, timeout: float = 60) -> Server:
    """Return once the server accepts connections; stop it and fail if it does not."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise AssertionError(f"Daphne exited early ({server.proc.returncode}):\n{server.log()}")
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.1)
    server.stop()
    raise AssertionError(f"Daphne did not start within {timeout} s:\n{server.log()}")


def start_daphne(env: Mapping[str, str], log_path: Path, timeout: float = 60) -> Server:
    server = launch_daphne(env, log_path)
    try:
        return wait_until_serving(server, timeout)
    except BaseException:
        server.stop()
        raise
