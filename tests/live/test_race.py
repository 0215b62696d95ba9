"""Two moves racing for the same turn: exactly one is applied.

Real concurrency needs a database that locks rows: this runs on PostgreSQL (CI
runs the suite once with DATABASE_URL set for this reason); SQLite serialises
whole-database writes and has no row locks to test.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.live.submit.play import Refused
from games.models import Deal
from games.services.tables import join_seat
from tests.live.conftest import live_of, play_as_holder

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"
    ),
]


def test_it_applies_exactly_one_of_two_racing_moves(make_table, alice, bob) -> None:
    table = make_table(alice, "open_blot")
    join_seat(table.pk, bob, 1)
    live = live_of(table)
    version = live.table.version
    contenders = live.engine.legal_actions()[:2]
    start = threading.Barrier(len(contenders))
    outcomes: list[object] = []

    def race(action) -> None:
        try:
            start.wait()
            outcomes.append(play_as_holder(table.pk, action, version))
        except Refused as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(a,)) for a in contenders]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    # One is stored; the other is refused for its stale version.
    assert sorted(type(o).__name__ for o in outcomes) == ["StaleVersion", "int"]
    assert any(isinstance(o, Refused) for o in outcomes)
    deal = Deal.objects.get(pk=live.deal.pk)
    assert len(deal.actions) == 1
    assert deal.actions[0] in [a.to_dict() for a in contenders]
    table.refresh_from_db()
    assert table.version == version + 1
