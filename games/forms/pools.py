"""The lobby's Play-now form."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.match import MatchFormat
from engine.rules import BELOTE
from games.labels import format_label
from games.models import Variant


def _formats() -> list[tuple[str, str]]:
    # Every format of either variant, Belote's (which has them all) in order; the
    # service refuses one the chosen variant does not offer.
    return [(str(f), format_label(f)) for f in MatchFormat.choices(BELOTE)]


class PlayNowForm(forms.Form):
    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices)
    format = forms.ChoiceField(label=_("Match format"), choices=_formats)
    # value="1": the hook's spelling (docs/hooks.md); checked means "1" is sent.
    rated = forms.BooleanField(
        label=_("Rated"), required=False, widget=forms.CheckboxInput(attrs={"value": "1"})
    )
    bots = forms.BooleanField(
        label=_("Fill with bots after 30 s (casual only)"),
        required=False,
        widget=forms.CheckboxInput(attrs={"value": "1"}),
    )
    partner = forms.CharField(
        label=_("Partner (Belote, optional)"),
        required=False,
        max_length=150,
        help_text=_("A friend's username: you play as partners once they join naming you."),
    )
