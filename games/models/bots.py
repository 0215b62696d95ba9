"""Bot accounts: programs that play through the Bot API (docs/bot-api.md).

A person turns their account into a bot account once, for good
(``games.services.bots``): ``Player.is_bot`` is then the mark every page reads
to badge the name, and a :class:`BotAccount` row keeps when it happened and the
bot's own settings. A bot authenticates with an :class:`ApiToken`, of which only
a hash is stored. Bots have their own ladder (:class:`BotRating`, changed by
``games.services.botladder``), apart from people's ratings.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.ratings import MU0, SIGMA0, Skill, is_provisional
from games.models.choices import Variant
from games.models.matches import Match


def new_shown() -> int:
    """A new bot's shown rating (the engine's, for a new skill estimate)."""
    return Skill().shown


class BotAccount(models.Model):
    """The record that an account is a bot's (made once, never undone)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bot_account",
        verbose_name=_("user"),
    )
    made_at = models.DateTimeField(_("became a bot"), auto_now_add=True)
    #: The variants in which the site's worker may pair this bot with other
    #: willing bots for rated ladder matches (``BLOT_BOT_LADDER_EVERY_S``).
    ladder_variants = models.JSONField(_("ladder variants"), default=list, blank=True)

    class Meta:
        verbose_name = _("bot account")
        verbose_name_plural = _("bot accounts")

    def __str__(self) -> str:
        return str(self.user_id)


class ApiToken(models.Model):
    """A bot's key to the API. The token itself is shown once, when it is made;
    the site keeps only its SHA-256 digest (tokens are long random strings, so a
    fast digest is as safe as a slow one and costs nothing per call)."""

    class Scope(models.TextChoices):
        PLAY = "play", _("Play: streams and moves")
        CHALLENGE = "challenge", _("Challenges and test tables")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=40)
    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    #: The first characters of the token, so its owner can tell tokens apart.
    prefix = models.CharField(_("beginning"), max_length=12, editable=False)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class BotRating(models.Model):
    """A bot account's skill estimate in one variant, on the people's scale
    (``engine.ratings``) but its own line: only ladder matches change it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bot_ratings",
        verbose_name=_("bot"),
    )
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    mu = models.FloatField(_("skill estimate"), default=MU0)
    sigma = models.FloatField(_("uncertainty"), default=SIGMA0)
    shown = models.IntegerField(_("rating"), default=new_shown)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_played = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        verbose_name = _("bot rating")
        verbose_name_plural = _("bot ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="bot_rating_one_per_variant")
        ]
        indexes = [models.Index(fields=["variant", "-shown"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant} {self.shown}"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.matches)


class BotRatingChange(models.Model):
    """What one rated match did to one bot's ladder rating (once per bot per match)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="bot_rating_changes", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bot_rating_changes",
        verbose_name=_("bot"),
    )
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    index = models.PositiveSmallIntegerField(_("seat"))
    shown_before = models.IntegerField(_("rating before"))
    shown_after = models.IntegerField(_("rating after"))
    matches_after = models.PositiveIntegerField(_("rated matches after"))
    won = models.BooleanField(_("won"))
    at = models.DateTimeField(_("when"))

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("bot rating change")
        verbose_name_plural = _("bot rating changes")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="bot_rating_change_once")
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.user_id} {self.shown_after - self.shown_before:+d}"
