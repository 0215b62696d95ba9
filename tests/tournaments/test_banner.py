"""'Your match is ready' follows the match: the people seated at a tournament's
table are told when its match begins and when it ends (pushed to their pages by
their own socket; tests/live/test_person_socket.py shows the push)."""

from __future__ import annotations

import pytest

from games.live.conduct.conductor import run_due
from games.services import changes
from games.services import tournaments as svc
from tests.live.conftest import later

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    told: list[tuple[int, str]] = []

    def listen(sender, user_id, event, data, **kwargs):
        told.append((user_id, event))

    changes.user_notified.connect(listen)
    yield told
    changes.user_notified.disconnect(listen)


def test_the_seated_person_is_told_when_their_match_begins_and_ends(
    make_tournament, alice, heard, django_capture_on_commit_callbacks
) -> None:
    tournament = make_tournament(alice, max_entrants=2)
    svc.register(tournament.pk, alice)
    with django_capture_on_commit_callbacks(execute=True):
        svc.start(tournament.pk, alice)
    assert heard == [(alice.pk, "match-ready")]
    assert len(svc.ready_matches(alice)) == 1
    heard.clear()
    for _ in range(5000):  # a stand-in plays alice's seat: she never came
        with django_capture_on_commit_callbacks(execute=True):
            moved = run_due(later())
        if (alice.pk, "match-ready") in heard:
            break
        assert moved, "nothing was due, but the match is not over"
    assert heard == [(alice.pk, "match-ready")]
    assert svc.ready_matches(alice) == []


def test_the_seated_person_is_told_when_a_cancelled_tournament_stops_their_match(
    make_tournament, alice, heard, django_capture_on_commit_callbacks
) -> None:
    tournament = make_tournament(alice, max_entrants=2)
    svc.register(tournament.pk, alice)
    svc.start(tournament.pk, alice)
    with django_capture_on_commit_callbacks(execute=True):
        svc.cancel(tournament.pk, alice)
    assert (alice.pk, "match-ready") in heard
    assert svc.ready_matches(alice) == []
