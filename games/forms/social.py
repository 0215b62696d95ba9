"""The challenge form on a player's page (the services check it all again)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.match import MatchFormat
from engine.rules import BELOTE
from games.forms.pools import format_defaults
from games.labels import format_label
from games.models import Game, variant_of_game
from games.services import ServiceError
from games.services.tables import check_format


def _format_choices() -> list[tuple[str, str]]:
    # Belote offers every format Open Blot does, and first to 1000 besides.
    return [(str(f), format_label(f)) for f in MatchFormat.choices(BELOTE)]


class ChallengeForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), choices=Game.choices)
    format = forms.ChoiceField(label=_("Match format"))
    rated = forms.BooleanField(label=_("Rated"), required=False)
    partner = forms.CharField(
        label=_("Your partner (Belote, optional)"),
        required=False,
        max_length=150,
        help_text=_(
            "A player's name. Seats nobody is named for are played by bots in a "
            "casual match and left open for people in a rated one."
        ),
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        fmt = self.fields["format"]
        assert isinstance(fmt, forms.ChoiceField)
        fmt.choices = _format_choices()
        fmt.initial = str(MatchFormat.default(BELOTE))
        self.fields["variant"].widget.attrs["data-format-defaults"] = format_defaults()
        self.fields["rated"].widget.attrs["value"] = "1"

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        variant, fmt = data.get("variant"), data.get("format")
        if isinstance(variant, str) and isinstance(fmt, str):
            try:
                check_format(variant_of_game(variant), fmt)
            except ServiceError as exc:
                self.add_error("format", exc.message)
        return data
