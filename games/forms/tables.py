"""The lobby filter and the create-table form."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from engine.match import MatchFormat
from engine.rules import SEATS
from games.labels import format_label, rule_set_label
from games.models import BotLevel, RuleSetConfig, Variant
from games.services.tables import OPEN

SEAT_CHOICES = [
    (OPEN, _("Open for a player")),
    *[(value, format_lazy(_("Bot: {level}"), level=label)) for value, label in BotLevel.choices],
]


class LobbyFilterForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Variant"),
        choices=[("", _("All variants")), *Variant.choices],
        required=False,
    )


class VariantForm(forms.Form):
    """Picks the variant of the table to create (the rest of the form depends on it)."""

    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices)


class TableCreateForm(forms.Form):
    """Everything about a new table for one variant; seats 1.. are "other seats"."""

    variant = forms.ChoiceField(choices=Variant.choices, widget=forms.HiddenInput)
    format = forms.ChoiceField(label=_("Match format"))
    rule_set = forms.ModelChoiceField(
        label=_("Rule set"), queryset=RuleSetConfig.objects.none(), empty_label=None
    )
    is_private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_("Not listed in the lobby; only people with the invite link can join."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_("The result changes the players' ratings. People only: no bot seats."),
    )
    # Table-level settings (docs/rules.md §6): the turn clock, how long an absent player
    # is waited for before a bot plays for them, and the bots' pause.
    turn_seconds = forms.IntegerField(
        required=False,
        label=_("Seconds per turn"),
        min_value=5,
        max_value=600,
        initial=30,
        help_text=_("When it runs out, a Normal bot plays for the player."),
    )
    disconnect_grace_seconds = forms.IntegerField(
        required=False,
        label=_("Disconnect grace (seconds)"),
        min_value=0,
        max_value=3600,
        initial=60,
        help_text=_("A player away longer than this is played by a bot until they return."),
    )
    bot_delay_ms = forms.IntegerField(
        required=False,
        label=_("Bot pause (ms)"),
        min_value=0,
        max_value=10_000,
        initial=700,
        help_text=_("Keeps the bots' play easy to follow."),
    )

    trick_pause_ms = forms.IntegerField(
        required=False,
        label=_("Trick pause (ms)"),
        min_value=0,
        max_value=5000,
        initial=1000,
        help_text=_("How long a finished trick stays in the middle before it is gathered."),
    )

    result_pause_seconds = forms.IntegerField(
        required=False,
        label=_("Pause after a deal (seconds)"),
        min_value=2,
        max_value=60,
        initial=10,
        help_text=_(
            "How long a deal's result stays on the table for everyone before the next "
            "deal. A player alone with bots moves on with Next deal."
        ),
    )

    TIMING_FIELDS = (
        "turn_seconds", "disconnect_grace_seconds", "bot_delay_ms", "trick_pause_ms",
        "result_pause_seconds",
    )

    def __init__(self, variant: str, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("variant", variant)
        super().__init__(*args, **kwargs)
        self.variant_value = variant
        formats = MatchFormat.choices(variant)
        format_field = cast(forms.ChoiceField, self.fields["format"])
        format_field.choices = [(str(f), format_label(f)) for f in formats]
        self.fields["format"].initial = str(MatchFormat.default(variant))
        rule_sets = RuleSetConfig.objects.filter(variant=variant)
        cast(forms.ModelChoiceField, self.fields["rule_set"]).queryset = rule_sets
        rule_set = self.fields["rule_set"]
        rule_set.label_from_instance = lambda r: rule_set_label(r.name)  # type: ignore[attr-defined]
        self.fields["rule_set"].initial = rule_sets.filter(is_default=True).first()
        for index in range(1, SEATS[variant]):
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=_("Seat %(n)s") % {"n": index + 1},
                choices=SEAT_CHOICES,
                initial=OPEN,
            )

    def clean_variant(self) -> str:
        value = self.cleaned_data["variant"]
        if value != self.variant_value:
            raise forms.ValidationError(_("The variant changed; please check the form again."))
        return value

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{i}"] for i in range(1, SEATS[self.variant_value])]

    def timing(self) -> dict[str, int]:
        """The timing settings, the defaults standing in for any left empty."""
        return {
            name: self.fields[name].initial
            if self.cleaned_data[name] is None
            else self.cleaned_data[name]
            for name in self.TIMING_FIELDS
        }

    def timing_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.TIMING_FIELDS]

    def others(self) -> list[str]:
        return [self.cleaned_data[f"seat_{i}"] for i in range(1, SEATS[self.variant_value])]
