from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Imported for what importing connects: the profile signal, and the live
        # layer's listener for the services' "this table changed".
        import games.live.deliver.chat  # noqa: F401 - the chat's listener
        from games import (
            checks,  # noqa: F401 - registers the database checks
            signals,  # noqa: F401
        )
        from games.live.deliver import (
            notify,  # noqa: F401
            person,  # noqa: F401
        )
