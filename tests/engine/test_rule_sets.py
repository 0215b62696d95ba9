"""docs/rules.md §6 settings: defaults, overrides, and every way a rule set is refused."""

from __future__ import annotations

import pytest

from engine import RuleSet, RuleSetError, new_deal
from engine.errors import RecordError

BELOTE_DEFAULTS = {
    "capot_points": 252,
    "litige": "hold_for_next",
    "announcements": False,
    "coinche": False,
    "all_trump": False,
    "no_trump": False,
}


def test_defaults_belote():
    rules = RuleSet.build("belote")
    assert rules.as_dict() == BELOTE_DEFAULTS
    assert rules.overrides() == {}
    assert rules.seats == 4
    assert RuleSet.default("belote") == rules == RuleSet.build("belote", {})


def test_defaults_open_blot():
    rules = RuleSet.build("open_blot")
    assert rules.as_dict() == {"kapout_points": 210}
    assert rules.overrides() == {}
    assert rules.seats == 2


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [
        ("belote", {"capot_points": 300}),
        ("belote", {"capot_points": 162}),
        ("belote", {"capot_points": 500}),
        ("belote", {"litige": "split"}),
        ("belote", {"litige": "takers_lose"}),
        ("belote", {"litige": "split", "capot_points": 400}),
        ("open_blot", {"kapout_points": 162}),
        ("open_blot", {"kapout_points": 500}),
    ],
)
def test_overrides_are_applied_and_only_they_are_stored(variant, overrides):
    rules = RuleSet.build(variant, overrides)
    for name, value in overrides.items():
        assert rules.as_dict()[name] == value
    assert rules.overrides() == overrides


def test_overriding_with_the_default_stores_nothing():
    assert RuleSet.build("belote", {"capot_points": 252, "coinche": False}).overrides() == {}


@pytest.mark.parametrize(
    ("variant", "name"),
    [
        ("belote", "capot"),
        ("belote", "target"),
        ("open_blot", "turn_seconds"),
        ("belote", "kapout_points"),  # another variant's setting
        ("open_blot", "capot_points"),
        ("open_blot", "litige"),
        ("open_blot", "announcements"),
    ],
)
def test_unknown_setting_names_are_refused_by_name(variant, name):
    with pytest.raises(RuleSetError) as info:
        RuleSet.build(variant, {name: 252})
    assert name in str(info.value)
    assert info.value.setting == name


@pytest.mark.parametrize(
    ("variant", "name", "value"),
    [
        ("belote", "capot_points", 161),
        ("belote", "capot_points", 501),
        ("belote", "capot_points", -252),
        ("open_blot", "kapout_points", 161),
        ("open_blot", "kapout_points", 501),
        ("belote", "litige", "hold"),
        ("belote", "litige", "HOLD_FOR_NEXT"),
    ],
)
def test_out_of_range_values_are_refused(variant, name, value):
    with pytest.raises(RuleSetError) as info:
        RuleSet.build(variant, {name: value})
    assert info.value.setting == name
    assert name in str(info.value)


@pytest.mark.parametrize(
    ("variant", "name", "value"),
    [
        ("belote", "capot_points", "252"),
        ("belote", "capot_points", 252.0),
        ("belote", "capot_points", True),
        ("belote", "capot_points", None),
        ("open_blot", "kapout_points", [210]),
        ("belote", "litige", 1),
        ("belote", "litige", ["split"]),
        ("belote", "litige", None),
    ],
)
def test_wrong_types_are_refused(variant, name, value):
    with pytest.raises(RuleSetError) as info:
        RuleSet.build(variant, {name: value})
    assert info.value.setting == name


@pytest.mark.parametrize("name", ["announcements", "coinche", "all_trump", "no_trump"])
def test_switches_take_only_true_or_false(name):
    on = {"coinche": True, name: True}
    assert RuleSet.build("belote", on).as_dict()[name] is True
    assert RuleSet.build("belote", on).overrides() == on
    for value in (1, "true", None):
        with pytest.raises(RuleSetError) as info:
            RuleSet.build("belote", {name: value})
        assert info.value.setting == name
    assert RuleSet.build("belote", {name: False}).as_dict()[name] is False


@pytest.mark.parametrize("name", ["all_trump", "no_trump"])
def test_all_trump_and_no_trump_are_refused_without_coinche(name):
    for rules in ({name: True}, {name: True, "coinche": False, "announcements": True}):
        with pytest.raises(RuleSetError) as info:
            RuleSet.build("belote", rules)
        assert info.value.setting == name
        message = str(info.value)
        assert name in message and "coinche" in message and "\n" not in message


@pytest.mark.parametrize("variant", ["coinche", "BELOTE", "", None])
def test_unknown_variants_are_refused(variant):
    with pytest.raises(RuleSetError):
        RuleSet.build(variant)


def test_rules_must_be_an_object():
    with pytest.raises(RuleSetError):
        RuleSet.build("belote", [("capot_points", 300)])


def test_a_rule_set_is_for_its_own_variant_only():
    with pytest.raises(RecordError):
        new_deal(RuleSet.build("belote"), 0, list(range(32))).__class__(
            RuleSet.build("open_blot"), 0, list(range(32))
        )
