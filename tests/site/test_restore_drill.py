"""``manage.py restore_drill``: a database with finished and running matches
and rating histories is dumped, restored into a fresh database and read back
whole, and its running tables play on (on SQLite, and on PostgreSQL when
DATABASE_URL names one: the drill uses pg_dump and pg_restore there)."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import CommandError, call_command

from games.models import Deal, RatingChange, Table
from games.ops import backups
from games.services.tables import join_seat
from tests.site.conftest import play_match
from tests.site.test_ratings import rated_match

# transaction=True: the dump and the reading process see only what is committed.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site_with_history(make_table, alice, bob, carol):
    finished = rated_match(make_table, alice, bob)
    play_match(finished)
    running = make_table(carol, "open_blot", fmt="first_to:501")
    join_seat(running.pk, bob, 1)
    deal = running.current_match().deals.get(status=Deal.Status.PLAYING)
    rng = random.Random(5)
    engine = deal.rebuild()
    for _ in range(5):  # a deal under way: some moves stored, more to come
        action = rng.choice(engine.legal_actions())
        engine.apply(action)
        deal.actions.append(action.to_dict())
    deal.save(update_fields=["actions"])
    Table.objects.filter(pk=running.pk).update(version=running.version + 5)
    assert RatingChange.objects.exists()
    return finished, running


def test_the_drill_restores_every_match_replay_and_rating_history_and_play_continues(
    site_with_history,
) -> None:
    out = io.StringIO()
    call_command("restore_drill", stdout=out)
    text = out.getvalue()
    assert "restore drill passed" in text
    assert "1 finished and 1 running matches" in text
    assert "2 rating histories" in text
    assert "1 running tables played on" in text


def test_the_source_is_left_as_it_was(site_with_history) -> None:
    _, running = site_with_history
    before = Table.objects.get(pk=running.pk).version
    call_command("restore_drill", stdout=io.StringIO())
    assert Table.objects.get(pk=running.pk).version == before  # the move was the copy's


def test_a_restore_missing_a_deal_or_a_rating_change_fails_naming_it(
    site_with_history, monkeypatch
) -> None:
    finished, _ = site_with_history
    real = backups.inspect

    def lossy(copy, out):
        read = real(copy, out)
        match = read["matches"][str(finished.pk)]
        match["deals"].pop(next(iter(match["deals"])))
        for entry in read["ratings"].values():
            entry["changes"] = []
        return read

    monkeypatch.setattr(backups, "inspect", lossy)
    with pytest.raises(CommandError) as failed:
        call_command("restore_drill", stdout=io.StringIO())
    message = str(failed.value)
    assert f"match {finished.pk}: its deals' moves differ" in message
    assert "alice's rating history differs" in message
