"""Admin-editable rule sets: named overrides of a variant's settings."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.errors import RuleSetError
from engine.rules import RuleSet
from games.models.choices import Variant


class RuleSetConfig(models.Model):
    """A variant plus the settings that differ from the defaults of docs/rules.md §6.

    Only valid overrides are ever stored: ``clean()`` builds the engine's
    ``RuleSet`` and keeps its normalised ``overrides()``. Tables copy the
    overrides when they are created, so editing a rule set never changes a
    running match.
    """

    name = models.CharField(_("name"), max_length=80, unique=True)
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    overrides = models.JSONField(_("overrides"), default=dict, blank=True)
    description = models.TextField(_("description"), blank=True)
    is_default = models.BooleanField(
        _("default for its variant"),
        default=False,
        help_text=_("Preselected in the create-table form."),
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["variant", "-is_default", "name"]
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")

    def __str__(self) -> str:
        return self.name

    def rules(self) -> RuleSet:
        """The engine rule set; raises ``RuleSetError`` if the stored data is bad."""
        return RuleSet.build(self.variant, self.overrides)

    def clean(self) -> None:
        super().clean()
        if self.variant not in Variant.values:
            return  # the field's own validation reports it
        try:
            self.overrides = self.rules().overrides()
        except RuleSetError as exc:
            raise ValidationError({"overrides": str(exc)}) from exc

    def settings_table(self) -> list[tuple[str, Any, bool]]:
        """(name, value, changed from the default) for each setting, for display."""
        rules = self.rules()
        changed = rules.overrides()
        return [(name, value, name in changed) for name, value in rules.as_dict().items()]
