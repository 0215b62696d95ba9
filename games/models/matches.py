"""Matches, the people in them, their deals and the score table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from engine.deal import Deal as EngineDeal
from engine.record import DealRecord, rebuild
from engine.rules import RuleSet

if TYPE_CHECKING:
    from engine.match import MatchFormat

from games.models.choices import BotLevel, Variant, bot_name, game_of, partner_bot_name
from games.models.tables import Table
from games.models.tournaments import Tournament


class Match(models.Model):
    """One match at a table. Variant and rules are copied from the table so the
    match (and every deal record in it) stands on its own."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="matches", verbose_name=_("table")
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="matches",
        verbose_name=_("tournament"),
    )
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    format = models.CharField(_("format"), max_length=20)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    # Copied from the table (or set by a rated tournament): whether the result
    # changes the players' ratings.
    rated = models.BooleanField(_("rated"), default=False)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"))
    winner = models.PositiveSmallIntegerField(_("winning side"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_variant_display()} {self.match_format.label}"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def match_format(self) -> MatchFormat:
        from engine.match import MatchFormat

        return MatchFormat.parse(self.format)

    def rule_set(self) -> RuleSet:
        return RuleSet.build(self.variant, self.rules)

    @property
    def game(self) -> str:
        """The game this match rates and ranks in: its variant, or Coinche."""
        return game_of(self.variant, self.rules)


class Participant(models.Model):
    """Who sat in seat ``index`` when the match started (history stays true even
    if the table's seats change later)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="participants", verbose_name=_("match")
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="participations",
        verbose_name=_("user"),
    )
    bot_level = models.CharField(
        _("bot level"), max_length=10, choices=BotLevel.choices, null=True, blank=True
    )
    name = models.CharField(_("name"), max_length=40)
    #: The seat was a bot account's when the match started (its name is badged).
    bot_account = models.BooleanField(_("bot account"), default=False)
    # The number a bot is called by when it is not its seat's: a tournament's bot
    # entrant keeps its entrant number on every table (0: a tournament partner bot).
    bot_number = models.PositiveSmallIntegerField(_("bot number"), null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="participant_unique_index")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def side(self) -> int:
        return self.index % 2

    @property
    def shown_name(self) -> str:
        """The name to show: a person's as stored, a bot's in the reader's language
        (the stored one is in the language of whoever started the match). A
        tournament's bot entrant is called by its entrant number everywhere."""
        if not self.bot_level:
            return self.name
        if self.bot_number == 0:
            return partner_bot_name(self.bot_level)
        if self.bot_number is not None:
            return bot_name(self.bot_number - 1, self.bot_level)
        return bot_name(self.index, self.bot_level)


class Deal(models.Model):
    """One deal. ``actions`` (canonical actions, docs/deal-record.md) is the source of
    truth: the engine state is rebuilt from deck + actions whenever needed.
    ``commitment`` (sha-256 of salt + deck) is published from the start; the deck
    and salt are shown only once the deal is over, so anyone can verify them."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        # The match ended (resigned, or nobody left to see it) while this deal
        # was being played: it has no result and its deck stays secret.
        ABANDONED = "abandoned", _("Abandoned")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="deals", verbose_name=_("match")
    )
    number = models.PositiveIntegerField(_("number"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    deck = models.JSONField(_("deck"))
    shuffle_salt = models.CharField(_("shuffle salt"), max_length=128)
    commitment = models.CharField(_("commitment"), max_length=128)
    actions = models.JSONField(_("actions"), default=list, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("deal", args=[self.match_id, self.number])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    def record_dict(self) -> dict[str, Any]:
        """The deal record (the input of docs/deal-record.md) as stored."""
        return {
            "variant": self.match.variant,
            "dealer": self.dealer,
            "rules": dict(self.match.rules),
            "deck": list(self.deck),
            "actions": list(self.actions),
        }

    def export_dict(self) -> dict[str, Any]:
        """The record as given to players ("copy the deal record"): with the shuffle
        salt and commitment, so ``python -m engine verify`` can check the deck.
        Only for finished deals: the salt and deck are secret until then."""
        return {**self.record_dict(), "salt": self.shuffle_salt, "commitment": self.commitment}

    def record(self) -> DealRecord:
        return DealRecord.from_dict(self.record_dict())

    def rebuild(self) -> EngineDeal:
        """The engine deal replayed from the stored actions (raises on a bad log)."""
        return rebuild(self.record())


class ScoreRow(models.Model):
    """One row of a match's score table (docs/rules.md §4), written when a deal ends.
    It can always be recomputed by folding the deals through ``engine.match``."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="score_rows", verbose_name=_("match")
    )
    deal = models.OneToOneField(
        Deal,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="score_row",
        verbose_name=_("deal"),
    )
    number = models.PositiveIntegerField(_("deal"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    trump = models.CharField(_("trump"), max_length=2, null=True, blank=True)
    taker = models.PositiveSmallIntegerField(_("taker"), null=True, blank=True)
    deal_points = models.JSONField(_("points"))
    totals = models.JSONField(_("totals"))
    markers = models.JSONField(_("markers"), default=list, blank=True)
    held_points = models.PositiveIntegerField(_("held points"), default=0)
    awarded = models.JSONField(
        _("held points awarded"), null=True, blank=True, help_text=_("[side, points]")
    )
    wins = models.JSONField(_("deals won"), default=list, blank=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("score row")
        verbose_name_plural = _("score rows")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="scorerow_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.number}"
