"""Tables and their seats."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from engine.rules import SEATS, RuleSet

if TYPE_CHECKING:
    from engine.match import MatchFormat

from games.models.choices import BotLevel, Variant, game_of


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


class Table(models.Model):
    """Where a match is played. ``rules_snapshot`` is the rule set's overrides copied
    at creation; ``version`` goes up on every change so live clients can tell
    whether what they show is current (the next issue relies on it)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    rule_set = models.ForeignKey(
        "games.RuleSetConfig",
        verbose_name=_("rule set"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tables",
    )
    rule_set_name = models.CharField(_("rule set name"), max_length=80, blank=True)
    rules_snapshot = models.JSONField(_("rules (snapshot)"), default=dict, blank=True)
    format = models.CharField(_("format"), max_length=20)
    is_private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(
        _("invite token"), max_length=40, unique=True, default=new_invite_token, editable=False
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="created_tables",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    turn_seconds = models.PositiveIntegerField(
        _("seconds per turn"),
        default=30,
        validators=[MinValueValidator(5), MaxValueValidator(600)],
    )
    disconnect_grace_seconds = models.PositiveIntegerField(
        _("disconnect grace (seconds)"),
        default=60,
        validators=[MinValueValidator(0), MaxValueValidator(3600)],
    )
    bot_delay_ms = models.PositiveIntegerField(
        _("bot delay (ms)"),
        default=700,
        validators=[MaxValueValidator(10_000)],
    )
    # How long a completed trick stays in the middle, winner marked, before it is
    # gathered and the next lead may be made by a bot (people may lead at once).
    trick_pause_ms = models.PositiveIntegerField(
        _("trick pause (ms)"),
        default=1000,
        validators=[MaxValueValidator(5000)],
    )
    # At a table of people, how long a finished deal's result stays on the felt
    # before the next deal (one pause for everyone). A person alone with bots
    # has it until they press "Next deal" (or their turn clock runs out).
    result_pause_seconds = models.PositiveIntegerField(
        _("pause after a deal (seconds)"),
        default=10,
        validators=[MinValueValidator(2), MaxValueValidator(60)],
    )
    # Rated: its matches change the players' ratings; people only.
    rated = models.BooleanField(_("rated"), default=False)
    spectator_count = models.PositiveIntegerField(_("spectators"), default=0)
    # Live play: when the seat to act got its turn (the turn clock and bot pauses
    # count from here) and when the server should next look at the table.
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    wakeup_at = models.DateTimeField(_("next wake-up"), null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=["status", "is_private", "variant"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_variant_display()} {self.match_format.label}"

    def get_absolute_url(self) -> str:
        """The table's address: the invite link for a private table."""
        if self.is_private:
            return self.invite_url()
        return reverse("table", args=[self.pk])

    def invite_url(self) -> str:
        return reverse("table_invite", args=[self.invite_token])

    @property
    def seat_count(self) -> int:
        return SEATS[self.variant]

    @property
    def match_format(self) -> MatchFormat:
        from engine.match import MatchFormat

        return MatchFormat.parse(self.format)

    def rules(self) -> RuleSet:
        return RuleSet.build(self.variant, self.rules_snapshot)

    @property
    def game(self) -> str:
        """The game played here: its variant, or Coinche."""
        return game_of(self.variant, self.rules_snapshot)

    def current_match(self):  # -> Match | None
        return self.matches.order_by("-id").first()


class Seat(models.Model):
    """Seat ``index`` of a table: open (neither set), a user, or a bot."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_level = models.CharField(
        _("bot level"), max_length=10, choices=BotLevel.choices, null=True, blank=True
    )
    # Set while the seat's person has left a running match: a stand-in bot plays
    # the seat, which stays theirs so they can come back (games.services.seating).
    left_at = models.DateTimeField(_("left"), null=True, blank=True)
    # When they last came back: an old closed connection must not count as being
    # away since before they returned (the conductor's disconnect grace).
    returned_at = models.DateTimeField(_("returned"), null=True, blank=True)
    # Set when a stand-in first played for the seat's person because their clock
    # ran out or they were away: the stand-in goes on playing at bot time until
    # they take the seat back (or play a card themselves). Not a leaving.
    stand_in_since = models.DateTimeField(_("stand-in since"), null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="seat_one_per_user",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot_level__isnull=True),
                name="seat_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.index}"

    @property
    def is_open(self) -> bool:
        return self.user_id is None and self.bot_level is None

    @property
    def side(self) -> int:
        return self.index % 2
