"""The move path's hand-written SQL builds exactly what the ORM builds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games.live.store import rows
from games.live.submit.play import current
from games.models import Deal, Match, Presence, Seat, Table
from tests.live.conftest import live_of, play_as_holder

pytestmark = pytest.mark.django_db


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_it_reads_a_table_and_its_seats_as_the_orm_does(duel) -> None:
    Seat.objects.filter(table=duel, index=1).update(left_at=timezone.now())
    with transaction.atomic():
        [locked] = rows.select(Table, "t.id = %s", [duel.pk], lock=True)
    assert fields_of(locked) == fields_of(Table.objects.get(pk=duel.pk))
    assert locked._state.adding is False and locked._state.db == "default"
    by_index = f"t.{rows.quote('index')}"
    seats = rows.select(Seat, "t.table_id = %s", [duel.pk], order_by=by_index)
    expected = Seat.objects.filter(table=duel).order_by("index")
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in expected]
    assert seats[1].left_at is not None  # a datetime, converted on every database


def test_it_reads_the_open_deal_with_its_match_as_the_orm_does(duel) -> None:
    live = live_of(duel)
    play_as_holder(duel.pk, live.engine.legal_actions()[0], duel.version)
    deal = rows.newest_open_deal(duel.pk)
    orm = Deal.objects.select_related("match").get(pk=deal.pk)
    assert fields_of(deal) == fields_of(orm)
    assert fields_of(deal.match) == fields_of(orm.match)
    assert deal.actions and isinstance(deal.actions[0], dict)  # JSON decoded
    assert deal.match.status == Match.Status.PLAYING


def test_it_finds_no_open_deal_at_a_table_between_matches(duel) -> None:
    Deal.objects.filter(match__table=duel).update(status=Deal.Status.FINISHED)
    assert rows.newest_open_deal(duel.pk) is None
    assert current(Table.objects.get(pk=duel.pk)) is None


def test_it_reads_values_as_the_orm_does(duel, alice) -> None:
    seen = timezone.now() - timedelta(minutes=3)
    Presence.objects.create(
        table=duel, user=alice, seat_index=0, channel_name="a", connected_at=seen, last_seen=seen
    )
    found = rows.select_values(
        Presence, ("closed_at", "last_seen"), "t.table_id = %s AND t.seat_index = %s", [duel.pk, 0]
    )
    assert found == [list(r) for r in Presence.objects.values_list("closed_at", "last_seen")]
    assert found[0][1] == seen


def test_it_writes_fields_as_save_does(duel) -> None:
    deal = live_of(duel).deal
    deal.actions = [{"seat": 1, "type": "pass"}]
    rows.update(deal, ["actions"])
    table = Table.objects.get(pk=duel.pk)
    table.version, table.wakeup_at = 41, timezone.now()
    rows.update(table, ["version", "wakeup_at"])
    assert Deal.objects.get(pk=deal.pk).actions == [{"seat": 1, "type": "pass"}]
    stored = Table.objects.get(pk=duel.pk)
    assert (stored.version, stored.wakeup_at) == (41, table.wakeup_at)
