"""The admin form for rule sets: one field per engine setting, checked by the engine.

Fields are named ``<variant>__<setting>`` and grouped per variant; only the
fields of the selected variant are used. The engine's ``RuleSet.build`` is the
one judge of what is allowed: its ``RuleSetError`` becomes the error of the
field it names.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from engine.errors import RuleSetError
from engine.rules import SETTINGS, VARIANTS, RuleSet, Setting
from games import i18n
from games.models import RuleSetConfig, Variant


def field_name(variant: str, setting: Setting) -> str:
    return f"{variant}__{setting.name}"


def _field_for(setting: Setting) -> forms.Field:
    # Labels, help and choices come translated from games.i18n (the engine's own
    # texts are English); lazily, so each admin page shows its reader's language.
    help_text = format_lazy(
        "{} {}", i18n.setting_help(setting), lazy(i18n.allowed_text, str)(setting)
    )
    label = i18n.setting_label(setting)
    if isinstance(setting.default, bool):
        return forms.BooleanField(label=label, required=False, help_text=help_text)
    if setting.choices is not None:
        return forms.ChoiceField(
            label=label,
            choices=[(c, i18n.choice_label(c)) for c in setting.choices],
            help_text=help_text,
        )
    # No min/max here on purpose: the engine decides, and says why.
    return forms.IntegerField(label=label, help_text=help_text)


class RuleSetAdminForm(forms.ModelForm):
    class Meta:
        model = RuleSetConfig
        fields = ["name", "variant", "description", "is_default"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stored = self.instance.overrides if self.instance.pk else {}
        for variant in VARIANTS:
            for setting in SETTINGS[variant]:
                current = setting.default
                if self.instance.pk and self.instance.variant == variant:
                    current = stored.get(setting.name, setting.default)
                self.fields[field_name(variant, setting)].initial = current

    @staticmethod
    def fieldsets() -> list[tuple[str | None, dict[str, Any]]]:
        sets: list[tuple[str | None, dict[str, Any]]] = [
            (None, {"fields": ["name", "variant", "description", "is_default"]})
        ]
        for variant in VARIANTS:
            sets.append(
                (
                    str(_("Settings for %(variant)s (used when that variant is selected)"))
                    % {"variant": Variant(variant).label},
                    {"fields": [field_name(variant, s) for s in SETTINGS[variant]]},
                )
            )
        return sets

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        variant = cleaned.get("variant")
        if variant not in VARIANTS:
            return cleaned
        overrides: dict[str, Any] = {}
        for setting in SETTINGS[variant]:
            name = field_name(variant, setting)
            if name not in cleaned:
                continue  # the field already has its own error
            value = cleaned[name]
            if value != setting.default:
                overrides[setting.name] = value
        try:
            rules = RuleSet.build(variant, overrides)
        except RuleSetError as exc:
            target = None
            found = next((s for s in SETTINGS[variant] if s.name == exc.setting), None)
            if found is not None:
                target = field_name(variant, found)
            self.add_error(target, i18n.rule_set_error_text(exc, found))
            return cleaned
        self.instance.overrides = rules.overrides()
        return cleaned


# Declared at import time (not in __init__) so the admin's form factory knows them.
for _variant in VARIANTS:
    for _setting in SETTINGS[_variant]:
        _field = _field_for(_setting)
        RuleSetAdminForm.base_fields[field_name(_variant, _setting)] = _field
        RuleSetAdminForm.declared_fields[field_name(_variant, _setting)] = _field
