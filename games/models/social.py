"""Following players and challenging them to a match.

``games.services.social`` is the only code that changes these rows; what a
person is shown of them (the live notifications, the follow list) is drawn from
them as they are, so a page that reconnects shows the truth.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models.choices import Game


class Follow(models.Model):
    """``follower`` follows ``followed`` (one row per pair; nobody follows themself)."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="following",
        verbose_name=_("follower"),
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="followers",
        verbose_name=_("followed player"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} → {self.followed_id}"


class Challenge(models.Model):
    """A person's invitation to a match: variant, format, rated or casual, and for
    Belote optionally the challenger's partner, who must accept too. It is
    pending until every named person accepted (then ``table`` is the match's
    table), someone declined, the challenger cancelled, or ``expires_at`` passed."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        verbose_name=_("challenged player"),
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_partnered",
        verbose_name=_("challenger's partner"),
    )
    variant = models.CharField(_("game"), max_length=20, choices=Game.choices)
    format = models.CharField(_("format"), max_length=20)
    rated = models.BooleanField(_("rated"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    challenged_accepted = models.BooleanField(_("accepted by the challenged player"), default=False)
    partner_accepted = models.BooleanField(_("accepted by the partner"), default=False)
    #: Who declined (the challenged player or the partner), for the others to read.
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("declined by"),
    )
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    #: The challenger has read how it ended (declined or expired): no longer shown.
    challenger_dismissed = models.BooleanField(_("dismissed"), default=False)
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [
            models.Index(fields=["challenged", "status"]),
            models.Index(fields=["challenger", "status"]),
            models.Index(fields=["partner", "status"]),
        ]

    def __str__(self) -> str:
        return f"{self.challenger_id} → {self.challenged_id} ({self.status})"

    def people(self) -> list[int]:
        """The user ids of everyone it names."""
        ids = [self.challenger_id, self.challenged_id]
        if self.partner_id is not None:
            ids.append(self.partner_id)
        return ids
