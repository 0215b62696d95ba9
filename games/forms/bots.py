"""The account page's bot forms: becoming a bot account, making an API token,
and the ladder's variants (the services check it all again)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import ApiToken, Variant


class BotAccountForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("I understand that this account will be a bot account for good."),
        required=True,
    )


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=40,
        help_text=_("For you to tell your tokens apart, for example the machine the bot runs on."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("What the token may do"),
        choices=ApiToken.Scope.choices,
        initial=list(ApiToken.Scope.values),
        widget=forms.CheckboxSelectMultiple,
    )


class BotLadderForm(forms.Form):
    variants = forms.MultipleChoiceField(
        label=_("Ladder matches"),
        choices=Variant.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "While your bot's event stream is open, the site may pair it with other bots "
            "in rated matches of these games."
        ),
    )
