"""Rule sets: the default per variant, validation by the engine in clean()."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from games.models import RuleSetConfig

pytestmark = pytest.mark.django_db


def test_it_has_a_default_rule_set_per_variant():
    defaults = RuleSetConfig.objects.filter(is_default=True)
    assert sorted(d.variant for d in defaults) == ["belote", "open_blot"]
    assert all(d.overrides == {} for d in defaults)


def test_it_keeps_only_non_default_values():
    rules = RuleSetConfig(
        name="x", variant="belote", overrides={"capot_points": 252, "litige": "split"}
    )
    rules.full_clean()
    assert rules.overrides == {"litige": "split"}


@pytest.mark.parametrize(
    "variant, overrides",
    [
        ("belote", {"capot_points": 999}),
        ("belote", {"litige": "coin_toss"}),
        ("belote", {"no_trump": True}),  # no-trump contracts need coinche
        ("belote", {"coinche": "yes"}),
        ("belote", {"kapout_points": 200}),  # another variant's setting
        ("open_blot", {"kapout_points": 100}),
        ("open_blot", {"nonsense": 1}),
    ],
)
def test_it_refuses_invalid_overrides(variant, overrides):
    rules = RuleSetConfig(name="bad", variant=variant, overrides=overrides)
    with pytest.raises(ValidationError) as info:
        rules.full_clean()
    assert "overrides" in info.value.message_dict


def test_it_lists_every_setting_for_display():
    rules = RuleSetConfig(name="x", variant="open_blot", overrides={"kapout_points": 250})
    assert rules.settings_table() == [("kapout_points", 250, True)]
