"""Player profiles beside Django's users."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class PlayerStats:
    matches_played: int
    matches_won: int
    deals_played: int


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
    language = models.CharField(
        _("preferred language"),
        max_length=10,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
    )
    created_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name

    def stats(self) -> PlayerStats:
        from games.models.matches import Deal, Match, Participant

        seats = Participant.objects.filter(user_id=self.user_id)
        played = seats.count()
        won = sum(
            1
            for index, winner in seats.filter(match__status=Match.Status.FINISHED).values_list(
                "index", "match__winner"
            )
            if winner is not None and index % 2 == winner
        )
        deals = Deal.objects.filter(
            match__participants__user_id=self.user_id, status=Deal.Status.FINISHED
        ).count()
        return PlayerStats(matches_played=played, matches_won=won, deals_played=deals)
