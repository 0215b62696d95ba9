"""The lobby's Play-now form."""

from __future__ import annotations

import json
from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.match import MatchFormat
from engine.rules import BELOTE
from games.labels import format_label
from games.models import Game, variant_of_game


def _formats() -> list[tuple[str, str]]:
    # Every format of either variant, Belote's (which has them all) in order; the
    # service refuses one the chosen variant does not offer.
    return [(str(f), format_label(f)) for f in MatchFormat.choices(BELOTE)]


def format_defaults() -> str:
    """Each variant's usual format (``MatchFormat.default``: the one default for
    bots, Play now and challenges), as the variant select's
    ``data-format-defaults`` (static/js/blot.js switches the format with it)."""
    return json.dumps(
        {g: str(MatchFormat.default(variant_of_game(g))) for g in Game.values}, sort_keys=True
    )


class PlayNowForm(forms.Form):
    # A pool per game: Coinche waits apart from classic Belote (and is rated apart).
    variant = forms.ChoiceField(label=_("Game"), choices=Game.choices)
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

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        variant = str(self.initial.get("variant") or BELOTE)
        if variant not in Game.values:
            variant = BELOTE
        self.fields["variant"].initial = variant
        self.fields["format"].initial = str(MatchFormat.default(variant_of_game(variant)))
        self.fields["variant"].widget.attrs["data-format-defaults"] = format_defaults()

    @staticmethod
    def remembered(data: Mapping[str, object]) -> dict[str, object]:
        """What the lobby keeps of a submitted form to show it again (a refusal
        included): the known choices only, the rest as the defaults."""
        kept: dict[str, object] = {}
        variant = str(data.get("variant") or "")
        if variant in Game.values:
            kept["variant"] = variant
        fmt = str(data.get("format") or "")
        if fmt in {value for value, _label in _formats()}:
            kept["format"] = fmt
        kept["rated"] = str(data.get("rated") or "") in ("1", "on", "True", "true")
        kept["bots"] = str(data.get("bots") or "") in ("1", "on", "True", "true")
        kept["partner"] = str(data.get("partner") or "")[:150]
        return kept
