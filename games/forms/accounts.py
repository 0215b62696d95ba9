"""Sign-up and profile forms."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.models import Player
from games.models.players import check_display_name


class SignupForm(UserCreationForm):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("Shown at the tables. Defaults to your username."),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        # Without a display name the username is shown: it must pass the same checks.
        wanted = data.get("display_name") or data.get("username") or ""
        if wanted and "display_name" not in self.errors:
            try:
                data["display_name"] = check_display_name(wanted)
            except ValidationError as exc:
                self.add_error("display_name", exc)
        return data

    @transaction.atomic
    def save(self, commit: bool = True) -> Any:
        user = super().save(commit=True)
        name = self.cleaned_data["display_name"]
        Player.objects.update_or_create(user=user, defaults={"display_name": name})
        return user


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["display_name", "language"]
