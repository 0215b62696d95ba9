"""The create-table form: variant, format, rule set, other seats, privacy."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match, RuleSetConfig, Table
from tests.site.conftest import default_rule_set

pytestmark = pytest.mark.django_db


def _post(client, variant="belote", **data):
    payload = {
        "variant": variant,
        "format": "first_to:1001",
        "rule_set": default_rule_set(variant).pk,
        "seat_1": "open",
        "seat_2": "open",
        "seat_3": "open",
        "turn_seconds": 30,
        "disconnect_grace_seconds": 60,
        "bot_delay_ms": 700,
    }
    payload.update(data)
    return client.post(reverse("table_create"), payload)


def test_it_requires_login(client):
    response = client.get(reverse("table_create"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_offers_the_formats_of_belote(alice_client):
    form = alice_client.get(reverse("table_create")).context["form"]
    values = [value for value, _ in form.fields["format"].choices]
    assert values == [
        "first_to:501", "first_to:1000", "first_to:1001", "first_to:2001",
        "best_of:1", "best_of:3", "best_of:5",
    ]
    assert form.fields["format"].initial == "first_to:1000"
    assert [f.name for f in form.seat_fields()] == ["seat_1", "seat_2", "seat_3"]


def test_it_offers_the_formats_of_open_blot(alice_client):
    response = alice_client.get(reverse("table_create"), {"variant": "open_blot"})
    form = response.context["form"]
    values = [value for value, _ in form.fields["format"].choices]
    assert "first_to:1000" not in values
    assert [f.name for f in form.seat_fields()] == ["seat_1"]
    assert list(form.fields["rule_set"].queryset) == [default_rule_set("open_blot")]


def test_it_returns_the_form_alone_to_htmx(alice_client):
    response = alice_client.get(
        reverse("table_create"), {"variant": "open_blot"}, headers={"HX-Request": "true"}
    )
    assert b"<html" not in response.content
    assert b'name="seat_1"' in response.content
    assert b'name="seat_2"' not in response.content


def test_it_creates_a_table_with_bots_and_open_seats(alice_client, alice):
    response = _post(alice_client, seat_1="easy", seat_2="open", seat_3="hard")
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[table.pk])
    seats = list(table.seats.order_by("index"))
    assert [(s.user, s.bot_level) for s in seats] == [
        (alice, None), (None, "easy"), (None, None), (None, "hard"),
    ]
    assert table.status == Table.Status.WAITING
    assert table.created_by == alice
    assert table.format == "first_to:1001"
    assert (table.turn_seconds, table.disconnect_grace_seconds, table.bot_delay_ms) == (30, 60, 700)


def test_it_snapshots_the_rule_set(alice_client):
    rules = RuleSetConfig.objects.create(
        name="Big capot", variant="belote", overrides={"capot_points": 300}
    )
    _post(alice_client, rule_set=rules.pk)
    rules.overrides = {"capot_points": 400}
    rules.save()
    table = Table.objects.get()
    assert table.rules_snapshot == {"capot_points": 300}
    assert table.rules().capot_points == 300
    assert table.rule_set_name == "Big capot"


def test_it_refuses_a_format_of_another_variant(alice_client):
    response = _post(alice_client, variant="open_blot", format="first_to:1000")
    assert response.status_code == 200
    assert response.context["form"].errors["format"]
    assert not Table.objects.exists()


def test_it_refuses_a_rule_set_of_another_variant(alice_client):
    response = _post(alice_client, rule_set=default_rule_set("open_blot").pk)
    assert response.context["form"].errors["rule_set"]
    assert not Table.objects.exists()


def test_it_refuses_an_unknown_seat_choice(alice_client):
    response = _post(alice_client, seat_2="grandmaster")
    assert response.context["form"].errors["seat_2"]
    assert not Table.objects.exists()


def test_it_starts_at_once_when_every_other_seat_is_a_bot(alice_client):
    _post(alice_client, variant="open_blot", format="best_of:3", seat_1="normal")
    table = Table.objects.get()
    assert table.status == Table.Status.PLAYING
    match = Match.objects.get(table=table)
    assert match.format == "best_of:3"
    assert match.deals.count() == 1


def test_it_sends_the_creator_of_a_private_table_to_its_invite_link(alice_client):
    response = _post(alice_client, is_private="on")
    table = Table.objects.get()
    assert table.is_private
    assert response["Location"] == table.invite_url()
    page = alice_client.get(response["Location"])
    assert page.status_code == 200
    assert table.invite_token in page.content.decode()


def test_it_stores_the_tables_timing_settings(alice_client):
    _post(alice_client, turn_seconds=45, disconnect_grace_seconds=10, bot_delay_ms=0)
    table = Table.objects.get()
    assert (table.turn_seconds, table.disconnect_grace_seconds, table.bot_delay_ms) == (45, 10, 0)
    assert table.trick_pause_ms == 1000  # left out of the form: the default


def test_it_stores_the_trick_pause(alice_client):
    _post(alice_client, trick_pause_ms=2500)
    assert Table.objects.get().trick_pause_ms == 2500


@pytest.mark.parametrize(
    "field",
    [
        {"turn_seconds": 2},
        {"disconnect_grace_seconds": -1},
        {"bot_delay_ms": 10_001},
        {"trick_pause_ms": 5001},
        {"trick_pause_ms": -1},
    ],
)
def test_it_refuses_timing_settings_out_of_range(alice_client, field):
    response = _post(alice_client, **field)
    assert response.status_code == 200
    assert next(iter(field)) in response.context["form"].errors
    assert not Table.objects.exists()


def test_it_refuses_out_of_range_timing_in_the_service_too(alice):
    from games.services import ServiceError
    from games.services.tables import create_table

    with pytest.raises(ServiceError):
        create_table(
            user=alice, variant="open_blot", fmt="first_to:501",
            rule_set=default_rule_set("open_blot"), others=["easy"], turn_seconds=1,
        )
    with pytest.raises(ServiceError):
        create_table(
            user=alice, variant="open_blot", fmt="first_to:501",
            rule_set=default_rule_set("open_blot"), others=["easy"], trick_pause_ms=5001,
        )
    assert not Table.objects.exists()
