"""The analysis of a finished deal: asked for by a person, computed by
the analyst process (games.live.conduct.analyst), stored once done — a finished
deal never changes, so neither does its analysis."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.matches import Deal


class DealAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    deal = models.OneToOneField(
        Deal, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("deal")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    #: Decisions analysed so far and in all (progress shown while it runs).
    done_steps = models.PositiveIntegerField(_("steps analysed"), default=0)
    total_steps = models.PositiveIntegerField(_("steps to analyse"), default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="deal_analyses",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested"), default=timezone.now)
    #: Queued by a request for a whole match, which counts as one request against
    #: the person's limit (P-19).
    whole_match = models.BooleanField(_("asked with its whole match"), default=False)
    #: Its place in its request (0 for a single deal, 0, 1, 2… for a match's
    #: deals): the queue serves every request's first deal before any request's
    #: second, so one person's long match never makes everyone else wait (P-19).
    place = models.PositiveIntegerField(_("place in its request"), default=0)
    #: While running: written every few seconds by the analyst that holds it (a
    #: thread of its own, games.services.analysis.Heartbeat). Older than
    #: STALE_AFTER means that analyst died, and the next claim queues it again.
    beat_at = models.DateTimeField(_("last heartbeat"), null=True, blank=True)
    #: How many times it was claimed: the holder writes only while the number is
    #: still its own, so an analyst whose analysis was taken again writes nothing.
    claim = models.PositiveIntegerField(_("claims"), default=0)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)

    #: A key of ``result`` while the analysis is done but for its par table,
    #: which its analyst is computing (P-47).
    PAR_PENDING = "par_pending"

    class Meta:
        ordering = ["place", "requested_at", "id"]
        # /health/ready/ asks for the oldest queued analysis on every probe: one
        # lookup in this index (only queued rows are in it), however long the
        # table of analyses grows.
        indexes = [
            models.Index(
                fields=["requested_at"],
                condition=models.Q(status="queued"),
                name="analysis_queued_oldest",
            )
        ]
        verbose_name = _("deal analysis")
        verbose_name_plural = _("deal analyses")

    def __str__(self) -> str:
        return f"{self.deal} {self.status}"

    @property
    def par_pending(self) -> bool:
        """Done and shown, its par table still being computed."""
        return self.status == self.Status.DONE and bool(
            (self.result or {}).get(self.PAR_PENDING)
        )

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return 100 * self.done_steps // self.total_steps if self.total_steps else 0
