"""Ratings: one per player per variant, and each rated match's change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.ratings import MU0, SIGMA0, is_provisional, label, shown
from games.models.choices import Game
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
    variant = models.CharField(_("game"), max_length=20, choices=Game.choices)
    mu = models.FloatField(_("skill estimate"), default=MU0)
    sigma = models.FloatField(_("uncertainty"), default=SIGMA0)
    #: ``engine.ratings.shown(mu)``, stored so the leaderboard sorts in SQL.
    shown = models.IntegerField(_("rating"), default=shown(MU0))
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

    @property
    def label(self) -> str:
        """As every page writes it: ``1500?`` while provisional."""
        return label(self.shown, self.provisional)


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
    variant = models.CharField(_("game"), max_length=20, choices=Game.choices)
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

    @property
    def label_after(self) -> str:
        """The rating after the match as every page writes it (``1512?``)."""
        return label(self.shown_after, self.provisional)


class UnratedMatch(models.Model):
    """A rated match whose result moved no rating, and why (docs/DECISIONS.md
    P-20, P-21). One per match at most; a match with one is never rated later."""

    class Reason(models.TextChoices):
        #: Both sides had left it to stand-ins: people did not decide it.
        STAND_INS = "stand-ins", _("both sides left it to stand-ins")
        #: It ended (resigned, abandoned) before enough cards were played.
        EARLY = "early", _("it ended before enough cards were played")
        #: The same people had already met in enough rated matches that day.
        REPEATED = "repeated", _("these opponents had met in enough rated matches that day")

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="unrated", verbose_name=_("match")
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    at = models.DateTimeField(_("when"))

    class Meta:
        verbose_name = _("unrated match")
        verbose_name_plural = _("unrated matches")

    def __str__(self) -> str:
        return f"{self.match_id} {self.reason}"


class AccessMark(models.Model):
    """A keyed digest of an address a person logged in from, or of the browser
    they used (a long-lived cookie): enough to see that two accounts share one,
    never the address itself (``games.services.fairplay``)."""

    class Kind(models.TextChoices):
        ADDRESS = "address", _("address")
        DEVICE = "device", _("browser")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="access_marks",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    digest = models.CharField(_("digest"), max_length=64)
    first_seen = models.DateTimeField(_("first seen"))
    last_seen = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("access mark")
        verbose_name_plural = _("access marks")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "digest"], name="access_mark_once")
        ]
        indexes = [models.Index(fields=["kind", "digest"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.digest[:8]}"


class FairPlaySignal(models.Model):
    """Something about a rated match for staff to look at (the admin lists
    them): opponents who share an address or a browser, a rated match ended
    before enough cards, opponents past the day's number of rated meetings."""

    class Kind(models.TextChoices):
        SHARED_ADDRESS = "shared-address", _("opponents logged in from one address")
        SHARED_DEVICE = "shared-device", _("opponents used one browser")
        EARLY = "early", _("rated match ended before enough cards were played")
        REPEATED = "repeated", _("opponents past the day's rated meetings")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        related_name="fair_play_signals",
        verbose_name=_("match"),
    )
    people = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="+", verbose_name=_("people")
    )
    at = models.DateTimeField(_("when"))
    reviewed = models.BooleanField(_("reviewed"), default=False)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("fair-play signal")
        verbose_name_plural = _("fair-play signals")
        constraints = [
            models.UniqueConstraint(fields=["match", "kind"], name="fair_play_signal_once")
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.kind}"
