"""The admin: rule-set form validated by the engine; lists of every model."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.models import RuleSetConfig, Seat, Table
from games.services import changes
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


def test_it_refuses_all_trump_without_coinche_as_an_error_of_that_switch(admin_client_):
    response = admin_client_.post(
        reverse("admin:games_rulesetconfig_add"),
        _rule_set_post(**{"belote__all_trump": "on", "belote__announcements": "on"}),
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["belote__all_trump"] == [
        "All-trump contracts can only be switched on together with Coinche."
    ]
    assert not RuleSetConfig.objects.filter(name="House rules").exists()


def test_it_saves_the_four_switches_of_a_coinche_rule_set(admin_client_):
    switches = ("announcements", "coinche", "all_trump", "no_trump")
    response = admin_client_.post(
        reverse("admin:games_rulesetconfig_add"),
        _rule_set_post(**{f"belote__{name}": "on" for name in switches}),
    )
    assert response.status_code == 302
    rules = RuleSetConfig.objects.get(name="House rules")
    assert rules.overrides == dict.fromkeys(switches, True)


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
    # Staff seated at a table must not read the deck of the deal they play.
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


class _FormFields(HTMLParser):
    """What a browser would post from the page's form (the admin's change form)."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.data[name] = a.get("value") or ""
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data


def test_giving_a_seat_to_someone_else_in_the_admin_re_admits_both_peoples_sockets(
    admin_client_, make_table, alice, bob, django_capture_on_commit_callbacks
):
    table = make_table(alice, "open_blot", others=["easy"])
    url = reverse("admin:games_table_change", args=[table.pk])
    form = _FormFields()
    form.feed(admin_client_.get(url).content.decode())
    seat_0 = Seat.objects.get(table=table, index=0)
    field = next(k for k, v in form.data.items() if k.endswith("-id") and v == str(seat_0.pk))
    form.data[field.removesuffix("-id") + "-user"] = str(bob.pk)
    heard: list[tuple[int, list[int]]] = []

    def listen(sender, table_id, user_ids, **kwargs):
        heard.append((table_id, user_ids))

    changes.seats_changed.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = admin_client_.post(url, form.data)
    finally:
        changes.seats_changed.disconnect(listen)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Seat.objects.get(pk=seat_0.pk).user_id == bob.pk
    assert heard == [(table.pk, sorted([alice.pk, bob.pk]))]
    assert Table.objects.get(pk=table.pk).version == table.version + 1
