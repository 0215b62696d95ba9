"""Daphne stops cleanly on SIGTERM (and Ctrl-C's SIGINT) while tables are live.

A real Daphne on a SQLite file runs two tables: four Normal bots playing as fast
as they can (the conductor is always mid-pass) and a person against a bot over a
WebSocket. The person plays a few moves (each one known to be taken: no refusal
came before the answer to a marker message sent after it), sends one more and
the signal follows at once. The process must exit within 10 s; afterwards every move the server
acknowledged is in the stored action log, and every stored deal replays through
the engine (nothing half-written: a move is committed whole or not at all).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.browser.servers import manage, server_env, start_daphne
from tests.live.test_restart import connect, first_move, frames_until, my_turn

pytest.importorskip("websockets.sync.client")

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from games.models import RuleSetConfig, Seat
from games.services.tables import create_table
user = get_user_model().objects.create_user("ann", password="a-long-enough-Passw0rd")
bots = create_table(user=user, variant="belote", fmt="first_to:2001",
                    rule_set=RuleSetConfig.objects.get(variant="belote", is_default=True),
                    others=["normal", "normal", "normal"], bot_delay_ms=0)
Seat.objects.filter(table=bots, index=0).update(user=None, bot_level="normal")
table = create_table(user=user, variant="open_blot", fmt="first_to:501",
                     rule_set=RuleSetConfig.objects.get(variant="open_blot", is_default=True),
                     others=["easy"], bot_delay_ms=0, turn_seconds=600)
s = SessionStore()
s[SESSION_KEY] = str(user.pk)
s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
s[HASH_SESSION_KEY] = user.get_session_auth_hash()
s.save()
print(json.dumps({"table": table.pk, "session": s.session_key}))
"""

#: For the person's table: its actions in order; for every deal stored anywhere,
#: whether it replays through the engine and agrees with its stored result.
CHECK = """
import json, sys
from games.models import Deal, Match, ScoreRow
table = %d
problems = []
for deal in Deal.objects.select_related("match").order_by("match_id", "number"):
    try:
        engine = deal.rebuild()
    except Exception as exc:
        problems.append(f"deal {deal.pk} does not replay: {exc}")
        continue
    if deal.status == "finished":
        if not engine.is_over or engine.result().to_dict() != deal.result:
            problems.append(f"deal {deal.pk}: stored result disagrees with its actions")
    elif engine.is_over:
        problems.append(f"deal {deal.pk}: its actions end it but it was never closed")
for match in Match.objects.all():
    finished = match.deals.filter(status="finished").count()
    if ScoreRow.objects.filter(match=match).count() != finished:
        problems.append(f"match {match.pk}: score rows and finished deals differ")
    if match.status == "playing" and match.deals.filter(status="playing").count() != 1:
        problems.append(f"match {match.pk}: no single open deal")
actions = [
    a for d in Deal.objects.filter(match__table_id=table).order_by("match_id", "number")
    for a in d.actions
]
print(json.dumps({"problems": problems, "actions": actions}))
"""


def is_error(frame: str) -> bool:
    return 'id="table-error"' in frame and 'id="table-root"' not in frame


def next_frame(ws, done, timeout: float) -> str:
    """The next frame of any kind for which ``done`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        if done(frame):
            return frame


def canonical(move: dict) -> dict:
    """A move as the client sent it, in the stored log's form (without the seat)."""
    out = {k: v for k, v in move.items() if k not in ("version", "seat")}
    if isinstance(out.get("cards"), str):
        out["cards"] = out["cards"].split()
    return out


def is_subsequence(wanted: list, stored: list) -> bool:
    it = iter(stored)
    return all(any(w == s for s in it) for w in wanted)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_it_exits_within_ten_seconds_of_a_signal_losing_no_acknowledged_move(
    tmp_path: Path, signum: int
) -> None:
    env = server_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        BLOT_NEXT_DEAL_PAUSE_MS="0",
        BLOT_BOT_BUDGET_MS="100",
    )
    manage(env, "migrate", "--noinput")
    ids = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    server = start_daphne(env, tmp_path / "daphne.log")
    acknowledged: list[dict] = []

    def frames(ws, done, errors: bool = False):  # generous: the machine may be busy
        try:
            if errors:
                return next_frame(ws, done, timeout=60)
            return frames_until(ws, done, timeout=60)
        except TimeoutError:
            raise AssertionError(
                f"no such frame in 60 s; the server said:\n{server.log()}"
            ) from None

    try:
        with connect(server, ids["table"], ids["session"]) as ws:
            frame = frames(ws, lambda f: True)
            while len(acknowledged) < 8:
                if not my_turn(frame):
                    frame = frames(ws, my_turn)
                move = first_move(frame)
                ws.send(json.dumps(move))
                # A frame at a later version is no proof: it may have been drawn
                # before the move was read. The consumer answers its messages in
                # order, so a marker sent next is refused ("Unknown kind of move")
                # only after any refusal of the move.
                ws.send(json.dumps({"type": "marker", "version": 0}))
                errors = []
                while True:
                    answer = frames(ws, is_error, errors=True)
                    if "Unknown kind of move" in answer:
                        break
                    errors.append(answer)
                frame = frames(ws, lambda f: True)  # the table after the marker
                if not errors:
                    acknowledged.append(canonical(move))
            if not my_turn(frame):
                frame = frames(ws, my_turn)
            ws.send(json.dumps(first_move(frame)))  # in flight when the signal comes
            log_at_signal = len(server.log(10**9))
            stopped_at = time.monotonic()
            os.kill(server.proc.pid, signum)
            try:
                server.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pytest.fail(f"Daphne still running 10 s after {signum!r}:\n{server.log()}")
            assert time.monotonic() - stopped_at < 10
    finally:
        server.stop()
    after_signal = server.log(10**9)[log_at_signal:]
    assert "Traceback" not in after_signal, after_signal  # a clean stop
    checked = json.loads(manage(env, "shell", "-c", CHECK % ids["table"]).strip().splitlines()[-1])
    assert checked["problems"] == []
    mine = [
        {k: v for k, v in a.items() if k != "seat"} for a in checked["actions"] if a["seat"] == 0
    ]
    assert len(acknowledged) == 8
    assert is_subsequence(acknowledged, mine), (acknowledged, mine)
