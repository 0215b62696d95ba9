"""``/health/ready/`` under real outages: PostgreSQL cut behind a proxy, and a
private redis-server killed. Each time the answer turns 503 naming the part
that is away (and only it), liveness stays 200, and readiness is 200 again once
the part is back."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from tests.browser.servers import Server, launch_daphne, server_env, wait_until_serving
from tests.faults.conftest import (
    CuttableProxy,
    PrivateRedis,
    needs_real_services,
    servers_database_url,
)

pytestmark = [pytest.mark.django_db(transaction=True), needs_real_services]

#: How long an outage or a return may take to show in the answer.
SHOWS_WITHIN_S = 30


@pytest.fixture
def site(transactional_db, pg_proxy: CuttableProxy, private_redis: PrivateRedis, tmp_path
         ) -> Iterator[Server]:
    env = server_env(
        DATABASE_URL=servers_database_url(pg_proxy.port),
        REDIS_URL=private_redis.url,
        BLOT_CONDUCTOR="inprocess",  # no worker to expect: the parts here are the services
        BLOT_HEALTH_PER_MINUTE="10000",
    )
    daphne = launch_daphne(env, tmp_path / "daphne.log")
    try:
        wait_until_serving(daphne)
        yield daphne
    finally:
        daphne.stop()


def ask(server: Server, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"{server.url}{path}", timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def until(server: Server, status: int) -> dict:
    """Ask readiness until it answers ``status``; that answer's body."""
    deadline = time.monotonic() + SHOWS_WITHIN_S
    while True:
        got, body = ask(server, "/health/ready/")
        if got == status:
            return body
        assert time.monotonic() < deadline, f"still {got} {body}:\n{server.log()}"
        time.sleep(0.5)


def test_readiness_names_the_database_while_postgresql_is_cut_and_recovers(
    site: Server, pg_proxy: CuttableProxy
) -> None:
    assert until(site, 200)["failing"] == []
    pg_proxy.cut()
    body = until(site, 503)
    assert body["failing"] == ["database"]
    assert body["checks"]["database"] == "unavailable"
    assert body["checks"]["redis"] == "ok"
    assert ask(site, "/health/") == (200, {"status": "ok"})
    pg_proxy.restore()
    assert set(until(site, 200)["checks"].values()) == {"ok"}


def test_readiness_names_redis_while_it_is_down_and_recovers(
    site: Server, private_redis: PrivateRedis
) -> None:
    assert until(site, 200)["failing"] == []
    private_redis.kill()
    body = until(site, 503)
    assert body["failing"] == ["redis"]
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"].startswith("not checked")
    assert ask(site, "/health/") == (200, {"status": "ok"})
    private_redis.start()
    assert set(until(site, 200)["checks"].values()) == {"ok"}
