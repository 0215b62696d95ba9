"""Display helpers for formats, trumps, markers and card codes.

Every word here goes through gettext: the names players use for the
combinations and markers differ per language (README "Languages")."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.errors import EngineError
from engine.match import MatchFormat
from games.forms.tables import format_label as _format_label

register = template.Library()

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_COLORS = {"C": "black", "D": "red", "H": "red", "S": "black"}
MARKERS = {
    "void": gettext_lazy("void"),
    "inside": gettext_lazy("inside"),
    "capot": gettext_lazy("capot"),
    "kapout": gettext_lazy("kapout"),
    "litige": gettext_lazy("litige"),
    "belote": gettext_lazy("belote"),
    "blot": gettext_lazy("blot"),
}


KINDS = {
    "terz": gettext_lazy("Terz"),
    "fifty": gettext_lazy("Fifty"),
    "hundred": gettext_lazy("Hundred"),
    "four": gettext_lazy("Four of a kind"),
}


#: Short help at the table, for tooltips (title attributes): {% table_tip "announce" %}.
TABLE_TIPS = {
    "announce": gettext_lazy(
        "Announce your combinations now: only in the first trick, before you play your "
        "card. One that is not announced does not count."
    ),
    "stacks": gettext_lazy(
        "Each stack is a face-down card under a face-up one. When the face-up card is "
        "played, the card under it is turned up."
    ),
    "proposed": gettext_lazy(
        "The proposed card: whoever takes it gets it, and its suit becomes trump."
    ),
}


@register.simple_tag
def table_tip(name: str) -> str:
    """A table tooltip in the reader's language (an unknown name is a bug: KeyError)."""
    return str(TABLE_TIPS[name])


@register.filter
def kind_label(value: str) -> str:
    """An Open Blot combination's name (engine kinds: terz, fifty, hundred, four)."""
    return str(KINDS.get(value, value))


@register.filter
def format_label(value: str) -> str:
    try:
        return _format_label(MatchFormat.parse(value))
    except EngineError:
        return str(value)


@register.filter
def trump_label(value: str | None) -> str:
    if not value:
        return "-"
    if value == "NT":
        return _("No trump")
    return SUIT_SYMBOLS.get(value, value)


@register.filter
def suit_color(value: str | None) -> str:
    return SUIT_COLORS.get((value or "")[-1:], "black")


@register.filter
def marker_label(value: str) -> str:
    return str(MARKERS.get(value, value))


@register.simple_tag
def rules_url(variant: str) -> str:
    """The How to play page of a variant (engine id: belote, open_blot)."""
    from games.views.help import slug_of

    return reverse("how_to_play", args=[slug_of(variant)])


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


@register.simple_tag
def live_card(card: dict, dim: bool = False) -> str:
    """A card at the live table (a ``render.card_view``): a button that plays it
    when ``card.playable``, else a picture. Built here rather than with an
    included template: a table draws up to twenty cards per viewpoint per move,
    and an include per card was a third of the cost of drawing a frame."""
    classes = "pcard" + (" red" if card["red"] else "") + (" court" if card["court"] else "")
    face = format_html(
        # (the newlines are where the card's templates used to end)
        '<span class="c-mid" aria-hidden="true">{}<i>{}</i></span>\n',
        format_html("<b>{}</b>", card["rank"]) if card["court"] else "",
        card["suit"],
    )
    if card["playable"]:
        return format_html(
            '<button type="button" id="card-{code}" class="{classes} playable" '
            'data-card="{code}" data-rank="{rank}" data-suit="{suit}" data-action="play" '
            'ws-send hx-vals="{vals}" aria-label="{label}">{face}</button>\n',
            code=card["code"],
            classes=classes,
            rank=card["rank"],
            suit=card["suit"],
            vals=card["vals"],
            label=_("Play %(rank)s%(suit)s") % {"rank": card["rank"], "suit": card["suit"]},
            face=face,
        )
    return format_html(
        '<span class="{classes}" data-card="{code}" data-rank="{rank}" data-suit="{suit}" '
        'role="img" aria-label="{rank}{suit}">{face}</span>\n',
        classes=classes + (" dim" if dim else ""),
        code=card["code"],
        rank=card["rank"],
        suit=card["suit"],
        face=face,
    )
