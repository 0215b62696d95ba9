"""Sign-up and profile forms."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.models import Player


class SignupForm(UserCreationForm):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("Shown at the tables. Defaults to your username."),
    )

    @transaction.atomic
    def save(self, commit: bool = True) -> Any:
        user = super().save(commit=True)
        name = self.cleaned_data.get("display_name") or user.get_username()
        Player.objects.update_or_create(user=user, defaults={"display_name": name[:40]})
        return user


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["display_name", "language"]
