"""The admin: rule-set form validated by the engine; lists of every model."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games.models import RuleSetConfig
from games.services.matches import finish_deal
from tests.site.conftest import client_for, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(make_user):
    return client_for(make_user("root", is_staff=True, is_superuser=True))


def _rule_set_post(**fields):
    data = {
        "name": "House rules",
        "variant": "belote",
        "description": "",
        "belote__capot_points": "252",
        "belote__litige": "hold_for_next",
        "open_blot__kapout_points": "210",
    }
    data.update(fields)
    return data


def test_it_saves_a_valid_rule_set_as_overrides(admin_client_):
    response = admin_client_.post(
        reverse("admin:games_rulesetconfig_add"),
        _rule_set_post(**{"belote__capot_points": "300", "belote__litige": "split"}),
    )
    assert response.status_code == 302
    rules = RuleSetConfig.objects.get(name="House rules")
    assert rules.overrides == {"capot_points": 300, "litige": "split"}


def test_it_refuses_an_out_of_range_value_as_a_form_error(admin_client_):
    response = admin_client_.post(
        reverse("admin:games_rulesetconfig_add"),
        _rule_set_post(**{"belote__capot_points": "999"}),
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "Capot points must be between 162 and 500" in errors["belote__capot_points"][0]
    assert not RuleSetConfig.objects.filter(name="House rules").exists()


def test_it_refuses_a_locked_switch_as_a_form_error(admin_client_):
    response = admin_client_.post(
        reverse("admin:games_rulesetconfig_add"),
        _rule_set_post(**{"belote__coinche": "on"}),
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "switched off" in errors["belote__coinche"][0]
    assert not RuleSetConfig.objects.filter(name="House rules").exists()


def test_it_refuses_a_choice_that_is_not_offered(admin_client_):
    response = admin_client_.post(
        reverse("admin:games_rulesetconfig_add"),
        _rule_set_post(**{"belote__litige": "coin_toss"}),
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["belote__litige"]


def test_it_ignores_the_fields_of_the_other_variant(admin_client_):
    response = admin_client_.post(
        reverse("admin:games_rulesetconfig_add"),
        _rule_set_post(variant="open_blot", **{"belote__capot_points": "999",
                                                "open_blot__kapout_points": "300"}),
    )
    assert response.status_code == 302
    assert RuleSetConfig.objects.get(name="House rules").overrides == {"kapout_points": 300}


def test_it_edits_a_rule_set_showing_its_current_values(admin_client_):
    rules = RuleSetConfig.objects.get(variant="open_blot", is_default=True)
    url = reverse("admin:games_rulesetconfig_change", args=[rules.pk])
    assert admin_client_.get(url).status_code == 200
    response = admin_client_.post(
        url,
        _rule_set_post(name=rules.name, variant="open_blot", is_default="on",
                       **{"open_blot__kapout_points": "250"}),
    )
    assert response.status_code == 302
    rules.refresh_from_db()
    assert rules.overrides == {"kapout_points": 250}
    form = admin_client_.get(url).context["adminform"].form
    assert form.fields["open_blot__kapout_points"].initial == 250


def test_it_refuses_the_admin_to_anonymous_users(client):
    response = client.get(reverse("admin:games_rulesetconfig_changelist"))
    assert response.status_code == 302


@pytest.mark.parametrize(
    "model", ["rulesetconfig", "player", "table", "match", "deal", "tournament"]
)
def test_it_lists_every_model(admin_client_, make_table, alice, model):
    table = make_table(alice, "open_blot", others=["easy"])
    finish_deal(play_out(table.matches.get().deals.get(), random.Random(1)))
    url = reverse(f"admin:games_{model}_changelist")
    assert admin_client_.get(url).status_code == 200
    assert admin_client_.get(url, {"q": "alice"}).status_code == 200


def test_it_shows_a_deal_record_readably(admin_client_, make_table, alice):
    table = make_table(alice, "open_blot", others=["easy"])
    deal = table.matches.get().deals.get()
    finish_deal(play_out(deal, random.Random(2)))
    response = admin_client_.get(reverse("admin:games_deal_change", args=[deal.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert deal.commitment in html
    assert "&quot;deck&quot;" in html


def test_it_shows_table_and_match_pages(admin_client_, make_table, alice):
    table = make_table(alice, "open_blot", others=["easy"])
    match = table.matches.get()
    for name, pk in [("table", table.pk), ("match", match.pk), ("player", alice.player.pk)]:
        url = reverse(f"admin:games_{name}_change", args=[pk])
        assert admin_client_.get(url).status_code == 200


def test_it_hides_a_running_deals_deck_and_salt_in_the_admin(make_table, make_user):
    # Issue 10: staff seated at a table must not read the deck of the deal they play.
    root = make_user("root", is_staff=True, is_superuser=True)
    table = make_table(root, "open_blot", others=["easy"])
    deal = table.matches.get().deals.get()
    response = client_for(root).get(reverse("admin:games_deal_change", args=[deal.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert deal.commitment in html
    assert deal.shuffle_salt not in html
    assert "&quot;deck&quot;" not in html


def test_it_shows_who_left_and_returned_on_the_match(admin_client_, make_table, alice, bob):
    from games.services import seating
    from games.services.tables import join_seat

    table = make_table(alice, "open_blot")
    join_seat(table.pk, bob, 1)
    seating.leave(table.pk, bob)
    match = table.current_match()
    response = admin_client_.get(reverse("admin:games_match_change", args=[match.pk]))
    assert response.status_code == 200
    assert "Left the table" in response.content.decode()
