"""Every user gets a player profile, however the user was created."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Player
from games.models.players import default_display_name


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_player(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created and not kwargs.get("raw"):
        Player.objects.get_or_create(
            user=instance,
            defaults={"display_name": default_display_name(instance.get_username(), instance.pk)},
        )
