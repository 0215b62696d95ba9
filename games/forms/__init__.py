"""Forms of the games app."""

from games.forms.accounts import ProfileForm, SignupForm
from games.forms.rulesets import RuleSetAdminForm
from games.forms.tables import LobbyFilterForm, TableCreateForm, VariantForm
from games.forms.tournaments import RegisterForm, TournamentCreateForm, TournamentFilterForm

__all__ = [
    "LobbyFilterForm",
    "ProfileForm",
    "RegisterForm",
    "RuleSetAdminForm",
    "SignupForm",
    "TableCreateForm",
    "TournamentCreateForm",
    "TournamentFilterForm",
    "VariantForm",
]
