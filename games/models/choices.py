"""Closed sets shared by several models."""

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.rules import BELOTE, OPEN_BLOT


class Variant(models.TextChoices):
    BELOTE = BELOTE, _("Belote")
    OPEN_BLOT = OPEN_BLOT, _("Open Blot")


class BotLevel(models.TextChoices):
    EASY = "easy", _("Easy")
    NORMAL = "normal", _("Normal")
    HARD = "hard", _("Hard")


def bot_name(index: int, level: str) -> str:
    """A bot's name at a table, in the reader's language (numbered by seat, so
    three bots at one table can be told apart)."""
    return gettext("Bot %(n)s (%(level)s)") % {"n": index + 1, "level": BotLevel(level).label}


def partner_bot_name(level: str) -> str:
    """A bot a tournament seats beside an entrant who has no partner: not an
    entrant, so not numbered like one."""
    return gettext("Partner bot (%(level)s)") % {"level": BotLevel(level).label}
