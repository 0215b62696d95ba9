"""Player profiles beside Django's users."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import names


@dataclass(frozen=True)
class PlayerStats:
    matches_played: int
    matches_won: int
    deals_played: int
    matches_lost: int = 0


class Player(models.Model):
    """Display name, preferred language; statistics are computed from the matches
    the player sat in (``Participant`` rows), so they can never drift."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="player",
        verbose_name=_("user"),
    )
    display_name = models.CharField(_("display name"), max_length=40)
    #: ``names.key(display_name)``: unique, so no two players look alike (NFKC,
    #: case-folded). Players who shared a name before names were checked keep it,
    #: their key suffixed with "#<id>" until they choose another (migration 0007).
    name_key = models.CharField(_("name key"), max_length=200, unique=True, editable=False)
    language = models.CharField(
        _("preferred language"),
        max_length=10,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
    )
    created_at = models.DateTimeField(_("joined"), auto_now_add=True)
    #: A bot account (``games.models.bots``): its name carries a bot badge
    #: wherever it is shown. Set once, by ``games.services.bots``, never undone.
    is_bot = models.BooleanField(_("bot account"), default=False, editable=False)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name

    def clean(self) -> None:
        try:
            self.display_name = check_display_name(self.display_name, exclude_user_id=self.user_id)
        except ValidationError as exc:
            raise ValidationError({"display_name": exc.messages}) from None

    def save(self, *args: Any, **kwargs: Any) -> None:
        wanted = names.key(self.display_name) or f"#{secrets.token_hex(8)}"
        if self.name_key.split("#", 1)[0] != wanted:
            self.name_key = wanted
        fields = kwargs.get("update_fields")
        if fields is not None and "display_name" in fields:
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    def stats(self) -> PlayerStats:
        from games.models.matches import Deal, Match, Participant

        seats = Participant.objects.filter(user_id=self.user_id)
        played = seats.count()
        finished = [
            (index, winner)
            for index, winner in seats.filter(match__status=Match.Status.FINISHED).values_list(
                "index", "match__winner"
            )
            if winner is not None
        ]
        won = sum(1 for index, winner in finished if index % 2 == winner)
        deals = Deal.objects.filter(
            match__participants__user_id=self.user_id, status=Deal.Status.FINISHED
        ).count()
        return PlayerStats(
            matches_played=played,
            matches_won=won,
            deals_played=deals,
            matches_lost=len(finished) - won,
        )


def _taken(name: str, exclude_user_id: int | None) -> bool:
    key = names.key(name)
    others = Player.objects.filter(
        models.Q(name_key=key) | models.Q(name_key__startswith=f"{key}#")
    )
    if exclude_user_id is not None:
        others = others.exclude(user_id=exclude_user_id)
    return others.exists()


def check_display_name(raw: str, *, exclude_user_id: int | None = None) -> str:
    """The cleaned name ``raw`` may be stored as, or ``ValidationError`` saying why
    not: nothing visible, a bot-like name, or another player's name."""
    name = names.clean(raw)
    if not name:
        raise ValidationError(
            _("A display name needs at least one visible character."), code="empty"
        )
    if names.is_reserved(name):
        raise ValidationError(
            _("Names that look like a bot's are reserved. Please choose another name."),
            code="reserved",
        )
    if _taken(name, exclude_user_id):
        raise ValidationError(
            _("Another player already uses this name. Please choose another name."),
            code="taken",
        )
    return name


def default_display_name(username: str, user_id: int) -> str:
    """A new user's first display name: the username when it is acceptable, else
    "player-<id>" (e.g. a user made with createsuperuser named like a bot)."""
    try:
        return check_display_name(username[:40], exclude_user_id=user_id)
    except ValidationError:
        pass
    name, n = f"player-{user_id}", 1
    while _taken(name, user_id):
        n += 1
        name = f"player-{user_id}-{n}"
    return name
