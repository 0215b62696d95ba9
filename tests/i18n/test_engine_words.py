"""The engine speaks English; the site translates its words at the edge."""

from __future__ import annotations

import pytest
from django.utils import translation

from engine import Action, RuleSet, new_deal
from engine.errors import IllegalAction, RuleSetError
from engine.rules import SETTINGS
from engine.shuffle import shuffled_deck
from games import i18n
from games.labels import kind_label, marker_label


def _reasons() -> list[str]:
    """Every reason the engine gives for an illegal action, produced for real."""
    deal = new_deal(RuleSet.build("belote"), 0, shuffled_deck())
    reasons = []
    for action in (Action(3, "pass"), Action(1, "choose", trump=0)):
        with pytest.raises(IllegalAction) as caught:
            deal.apply(action)
        reasons.append(caught.value.reason)
    deal.apply(Action(1, "take"))
    leader_cards = [a for a in deal.legal_actions() if a.type == "play"]
    held = {a.card for a in leader_cards}
    not_held = next(c for c in range(32) if c not in held)
    with pytest.raises(IllegalAction) as caught:
        deal.apply(Action(deal.to_act, "play", card=not_held))
    reasons.append(caught.value.reason)
    return reasons


def test_it_translates_every_reason_the_engine_gives() -> None:
    reasons = _reasons()
    assert "it is seat 1's turn" in reasons  # the engine's own words, seat counted from 0
    with translation.override("ru"):
        shown = [i18n.reason_text(r) for r in reasons]
    assert shown[0] == "сейчас ход места 2"  # seats are counted from 1 on every page
    assert all(s != r for s, r in zip(shown, reasons, strict=True))


def test_it_shows_an_unknown_reason_as_the_engine_wrote_it() -> None:
    with translation.override("hy"):
        assert i18n.reason_text("something new") == "something new"


@pytest.mark.parametrize("language", ["fr", "ru", "hy", "ka"])
def test_it_names_every_rule_setting_in_each_language(language: str) -> None:
    with translation.override(language):
        for variant, settings in SETTINGS.items():
            for setting in settings:
                assert str(i18n.setting_label(setting)) != setting.name, (variant, setting)
                assert str(i18n.setting_help(setting)) != setting.help
                assert i18n.allowed_text(setting).strip()


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"capot_points": 999}, "«Очки за капот»: значение должно быть от 162 до 500."),
        ({"capot_points": "x"}, "«Очки за капот»: нужно целое число."),
        (
            {"all_trump": True},
            "«Игра «все козыри»»: включается только вместе с контрой.",  # noqa: RUF001
        ),
        (
            {"litige": "coin"},
            "«Спорная раздача (равные очки)»: выберите одно из предложенных значений.",
        ),
    ],
)
def test_it_translates_a_rule_set_error(overrides: dict, expected: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        RuleSet.build("belote", overrides)
    setting = next(s for s in SETTINGS["belote"] if s.name == caught.value.setting)
    with translation.override("ru"):
        assert i18n.rule_set_error_text(caught.value, setting) == expected


@pytest.mark.parametrize(
    ("language", "kinds"),
    [
        ("ru", ["Терц", "Пятидесятка", "Сотня", "Каре"]),  # noqa: RUF001 - Russian words
        ("hy", ["Թերզ", "Հիսուն", "Հարյուր", "Չորս խաղաքարտ"]),
        ("ka", ["ტერცი", "ორმოცდაათი", "ასი", "კარე"]),
        ("fr", ["Tierce", "Cinquante", "Cent", "Carré"]),
    ],
)
def test_it_names_the_combinations_as_players_say_them(language: str, kinds: list[str]) -> None:
    with translation.override(language):
        assert [kind_label(k) for k in ("terz", "fifty", "hundred", "four")] == kinds


def test_it_names_the_markers_in_the_readers_language() -> None:
    with translation.override("hy"):
        assert marker_label("kapout") == "կապուտ"
        assert marker_label("blot") == "բլոտ"
    with translation.override("ru"):
        assert marker_label("capot") == "капот"


@pytest.mark.parametrize("language", ["fr", "ru", "hy", "ka"])
def test_it_has_the_table_tips_in_each_language(language: str) -> None:
    from games.labels import TABLE_TIPS, table_tip

    with translation.override("en"):
        english = {name: table_tip(name) for name in TABLE_TIPS}
    with translation.override(language):
        assert all(table_tip(name) not in ("", english[name]) for name in TABLE_TIPS)


def test_it_gives_the_admin_a_translatable_name_for_every_model_and_field() -> None:
    from django.apps import apps
    from django.utils.functional import Promise

    untranslatable = []
    for model in apps.get_app_config("games").get_models():
        names = [("model", model._meta.verbose_name), ("plural", model._meta.verbose_name_plural)]
        names += [
            (field.name, field.verbose_name)
            for field in model._meta.get_fields()
            if field.concrete and not getattr(field, "primary_key", False)
        ]
        untranslatable += [(model.__name__, n) for n, v in names if not isinstance(v, Promise)]
    assert untranslatable == []
    with translation.override("ru"):
        assert str(apps.get_model("games", "Participant")._meta.verbose_name) == "участник"
