"""Ratings: one per player per variant, and each rated match's change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.ratings import MU0, SIGMA0, is_provisional, shown
from games.models.choices import Variant
from games.models.matches import Match


class Rating(models.Model):
    """A player's skill estimate in one variant (``engine.ratings``). Only rated
    matches change it (``games.services.ratings``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("player"),
    )
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    mu = models.FloatField(_("skill estimate"), default=MU0)
    sigma = models.FloatField(_("uncertainty"), default=SIGMA0)
    #: ``engine.ratings.shown(mu, sigma)``, stored so the leaderboard sorts in SQL.
    shown = models.IntegerField(_("rating"), default=shown(MU0, SIGMA0))
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_played = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="rating_one_per_variant")
        ]
        indexes = [models.Index(fields=["variant", "-shown"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant} {self.shown}"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.matches)


class RatingChange(models.Model):
    """What one rated match did to one person's rating (the table's and the
    match page's "+12", the player page's graph). One per person per match: a
    match is rated once however often its rating is asked for."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    index = models.PositiveSmallIntegerField(_("seat"))
    shown_before = models.IntegerField(_("rating before"))
    shown_after = models.IntegerField(_("rating after"))
    mu_after = models.FloatField(_("skill estimate after"))
    sigma_after = models.FloatField(_("uncertainty after"))
    matches_after = models.PositiveIntegerField(_("rated matches after"))
    #: Whether this person's side was counted the winner (a forfeit can differ
    #: from the score), and why it was a forfeit if it was one.
    won = models.BooleanField(_("won"))
    forfeit = models.CharField(_("forfeit"), max_length=10, blank=True)
    at = models.DateTimeField(_("when"))

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="rating_change_once")
        ]
        indexes = [models.Index(fields=["user", "variant", "at"])]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.user_id} {self.delta:+d}"

    @property
    def delta(self) -> int:
        return self.shown_after - self.shown_before

    @property
    def provisional(self) -> bool:
        return is_provisional(self.matches_after)
