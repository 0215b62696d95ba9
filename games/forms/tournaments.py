"""The create-tournament form, the list filter and the Belote registration form."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.match import MatchFormat
from games.labels import format_label, rule_set_label
from games.models import BotLevel, Kind, RuleSetConfig, Variant
from games.models.tournaments import MAX_ENTRANTS, MAX_SWISS_ROUNDS, MIN_ENTRANTS


def _all_formats() -> list[tuple[str, str]]:
    """Every format of either variant (the service checks the variant offers it)."""
    seen: dict[str, str] = {}
    for variant in Variant.values:
        for fmt in MatchFormat.choices(variant):
            seen.setdefault(str(fmt), format_label(fmt))
    return list(seen.items())


class TournamentFilterForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Variant"), choices=[("", _("All variants")), *Variant.choices], required=False
    )


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices)
    kind = forms.ChoiceField(label=_("Kind"), choices=Kind.choices)
    match_format = forms.ChoiceField(
        label=_("Match format"),
        help_text=_("What every pairing plays. Belote also offers first to 1000."),
    )
    rule_set = forms.ModelChoiceField(
        label=_("Rule set"),
        queryset=RuleSetConfig.objects.all(),
        required=False,
        empty_label=_("The variant's standard rules"),
    )
    max_entrants = forms.IntegerField(
        label=_("Maximum entrants"),
        min_value=MIN_ENTRANTS,
        max_value=MAX_ENTRANTS,
        initial=8,
        help_text=_("Belote entrants are teams of two."),
    )
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss)"),
        min_value=1,
        max_value=MAX_SWISS_ROUNDS,
        required=False,
        help_text=_("Leave empty to derive it from the number of entrants."),
    )
    third_place = forms.BooleanField(label=_("Third-place match (knockout)"), required=False)
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_("Matches between people change their ratings; matches with bots do not."),
    )
    fill_with_bots = forms.ChoiceField(
        label=_("Fill empty places with bots"),
        choices=[("", _("No bots")), *BotLevel.choices],
        required=False,
    )
    starts_at = forms.DateTimeField(
        label=_("Start time"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Optional: registration closes and the tournament starts then."),
    )
    turn_seconds = forms.IntegerField(
        label=_("Seconds per turn"), min_value=5, max_value=600, initial=30
    )
    disconnect_grace_seconds = forms.IntegerField(
        label=_("Disconnect grace (seconds)"), min_value=0, max_value=3600, initial=60
    )
    bot_delay_ms = forms.IntegerField(
        label=_("Bot pause (ms)"), min_value=0, max_value=10_000, initial=700
    )
    featured = forms.BooleanField(label=_("Featured"), required=False)

    def __init__(self, *args: Any, is_staff: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["match_format"]).choices = _all_formats()
        self.fields["match_format"].initial = "best_of:3"
        rule_set = self.fields["rule_set"]
        rule_set.label_from_instance = lambda r: rule_set_label(r.name)  # type: ignore[attr-defined]
        if not is_staff:
            del self.fields["featured"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("rounds") and data.get("kind") != Kind.SWISS:
            self.add_error("rounds", _("Only a Swiss tournament has a chosen number of rounds."))
        variant = data.get("variant")
        rule_set = data.get("rule_set")
        if rule_set is not None and rule_set.variant != data.get("variant"):
            self.add_error("rule_set", _("This rule set is for another variant."))
        fmt = data.get("match_format")
        if fmt and variant and MatchFormat.parse(fmt) not in MatchFormat.choices(variant):
            self.add_error("match_format", _("This format is not offered for this variant."))
        if rule_set is None and variant:
            data["rule_set"] = RuleSetConfig.objects.filter(
                variant=variant, is_default=True
            ).first()
            if data["rule_set"] is None:
                self.add_error("rule_set", _("Choose a rule set for this variant."))
        return data

    def timing(self) -> dict[str, int]:
        return {
            name: self.cleaned_data[name]
            for name in ("turn_seconds", "disconnect_grace_seconds", "bot_delay_ms")
        }


class RegisterForm(forms.Form):
    partner = forms.CharField(
        label=_("Partner's username"),
        required=False,
        max_length=150,
        help_text=_("Optional: they accept the invitation; alone, you are paired at the start."),
    )
