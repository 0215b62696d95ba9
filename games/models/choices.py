"""Closed sets shared by several models."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.rules import BELOTE, OPEN_BLOT


class Variant(models.TextChoices):
    BELOTE = BELOTE, _("Belote")
    OPEN_BLOT = OPEN_BLOT, _("Open Blot")


class BotLevel(models.TextChoices):
    EASY = "easy", _("Easy")
    NORMAL = "normal", _("Normal")
    HARD = "hard", _("Hard")
