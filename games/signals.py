"""Every user gets a player profile, however the user was created; each login
is noted for fair play."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Player
from games.models.players import default_display_name
from games.services import fairplay


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_player(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created and not kwargs.get("raw"):
        Player.objects.get_or_create(
            user=instance,
            defaults={"display_name": default_display_name(instance.get_username(), instance.pk)},
        )


@receiver(user_logged_in)
def note_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Keep digests of where people log in from: staff see opponents of a rated
    match who share an address or a browser (games.services.fairplay)."""
    fairplay.note_login(request, user)
