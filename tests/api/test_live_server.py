"""The example bots against a real server: Daphne on the test's database (and,
with PostgreSQL and Redis, a separate worker playing the built-in bots, as in
production). The standard-library bot plays a whole Open Blot match, and the
Normal-strategy bot a whole Belote match with three built-in bots, each through
the API alone; every move the Normal bot made is what the site's Normal bot
would have made in its place. With the real services, a bot reads its stream
from one Daphne and sends its moves to another."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from engine.actions import Action
from engine.ai import decide
from engine.observe import observe
from engine.record import DealRecord, rebuild
from games.models import Deal, Match
from games.services import bots
from tests.browser.servers import (
    ROOT,
    Server,
    launch_daphne,
    launch_worker,
    server_env,
    wait_until_serving,
)

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = ROOT / "examples"


def _real_services() -> bool:
    database = os.environ.get("DATABASE_URL", "")
    return database.startswith(("postgres://", "postgresql://")) and bool(
        os.environ.get("REDIS_URL")
    )


def _database_url() -> str:
    """DATABASE_URL naming the database this test writes (the server shares it)."""
    if _real_services():
        parts = urlsplit(os.environ["DATABASE_URL"])
        return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))
    return f"sqlite:///{connection.settings_dict['NAME']}"


def _env() -> dict[str, str]:
    extra = {"REDIS_URL": os.environ["REDIS_URL"]} if _real_services() else {}
    return server_env(
        DATABASE_URL=_database_url(),
        BLOT_NEXT_DEAL_PAUSE_MS="0",
        BLOT_BOT_BUDGET_MS="50",
        BLOT_ANALYST="off",
        **extra,
    )


@pytest.fixture
def site(transactional_db, tmp_path) -> Iterator[list[Server]]:
    """Daphne (two with the real services) and, with Redis, the worker."""
    env = _env()
    count = 2 if _real_services() else 1
    servers = [launch_daphne(env, tmp_path / f"daphne-{n}.log") for n in range(count)]
    worker = launch_worker(env, tmp_path / "worker.log") if _real_services() else None
    try:
        for server in servers:
            wait_until_serving(server)
        yield servers
    finally:
        if worker is not None:
            worker.stop()
        for server in servers:
            server.stop()


def _run_example(script: str, server: Server, token: str, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), "--url", server.url, *args],
        env={**os.environ, "BLOT_TOKEN": token},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, f"{done.stdout[-2000:]}\n{done.stderr[-4000:]}\n{server.log()}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_standard_library_bot_plays_a_whole_open_blot_match(site, make_bot) -> None:
    _user, token = make_bot("stdlib")
    last = _run_example(
        "random_bot.py",
        site[0],
        token,
        "--table",
        "open_blot",
        "--levels",
        "easy",
        "--bot-delay-ms",
        "0",
        "--trick-pause-ms",
        "0",
    )
    assert last["over"] is True and last["winner"] in (0, 1)
    match = Match.objects.get(pk=last["match"])
    assert match.status == Match.Status.FINISHED and match.format == "first_to:501"
    deals = list(match.deals.filter(status=Deal.Status.FINISHED))
    assert deals and sum(1 for d in deals for a in d.actions if a["seat"] == 0) > len(deals) * 8
    assert max(match.score_rows.order_by("-number").first().totals) >= 501


def test_the_normal_bot_plays_a_whole_belote_match_as_the_site_s_normal_bot(site, make_bot) -> None:
    _user, token = make_bot("normal")
    last = _run_example(
        "normal_bot.py",
        site[0],
        token,
        "--table",
        "belote",
        "--levels",
        "normal",
        "normal",
        "normal",
        "--bot-delay-ms",
        "0",
        "--trick-pause-ms",
        "0",
    )
    assert last["over"] is True
    match = Match.objects.get(pk=last["match"])
    assert match.status == Match.Status.FINISHED and match.format == "first_to:1000"
    deals = list(match.deals.select_related("match").filter(status=Deal.Status.FINISHED))
    assert len(deals) >= 2
    moves = 0
    for stored in deals:
        replayed = rebuild(DealRecord.from_dict({**stored.record_dict(), "actions": []}))
        for action in map(Action.from_dict, stored.actions):
            if action.seat == 0 and len(observe(replayed, 0).legal) > 1:
                expected = decide("normal", observe(replayed, 0), random.Random(0))
                assert action == expected, (stored.number, action, expected)
                moves += 1
            replayed.apply(action)
    assert moves > 20


def _call(server: Server, token: str, method: str, path: str, body: dict | None = None):
    request = urllib.request.Request(
        server.url + path,
        None if body is None else json.dumps(body).encode(),
        {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


@pytest.mark.skipif(
    not _real_services(), reason="needs PostgreSQL and Redis: two Daphnes share them"
)
def test_a_stream_on_one_daphne_hears_moves_sent_to_another(site, make_bot) -> None:
    listening, moving = site
    user, token = make_bot("twoway")
    status, made = _call(
        moving,
        token,
        "POST",
        "/api/bot/table",
        {
            "variant": "open_blot",
            "levels": ["easy"],
            "format": "best_of:1",
            "bot_delay_ms": 0,
            "trick_pause_ms": 0,
        },
    )
    assert status == 200, made
    request = urllib.request.Request(
        f"{listening.url}/api/bot/match/{made['match']}/stream",
        headers={"Authorization": f"Bearer {token}"},
    )
    rng = random.Random(3)
    versions = []
    deadline = time.monotonic() + 120
    with urllib.request.urlopen(request, timeout=60) as stream:
        for raw in stream:
            assert time.monotonic() < deadline
            if not raw.strip():
                continue
            state = json.loads(raw)
            versions.append(state["version"])
            if state["over"]:
                break
            if state["legal"]:
                status, answer = _call(
                    moving,
                    token,
                    "POST",
                    f"/api/bot/match/{made['match']}/action",
                    {"version": state["version"], "action": rng.choice(state["legal"])},
                )
                assert status in (200, 409), answer
    assert state["over"] is True
    assert versions == sorted(versions)
    # Every move, the bot's (sent to the other Daphne) and the worker's, was heard.
    assert Match.objects.get(pk=made["match"]).status == Match.Status.FINISHED
    bots.revoke_token(user, bots.tokens_of(user)[0].pk)
    assert _call(moving, token, "GET", "/api/bot/account")[0] == 401
    assert _call(listening, token, "GET", "/api/bot/account")[0] == 401
