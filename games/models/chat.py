"""Talk at a table or a tournament: messages, mutes, reports, silences, the
free-text switch (the rules are in games/services/chat.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Room(models.TextChoices):
    """Where a message was said. Players never read the spectators' room at a
    table; spectators read both."""

    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")
    TOURNAMENT = "tournament", _("Tournament")


class ChatMessage(models.Model):
    """One message: a quick phrase (``phrase``, drawn in each reader's language)
    or free text (``text``, shown as written, escaped). A deleted message stays
    for the moderators' record and is shown to nobody."""

    room = models.CharField(_("room"), max_length=12, choices=Room.choices)
    table = models.ForeignKey(
        "games.Table",
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_messages",
    )
    # The players' room belongs to the match record (shown on the match page).
    match = models.ForeignKey(
        "games.Match",
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_messages",
    )
    tournament = models.ForeignKey(
        "games.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_messages",
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        on_delete=models.CASCADE,
        related_name="chat_messages",
    )
    phrase = models.CharField(_("quick phrase"), max_length=32, blank=True)
    text = models.CharField(_("text"), max_length=400, blank=True)
    created_at = models.DateTimeField(_("sent"), default=timezone.now)
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("deleted by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [
            models.Index(fields=["table", "room", "created_at"]),
            models.Index(fields=["tournament", "created_at"]),
            models.Index(fields=["room", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(Q(phrase="") & ~Q(text="")) | (~Q(phrase="") & Q(text="")),
                name="chat_phrase_or_text",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author_id}: {self.phrase or self.text}"


class ChatMute(models.Model):
    """``muter`` does not see ``muted``'s messages, anywhere."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("muted by"),
        on_delete=models.CASCADE,
        related_name="chat_mutes",
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("muted person"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="chat_mute_once"),
        ]


class ChatReport(models.Model):
    """A reader's report of a message, with what was said around it (copied, so
    the report keeps its evidence after the room's messages expire)."""

    message = models.ForeignKey(
        ChatMessage,
        verbose_name=_("message"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="reports",
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported by"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported person"),
        on_delete=models.CASCADE,
        related_name="chat_reports",
    )
    reported_text = models.CharField(_("reported message"), max_length=400)
    # The room's messages before it and the message itself: [{author, said, at}].
    context = models.JSONField(_("context"), default=list)
    where = models.CharField(_("where"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("reported"), default=timezone.now)
    handled = models.BooleanField(_("handled"), default=False)

    class Meta:
        ordering = ["handled", "-created_at"]
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]


class ChatSilence(models.Model):
    """Staff silenced ``user`` until ``until``: they read, but cannot post."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("person"),
        on_delete=models.CASCADE,
        related_name="chat_silences",
    )
    until = models.DateTimeField(_("silenced until"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("silenced by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["-until"]
        verbose_name = _("chat silence")
        verbose_name_plural = _("chat silences")


class ChatPolicy(models.Model):
    """A table's or a tournament's chat settings, set by its organiser (the
    table's creator, the tournament's organiser) or staff. Without a row, free
    text is on; a tournament's table follows its tournament."""

    table = models.OneToOneField(
        "games.Table",
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_policy",
    )
    tournament = models.OneToOneField(
        "games.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_policy",
    )
    free_text = models.BooleanField(_("free text allowed"), default=True)

    class Meta:
        verbose_name = _("chat setting")
        verbose_name_plural = _("chat settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(table__isnull=True) ^ Q(tournament__isnull=True),
                name="chat_policy_one_owner",
            ),
        ]


class Phrase(models.TextChoices):
    """The quick phrases: what players may say during a deal. Nothing about cards
    or suits (telling a partner about a hand is cheating). Each is stored by its
    id and drawn in each reader's own language."""

    HELLO = "hello", _("Hello!")
    GOOD_LUCK = "good-luck", _("Good luck!")
    HAVE_FUN = "have-fun", _("Have fun!")
    WELL_PLAYED = "well-played", _("Well played!")
    NICE = "nice", _("Nice one!")
    THANKS = "thanks", _("Thanks!")
    SORRY = "sorry", _("Sorry!")
    OOPS = "oops", _("Oops!")
    ONE_MOMENT = "one-moment", _("One moment, please.")
    BACK = "back", _("I'm back.")
    GOOD_GAME = "good-game", _("Good game!")
    BYE = "bye", _("Bye!")
