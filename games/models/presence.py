"""Who is connected to a live table (one row per WebSocket connection)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.tables import Table


class Presence(models.Model):
    """A viewer's connection: a seat's player (``seat_index``) or a spectator (None);
    without a table, a signed-in person's own socket on any page (who is online)."""

    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="presences",
        verbose_name=_("table"),
    )
    channel_name = models.CharField(_("channel"), max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        verbose_name=_("user"),
    )
    seat_index = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    connected_at = models.DateTimeField(_("connected"))
    last_seen = models.DateTimeField(_("last seen"))
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        verbose_name = _("connection")
        verbose_name_plural = _("connections")
        indexes = [models.Index(fields=["table", "seat_index", "closed_at"])]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.seat_index}:{self.channel_name}"
