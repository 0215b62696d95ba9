"""A card drawn at the live table: a button that plays it, or a picture.

Built in Python rather than with an included template: a table draws up to twenty
cards per viewpoint per move, and an include per card was a third of the cost of
drawing a frame.
"""

from __future__ import annotations

from functools import cache

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def live_card(card: dict, dim: bool = False) -> str:
    """A card at the live table (a ``render.card_view``): a button that plays it
    when ``card.playable``, else a picture."""
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
