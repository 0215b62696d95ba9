"""Play now: who waits in which pairing pool."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.choices import Game
from games.models.tables import Table


class PoolEntry(models.Model):
    """One person waiting in the pool of ``variant`` by ``format`` by ``rated``.
    A person waits in one pool at a time. ``partner``: the friend they queue
    with as a Belote party (the party waits until both have joined naming each
    other). The pairing pass (``games.services.pools``) sets ``table`` when it
    seats them; the entry then tells their pages where to go."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="pool_entry",
        verbose_name=_("player"),
    )
    variant = models.CharField(_("game"), max_length=20, choices=Game.choices)
    format = models.CharField(_("format"), max_length=20)
    rated = models.BooleanField(_("rated"), default=False)
    bots_ok = models.BooleanField(_("fill with bots after 30 s"), default=False)
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("partner"),
    )
    joined_at = models.DateTimeField(_("joined"))
    #: When one of their pages last showed them waiting (the lobby's status
    #: refreshes it): someone who closed every page stops being paired.
    seen_at = models.DateTimeField(_("last seen waiting"), null=True, blank=True)
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    paired_at = models.DateTimeField(_("paired"), null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "id"]
        verbose_name = _("pool entry")
        verbose_name_plural = _("pool entries")
        indexes = [models.Index(fields=["table", "variant", "format", "rated"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant} {self.format} {'rated' if self.rated else 'casual'}"


class PoolWait(models.Model):
    """How long one person waited in a pool before the pass seated them: the
    status tells people in that pool the usual wait (recent ones only)."""

    variant = models.CharField(_("game"), max_length=20, choices=Game.choices)
    format = models.CharField(_("format"), max_length=20)
    rated = models.BooleanField(_("rated"), default=False)
    waited_s = models.FloatField(_("seconds waited"))
    at = models.DateTimeField(_("paired"))

    class Meta:
        verbose_name = _("pool wait")
        verbose_name_plural = _("pool waits")
        indexes = [models.Index(fields=["variant", "format", "rated", "-at"])]

    def __str__(self) -> str:
        return f"{self.variant} {self.format} {self.waited_s:.0f} s"
