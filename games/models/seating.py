"""What happened to a match's seats after it started: leaving, returning, rematches."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.matches import Match


class MatchEvent(models.Model):
    """A person left their seat during the match (a stand-in bot took it) or came
    back to it. The match page lists these, so the record says who played when."""

    class Kind(models.TextChoices):
        LEFT = "left", _("Left the table")
        RETURNED = "returned", _("Returned to the table")
        RESIGNED = "resigned", _("Resigned the match")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="events", verbose_name=_("match")
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="match_events",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("what"), max_length=10, choices=Kind.choices)
    at = models.DateTimeField(_("when"), default=timezone.now)
    deal_number = models.PositiveIntegerField(_("deal"), null=True, blank=True)

    class Meta:
        ordering = ["match", "at", "id"]
        verbose_name = _("match event")
        verbose_name_plural = _("match events")

    def __str__(self) -> str:
        return f"{self.match_id}:{self.index} {self.kind}"


class Rematch(models.Model):
    """An offer to play a finished match again at the same table with the same
    seats and settings. ``accepted`` holds the seat indexes that said yes (bots
    and seats whose person left say yes at once); when every seat has, the new
    match starts and ``new_match`` points at it."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="rematch", verbose_name=_("match")
    )
    accepted = models.JSONField(_("accepted by seats"), default=list, blank=True)
    created_at = models.DateTimeField(_("offered"), auto_now_add=True)
    new_match = models.OneToOneField(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
        verbose_name=_("new match"),
    )

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")

    def __str__(self) -> str:
        return f"rematch of {self.match_id}"
