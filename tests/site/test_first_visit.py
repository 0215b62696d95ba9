"""The README's "done when" path through the test client: a new user signs up,
creates a table, sees it in the lobby; an administrator edits a rule set."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import RuleSetConfig, Table
from tests.site.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db


def test_it_walks_a_new_user_from_sign_up_to_a_listed_table(make_user):
    visitor = Client()
    assert visitor.get(reverse("lobby")).status_code == 200
    visitor.post(
        reverse("signup"),
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD},
    )
    form = visitor.get(reverse("table_create")).context["form"]
    response = visitor.post(
        reverse("table_create"),
        {
            "variant": "belote",
            "format": form.fields["format"].initial,
            "rule_set": form.fields["rule_set"].initial.pk,
            "seat_1": "open",
            "seat_2": "normal",
            "seat_3": "open",
        },
    )
    table = Table.objects.get()
    assert response["Location"] == reverse("table", args=[table.pk])
    lobby = Client().get(reverse("lobby"))
    assert list(lobby.context["tables"]) == [table]
    assert "newbie" in lobby.content.decode()

    admin = client_for(make_user("root", is_staff=True, is_superuser=True))
    rules = RuleSetConfig.objects.get(variant="belote", is_default=True)
    response = admin.post(
        reverse("admin:games_rulesetconfig_change", args=[rules.pk]),
        {
            "name": rules.name,
            "variant": "belote",
            "description": rules.description,
            "is_default": "on",
            "belote__capot_points": "250",
            "belote__litige": "split",
            "open_blot__kapout_points": "210",
        },
    )
    assert response.status_code == 302
    rules.refresh_from_db()
    assert rules.overrides == {"capot_points": 250, "litige": "split"}
    table.refresh_from_db()
    assert table.rules_snapshot == {}  # the existing table keeps its snapshot
