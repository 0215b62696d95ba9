"""Tournaments, their entrants, rounds and pairings.

The tournament's logic (pairings, brackets, standings) lives in
``engine.tournament``; these rows store what it decided and what was played, and
``games.services.tournaments`` is the only code that changes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from engine.rules import RuleSet
from engine.tournament import KNOCKOUT, ROUND_ROBIN, SWISS
from games.models.choices import BotLevel, Variant, bot_name

if TYPE_CHECKING:
    from engine.match import MatchFormat

#: Field sizes the create form and the services both respect.
MIN_ENTRANTS, MAX_ENTRANTS = 2, 128
MAX_SWISS_ROUNDS = 12


class Kind(models.TextChoices):
    KNOCKOUT = KNOCKOUT, _("Knockout")
    SWISS = SWISS, _("Swiss")
    ROUND_ROBIN = ROUND_ROBIN, _("Round robin")


class Tournament(models.Model):
    """A tournament (the placeholder's model and table, so ``Match.tournament``
    stays valid). Variant, rule set overrides (snapshotted at creation, like a
    table's), match format and table timings are copied to every table it opens.
    ``version`` goes up on every change, so pages can tell whether what they show
    is current; ``wakeup_at`` asks the conductor to look at it (a match of it
    finished, or its start time is near)."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=120)
    variant = models.CharField(
        _("variant"), max_length=20, choices=Variant.choices, default=Variant.OPEN_BLOT
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.KNOCKOUT)
    rule_set = models.ForeignKey(
        "games.RuleSetConfig",
        verbose_name=_("rule set"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
    )
    rule_set_name = models.CharField(_("rule set name"), max_length=80, blank=True)
    rules_snapshot = models.JSONField(_("rules (snapshot)"), default=dict, blank=True)
    format = models.CharField(_("match format"), max_length=20, default="best_of:1")
    # The organiser's choice: its matches between people change ratings.
    rated = models.BooleanField(_("rated"), default=False)
    max_entrants = models.PositiveSmallIntegerField(
        _("maximum entrants"),
        default=8,
        validators=[MinValueValidator(MIN_ENTRANTS), MaxValueValidator(MAX_ENTRANTS)],
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_SWISS_ROUNDS)],
        help_text=_("Swiss only; empty: derived from the number of entrants."),
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    fill_with_bots = models.CharField(
        _("fill empty places with bots"),
        max_length=10,
        choices=BotLevel.choices,
        blank=True,
        default="",
    )
    featured = models.BooleanField(_("featured"), default=False)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    starts_at = models.DateTimeField(_("start time"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organiser"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="organised_tournaments",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    turn_seconds = models.PositiveIntegerField(
        _("seconds per turn"), default=30, validators=[MinValueValidator(5), MaxValueValidator(600)]
    )
    disconnect_grace_seconds = models.PositiveIntegerField(
        _("disconnect grace (seconds)"),
        default=60,
        validators=[MinValueValidator(0), MaxValueValidator(3600)],
    )
    bot_delay_ms = models.PositiveIntegerField(
        _("bot delay (ms)"), default=700, validators=[MaxValueValidator(10_000)]
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    wakeup_at = models.DateTimeField(_("next wake-up"), null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-featured", "-created_at", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def match_format(self) -> MatchFormat:
        from engine.match import MatchFormat

        return MatchFormat.parse(self.format)

    def rules(self) -> RuleSet:
        return RuleSet.build(self.variant, self.rules_snapshot)

    @property
    def team_play(self) -> bool:
        """Belote entrants are teams of two."""
        return self.variant == Variant.BELOTE


class Entrant(models.Model):
    """One entrant: a player (Open Blot) or a team of two (Belote), or a bot.

    A Belote player may name a ``partner``, who accepts the invite; players left
    without an accepted partner when registration closes are paired with each
    other (the last one, if any, with a bot of ``bot_level``)."""

    class PartnerStatus(models.TextChoices):
        NONE = "none", _("Looking for a partner")
        INVITED = "invited", _("Invited")
        ACCEPTED = "accepted", _("Accepted")
        BOT = "bot", _("Bot partner")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="entrants",
        verbose_name=_("tournament"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_entries",
        verbose_name=_("user"),
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_partnerships",
        verbose_name=_("partner"),
    )
    partner_status = models.CharField(
        _("partner"),
        max_length=10,
        choices=PartnerStatus.choices,
        default=PartnerStatus.NONE,
    )
    #: A bot entrant (no user) or, with ``partner_status`` BOT, the partner's level.
    bot_level = models.CharField(
        _("bot level"), max_length=10, choices=BotLevel.choices, null=True, blank=True
    )
    name = models.CharField(_("name"), max_length=100)
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    removed = models.BooleanField(_("removed"), default=False)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "created_at", "id"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(user__isnull=False),
                name="entrant_one_per_user",
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entrant_unique_seed",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def shown_name(self) -> str:
        """The name to show: a bot entrant's in the reader's language (the stored one
        is in the language of whoever started the tournament; bots are numbered by
        their seed, which is the number they were created with), anyone else's as stored."""
        if self.is_bot and self.bot_level and self.seed:
            return bot_name(self.seed - 1, self.bot_level)
        return self.name

    def players(self) -> list[int]:
        """User ids of the people playing for this entrant (an invited partner
        plays only once they accepted)."""
        ids = [self.user_id] if self.user_id else []
        if self.partner_id and self.partner_status == self.PartnerStatus.ACCEPTED:
            ids.append(self.partner_id)
        return ids


class TournamentRound(models.Model):
    """A round that has begun. Its row is created in the same transaction as its
    pairings, and (tournament, number) is unique: a round can't begin twice."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="round_set",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(_("round"))
    started_at = models.DateTimeField(_("started"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("tournament round")
        verbose_name_plural = _("tournament rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.number}"


class Pairing(models.Model):
    """Entrant ``a`` against entrant ``b`` (None: a bye) in a round; in a knockout
    ``index`` is the match's place in the bracket (the third-place match is index
    2 of the final round). ``forfeit``: decided without being played (an entrant
    was removed)."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="pairings",
        verbose_name=_("tournament"),
    )
    round = models.PositiveSmallIntegerField(_("round"))
    index = models.PositiveSmallIntegerField(_("match"))
    entrant_a = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="+", verbose_name=_("first entrant")
    )
    entrant_b = models.ForeignKey(
        Entrant,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("second entrant"),
    )
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    winner = models.ForeignKey(
        Entrant,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    points_a = models.IntegerField(_("points (a)"), default=0)
    points_b = models.IntegerField(_("points (b)"), default=0)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    third_place = models.BooleanField(_("third-place match"), default=False)

    class Meta:
        ordering = ["tournament", "round", "index"]
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "index"], name="pairing_unique_place"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.round}.{self.index}"

    @property
    def is_bye(self) -> bool:
        return self.entrant_b_id is None

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED
