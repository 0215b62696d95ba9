"""Two (or three) workers pairing one pool at the same moment: each person is
seated once, at one table, and every table is whole.

Real concurrency needs row locks: this runs on PostgreSQL (DATABASE_URL), as
tests/live/test_race.py does; each thread is a worker with its own connection.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import PoolEntry, RuleSetConfig, Seat, Table
from games.services import pools

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"
    ),
]


@pytest.fixture(autouse=True)
def _default_rule_sets(transactional_db) -> None:
    # A transactional test's flush removes the rows the data migration made.
    for variant in ("belote", "open_blot"):
        RuleSetConfig.objects.get_or_create(
            variant=variant, is_default=True, defaults={"name": f"Default {variant}"}
        )


def race(step: Callable[[], int], n: int) -> list[int]:
    barrier = threading.Barrier(n)
    outcomes: list[int] = []

    def run() -> None:
        try:
            barrier.wait()
            outcomes.append(step())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


def people(count: int) -> list:
    make = get_user_model().objects.create_user
    return [make(username=f"p{i}", password="x") for i in range(count)]


def seated_once(users) -> None:
    per_person = Counter(
        Seat.objects.filter(user__isnull=False).values_list("user_id", flat=True)
    )
    assert set(per_person) == {u.pk for u in users}
    assert set(per_person.values()) == {1}
    for entry in PoolEntry.objects.all():
        assert Seat.objects.filter(table=entry.table, user=entry.user).exists()


@pytest.mark.parametrize("workers", [2, 3])
def test_workers_pairing_one_open_blot_pool_seat_everyone_once(workers):
    everyone = people(40)
    for user in everyone:
        pools.join(user, variant="open_blot", fmt="first_to:501", rated=True)
    made = race(pools.pair_waiting, workers)
    made += race(pools.pair_waiting, workers)  # whatever a skipped entry left
    assert sum(made) == 20 == Table.objects.count()
    seated_once(everyone)


def test_workers_pairing_a_belote_pool_while_people_keep_joining(settings):
    everyone = people(32)
    first, later = everyone[:16], everyone[16:]
    for user in first:
        pools.join(user, variant="belote", fmt="best_of:1", rated=False)

    def join_the_rest() -> int:
        for user in later:
            pools.join(user, variant="belote", fmt="best_of:1", rated=False)
        return 0

    barrier_steps = [pools.pair_waiting, pools.pair_waiting, join_the_rest]
    results: list[int] = []
    barrier = threading.Barrier(len(barrier_steps))

    def run(step: Callable[[], int]) -> None:
        try:
            barrier.wait()
            results.append(step())
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(s,)) for s in barrier_steps]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    while pools.pair_waiting():
        pass
    assert Table.objects.count() == 8
    for table in Table.objects.all():
        assert table.seats.filter(user__isnull=False).count() == 4
    seated_once(everyone)


def test_one_persons_joins_and_leaves_sent_at_once_never_fail(settings):
    """Twenty Play-now joins and leaves of one person at the same moment (two
    tabs, a double click, a script): every one answers, none with a server
    error, and the person ends in at most one pool, once."""
    from django.test import Client

    (alice,) = people(1)
    settings.ALLOWED_HOSTS = ["testserver"]
    answers: list[int] = []
    lock = threading.Lock()

    def step(index: int) -> Callable[[], int]:
        def run() -> int:
            client = Client(raise_request_exception=False)
            client.force_login(alice)
            if index % 2:
                response = client.post("/play/now/leave/")
            else:
                fmt = ("first_to:501", "best_of:1", "best_of:3")[index % 3]
                response = client.post("/play/now/", {"variant": "open_blot", "format": fmt})
            with lock:
                answers.append(response.status_code)
            return 0

        return run

    steps = [step(i) for i in range(20)]
    barrier = threading.Barrier(len(steps))

    def run(each: Callable[[], int]) -> None:
        try:
            barrier.wait()
            each()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(s,)) for s in steps]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(answers) == [302] * 20  # each redirected to the lobby, none a 500
    assert PoolEntry.objects.filter(user=alice).count() <= 1
    # Whatever the order, joining and leaving still work afterwards.
    assert pools.join(alice, variant="open_blot", fmt="best_of:1", rated=False)
    assert pools.leave(alice) and not PoolEntry.objects.exists()
