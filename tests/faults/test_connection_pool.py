"""A burst of requests cannot fill PostgreSQL's connection slots.

A real Daphne on PostgreSQL, started with the setting that used to leak
(``CONN_MAX_AGE=60``: a connection kept per request thread until the garbage
collector happened to find the thread gone) and a pool of at most four
connections. Sixty requests at once all answer, and the Daphne never holds more
than its pool's maximum, during the burst or after it.
"""

from __future__ import annotations

import os
import threading
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tests.browser.servers import server_env, start_daphne
from tests.faults.conftest import servers_database_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="needs DATABASE_URL (PostgreSQL): the pool is psycopg's",
    ),
]

POOL_MAX = 4
BURST = 60


def _open_connections(application_name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            [application_name],
        )
        return int(cursor.fetchone()[0])


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=60) as response:
        response.read()
        return response.status


def test_a_burst_of_requests_holds_at_most_the_pools_connections(tmp_path) -> None:
    name = f"blot-pool-{uuid.uuid4().hex[:8]}"
    env = server_env(
        DATABASE_URL=servers_database_url(),
        CONN_MAX_AGE="60",  # what the load-test instructions once recommended
        BLOT_DB_POOL_MIN="1",
        BLOT_DB_POOL_MAX=str(POOL_MAX),
        PGAPPNAME=name,  # libpq names the Daphne's connections so they can be counted
    )
    daphne = start_daphne(env, tmp_path / "daphne.log")
    most = 0
    stop = threading.Event()

    def watch() -> None:
        nonlocal most
        while not stop.is_set():
            most = max(most, _open_connections(name))
            time.sleep(0.02)

    try:
        assert _get(f"{daphne.url}/tournaments/") == 200  # warm: the pool opens
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        urls = [f"{daphne.url}/tournaments/", f"{daphne.url}/lobby/tables/"] * (BURST // 2)
        with ThreadPoolExecutor(BURST) as burst:
            statuses = list(burst.map(_get, urls))
        time.sleep(1.0)
        stop.set()
        watcher.join()
        after = _open_connections(name)
    finally:
        stop.set()
        daphne.stop()
    assert statuses == [200] * BURST, daphne.log()
    assert 0 < most <= POOL_MAX
    assert after <= POOL_MAX
