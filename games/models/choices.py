"""Closed sets shared by several models."""

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.rules import BELOTE, OPEN_BLOT


class Variant(models.TextChoices):
    BELOTE = BELOTE, _("Belote")
    OPEN_BLOT = OPEN_BLOT, _("Open Blot")


#: Coinche is Belote played with the coinche auction (docs/rules.md §7.2): the
#: same engine variant, but its own Play-now pools, ratings and leaderboard,
#: since a rating earned in one does not say how someone plays the other.
COINCHE = "coinche"
#: The built-in rule set a coinche game is played with
#: (games/migrations/0001_initial.py).
COINCHE_RULE_SET = "Coinche"


class Game(models.TextChoices):
    """What a rating, a leaderboard and a Play-now pool are for: a variant, or
    Coinche (Belote with the coinche rule set)."""

    BELOTE = BELOTE, _("Belote")
    COINCHE = COINCHE, _("Coinche")
    OPEN_BLOT = OPEN_BLOT, _("Open Blot")


def variant_of_game(game: str) -> str:
    """The engine variant a game is played in."""
    return BELOTE if game == COINCHE else game


def game_of(variant: str, rules: dict | None) -> str:
    """The game a table or match of ``variant`` with these rule overrides is."""
    if variant == BELOTE and (rules or {}).get("coinche"):
        return COINCHE
    return variant


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
