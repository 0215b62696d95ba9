"""A card at the live table: what is known of it (:func:`card_view`), and how it
is drawn, a button that plays it or a picture (:func:`live_card`).

Drawn in Python rather than with an included template: a table draws up to twenty
cards per viewpoint per move, and an include per card was a third of the cost of
drawing a frame.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from engine.cards import CODES, PLAIN_STRENGTH, STRENGTH, SUITS, Card
from engine.cards import card as card_of
from games.labels import SUIT_SYMBOLS

RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")
#: Hand order: alternate colours (♠ ♥ ♣ ♦), strongest first within a suit.
HAND_SUIT_ORDER = (3, 2, 0, 1)


def move_vals(data: dict[str, Any]) -> str:
    """A move as a button sends it (its ``hx-vals``)."""
    return json.dumps(data, separators=(",", ":"))


def playable_at(condition: bool, version: int) -> int | None:
    """The table version a card is played at, if it may be played now."""
    return version if condition else None


def card_view(card: Card, play_version: int | None = None) -> dict[str, Any]:
    """A card to draw; with ``play_version`` it is drawn as a button that plays it."""
    suit = card >> 3
    view: dict[str, Any] = {
        "code": CODES[card],
        "rank": RANK_LABELS[card & 7],
        "suit": SUIT_SYMBOLS[SUITS[suit]],
        "red": suit in (1, 2),
        "court": card & 7 in (4, 5, 6),
        "playable": play_version is not None,
    }
    if play_version is not None:
        view["vals"] = move_vals({"type": "play", "card": CODES[card], "version": play_version})
    return view


def code_view(code: str) -> dict[str, Any]:
    """A card to draw, from its code."""
    return card_view(card_of(code))


def _hand_key(trump: int | None) -> Callable[[Card], tuple[int, int]]:
    def key(c: Card) -> tuple[int, int]:
        strength = STRENGTH[trump][c] if trump is not None else PLAIN_STRENGTH[c & 7]
        return HAND_SUIT_ORDER.index(c >> 3), -strength

    return key


def sorted_hand(cards: Iterable[Card], trump: int | None) -> list[Card]:
    """A hand in the table's order: alternate colours, strongest first."""
    return sorted(cards, key=_hand_key(trump))


def live_card(card: dict, dim: bool = False) -> str:
    """A card at the live table (a :func:`card_view`): a button that plays it
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
