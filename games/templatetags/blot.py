"""Template tags and filters for the site's pages: formats, trumps, markers and
cards as players name and see them. The words themselves live in games/labels.py
(the live table draws them from there too)."""

from __future__ import annotations

from django import template
from django.urls import reverse

from games import labels
from games.labels import SUIT_COLORS, SUIT_SYMBOLS

register = template.Library()

register.simple_tag(labels.table_tip, name="table_tip")
register.simple_tag(labels.bot_badge, name="bot_mark")
for _filter in (
    labels.kind_label,
    labels.format_label,
    labels.trump_label,
    labels.suit_color,
    labels.marker_label,
    labels.rule_set_label,
    labels.result_contract_label,
    labels.result_announcements_label,
):
    register.filter(_filter.__name__, _filter)


@register.filter
def bot_badge(who: object) -> str:
    """``{{ user|bot_badge }}``: the bot mark after a bot account's name (a user,
    player, participant or seat); nothing for anyone else."""
    return labels.bot_badge() if labels.is_bot_account(who) else ""


@register.simple_tag
def rules_url(variant: str) -> str:
    """The How to play page of a variant (engine id: belote, open_blot)."""
    return reverse("how_to_play", args=[labels.slug_of(variant)])


@register.inclusion_tag("games/_card.html")
def card(code: str) -> dict[str, str]:
    """A card drawn with CSS: rank and suit symbol, red or black."""
    rank = "10" if code[0] == "T" else code[0]
    return {
        "code": code,
        "rank": rank,
        "symbol": SUIT_SYMBOLS.get(code[1], "?"),
        "color": SUIT_COLORS.get(code[1], "black"),
    }
