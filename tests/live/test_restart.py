"""A server restart loses no action: the table continues from the stored log.

A real Daphne on a SQLite file; a person plays against a bot over a WebSocket;
the server is killed mid-deal (SIGKILL, no clean shutdown) and started again.
The reconnected player sees the same version and position, and the bot, whose
turn was pending or comes next, plays on.
"""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path

import pytest

from tests.browser.servers import Server, manage, server_env, start_daphne
from tests.live.wsclient import TO_ACT, version_of

websockets_sync = pytest.importorskip("websockets.sync.client")

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from games.models import RuleSetConfig
from games.services.tables import create_table
user = get_user_model().objects.create_user("ann", password="a-long-enough-Passw0rd")
rules = RuleSetConfig.objects.get(variant="open_blot", is_default=True)
table = create_table(user=user, variant="open_blot", fmt="first_to:501", rule_set=rules,
                     others=["easy"], bot_delay_ms=1500)
s = SessionStore()
s[SESSION_KEY] = str(user.pk)
s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
s[HASH_SESSION_KEY] = user.get_session_auth_hash()
s.save()
print(json.dumps({"table": table.pk, "session": s.session_key}))
"""

ACTIONS = """
import json
from games.models import Deal
print(json.dumps([a for d in Deal.objects.order_by("number") for a in d.actions]))
"""

HX_VALS = re.compile(r'hx-vals="([^"]+)"')


def frames_until(ws, done, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while True:
        frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        if 'id="table-root"' in frame and done(frame):
            return frame


def my_turn(frame: str) -> bool:
    match = TO_ACT.search(frame)
    return match is not None and match.group(1) == "0"


def first_move(frame: str) -> dict:
    return json.loads(html.unescape(HX_VALS.search(frame).group(1)))


def connect(server: Server, table: int, session: str):
    return websockets_sync.connect(
        f"{server.ws_url}/ws/table/{table}/",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=10,
    )


def stored_actions(env: dict[str, str]) -> list[dict]:
    """Every action stored for the table's match, deal after deal."""
    return json.loads(manage(env, "shell", "-c", ACTIONS).strip().splitlines()[-1])


def test_it_resumes_a_pending_bot_turn_after_the_server_is_killed(tmp_path: Path) -> None:
    env = server_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        BLOT_NEXT_DEAL_PAUSE_MS="0",
        BLOT_BOT_BUDGET_MS="50",
    )
    manage(env, "migrate", "--noinput")
    ids = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    server = start_daphne(env, tmp_path / "daphne-1.log")
    try:
        with connect(server, ids["table"], ids["session"]) as ws:
            # Play until one of my moves hands the turn to the bot, whose move is
            # then pending for the table's bot pause (1.5 s): kill the server then.
            frame = frames_until(ws, lambda f: True)
            for _ in range(20):
                if not my_turn(frame):  # (after winning a trick it is my turn again)
                    frame = frames_until(ws, my_turn)
                move = first_move(frame)
                ws.send(json.dumps(move))
                frame = frames_until(ws, lambda f, v=move["version"]: (version_of(f) or 0) > v)
                if TO_ACT.search(frame).group(1) == "1":
                    break
            else:
                raise AssertionError("the bot never got the turn")
    finally:
        server.proc.kill()  # a crash: no clean shutdown, the bot's turn pending
        server.proc.wait()
    version_at_crash = version_of(frame)
    stored_at_crash = stored_actions(env)
    server = start_daphne(env, tmp_path / "daphne-2.log")
    try:
        with connect(server, ids["table"], ids["session"]) as ws:
            # Nothing was lost, and the new process's conductor finds the pending
            # bot turn (overdue by now: it may be played before the first frame).
            # (The server's first request may already have started its conductor.)
            first = frames_until(ws, lambda f: True)
            assert version_of(first) >= version_at_crash
            if version_of(first) == version_at_crash:
                frames_until(ws, lambda f: (version_of(f) or 0) > version_at_crash)
        stored = stored_actions(env)
        assert stored[: len(stored_at_crash)] == stored_at_crash
        assert len(stored) > len(stored_at_crash)
        assert stored[len(stored_at_crash)]["seat"] == 1  # the bot's pending move
    finally:
        server.stop()
