"""Forms of the games app."""

from games.forms.accounts import ProfileForm, SignupForm
from games.forms.rulesets import RuleSetAdminForm
from games.forms.tables import LobbyFilterForm, TableCreateForm, VariantForm

__all__ = [
    "LobbyFilterForm",
    "ProfileForm",
    "RuleSetAdminForm",
    "SignupForm",
    "TableCreateForm",
    "VariantForm",
]
