"""Display helpers for formats, trumps, markers and card codes.

Every word here goes through gettext: the names players use for the
combinations and markers differ per language (README "Languages")."""

from __future__ import annotations

from functools import cache

from django import template
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
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
    if card["playable"]:
        return format_html(
            '<button type="button" id="card-{code}" class="{classes} playable" '
            'data-card="{code}" data-rank="{rank}" data-suit="{suit}" data-action="play" '
            'ws-send hx-vals="{vals}" aria-label="{label}">{face}</button>\n',
            code=card["code"],
            classes=_card_classes(card["red"], card["court"]),
            rank=card["rank"],
            suit=card["suit"],
            vals=card["vals"],
            label=_("Play %(rank)s%(suit)s") % {"rank": card["rank"], "suit": card["suit"]},
            face=_card_face(card["rank"], card["suit"], card["court"]),
        )
    return _card_picture(
        card["code"], card["rank"], card["suit"], card["red"], card["court"], bool(dim)
    )


# A card that is not played from here is the same markup every time it is drawn
# (thirty-two cards, dimmed or not): drawn once per process, not once per frame.
# format_html was a sixth of a frame's drawing cost.


def _card_classes(red: bool, court: bool) -> str:
    return "pcard" + (" red" if red else "") + (" court" if court else "")


@cache
def _card_face(rank: str, suit: str, court: bool) -> SafeString:
    # (the newlines are where the card's templates used to end)
    court_letter = f"<b>{escape(rank)}</b>" if court else ""
    return mark_safe(
        f'<span class="c-mid" aria-hidden="true">{court_letter}<i>{escape(suit)}</i></span>\n'
    )


@cache
def _card_picture(code: str, rank: str, suit: str, red: bool, court: bool, dim: bool) -> SafeString:
    classes = _card_classes(red, court) + (" dim" if dim else "")
    face = _card_face(rank, suit, court)
    code, rank, suit = escape(code), escape(rank), escape(suit)
    return mark_safe(
        f'<span class="{classes}" data-card="{code}" data-rank="{rank}" data-suit="{suit}" '
        f'role="img" aria-label="{rank}{suit}">{face}</span>\n'
    )
