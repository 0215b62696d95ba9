"""Two processes doing the same tournament step at once: it happens once.

Real concurrency needs row locks: this runs on PostgreSQL (DATABASE_URL), as
tests/live/test_race.py does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from games.models import Match, Table, TournamentRound
from games.services import tournaments as svc
from games.services.errors import ServiceError
from tests.live.conftest import later
from tests.tournaments.test_runs import drive

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"
    ),
]


def race(step: Callable[[], object], n: int = 2) -> list[object]:
    barrier = threading.Barrier(n)
    outcomes: list[object] = []

    def run() -> None:
        try:
            barrier.wait()
            outcomes.append(step())
        except ServiceError as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


def test_it_starts_a_tournament_once_when_two_start_it_at_once(make_tournament, alice) -> None:
    tournament = make_tournament(alice, kind="swiss", max_entrants=6, rounds=2)
    outcomes = race(lambda: svc.start(tournament.pk, alice))
    assert sorted(type(o).__name__ for o in outcomes) == ["ServiceError", "Tournament"]
    assert TournamentRound.objects.filter(tournament=tournament).count() == 1
    assert tournament.pairings.count() == 3 and Table.objects.count() == 3


def test_it_begins_the_next_round_once_when_two_conductors_advance(make_tournament, alice):
    tournament = make_tournament(alice, kind="swiss", max_entrants=4, rounds=2)
    svc.start(tournament.pk, alice)
    from games.live.conduct.conductor import run_due

    while Match.objects.filter(tournament=tournament, status="playing").exists():
        run_due(later())
    outcomes = race(lambda: svc.advance_due(later()), n=3)
    assert sorted(outcomes) == [0, 0, 1]
    assert TournamentRound.objects.filter(tournament=tournament).count() == 2
    assert tournament.pairings.count() == 4
    drive(tournament)
    assert tournament.pairings.count() == 4
