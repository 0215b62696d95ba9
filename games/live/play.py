"""Applying a move to a live table: the one serialised path per table.

Every move — a person's click, a bot's decision, a timed-out turn played for an
absent player — comes through :func:`submit`. In one transaction it locks the
table row, checks the version and the seat, applies the action through the
engine (which alone decides legality), appends it to the deal's stored log and
bumps the version; after commit the table's group is told. The stored log is
the truth: the engine deal is rebuilt from it on every move (a few hundred
microseconds), so no state lives in a process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.actions import Action
from engine.deal import Deal as EngineDeal
from engine.errors import IllegalAction
from games.live import notify
from games.models import Deal, Match, Seat, Table
from games.services.matches import finish_deal

#: A client message larger than this is refused before it is parsed.
MAX_MESSAGE_BYTES = 2048
CLIENT_TYPES = ("pass", "take", "choose", "declare", "play")


class Refused(Exception):
    """A move refused; the table is unchanged. ``message`` is for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Live:
    """A playing table's current deal, rebuilt from its stored actions."""

    table: Table
    match: Match
    deal: Deal
    engine: EngineDeal


def current(table: Table) -> Live | None:
    """The table's match and open deal, or ``None`` when nothing is being played."""
    match = table.matches.order_by("-id").first()
    if match is None or match.status != Match.Status.PLAYING:
        return None
    deal = match.deals.filter(status=Deal.Status.PLAYING).order_by("-number").first()
    if deal is None:
        return None
    return Live(table, match, deal, deal.rebuild())


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """A browser's move: ``{"type": ..., "version": N, ...}``; refuses anything else."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise Refused(_("That message is too large."))
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        raise Refused(_("That message is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise Refused(_("That message is not a move."))
    data.pop("HEADERS", None)  # htmx adds its request headers; they carry no move
    return data


def action_from_client(data: dict[str, Any], seat: int) -> tuple[Action, int]:
    """The action and the version a client move was made on. The seat always comes
    from the server's side (the connection's user), never from the message."""
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise Refused(_("Unknown kind of move."))
    try:
        version = int(data.get("version"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise Refused(_("The move does not say which table version it was made on.")) from None
    if "seat" in data and str(data["seat"]) != str(seat):
        raise Refused(_("You can only act for your own seat."))
    fields: dict[str, Any] = {"seat": seat, "type": kind}
    if kind == "play":
        fields["card"] = data.get("card")
    elif kind == "choose":
        fields["trump"] = data.get("trump")
    elif kind == "declare":
        cards = data.get("cards")
        fields["cards"] = cards.split() if isinstance(cards, str) else cards
    try:
        return Action.from_dict(fields), version
    except IllegalAction:
        raise Refused(_("That move is malformed.")) from None


def submit(table_id: int, action: Action, version: int, *, by_server: bool = False) -> int:
    """Apply ``action`` to the table's current deal if ``version`` is current.

    ``by_server`` marks a move the server makes itself (a bot seat, or a timed-out
    or absent player's turn); the caller has checked the seat is its to play.
    Returns the new version; raises :class:`Refused` and changes nothing otherwise.
    """
    with transaction.atomic():
        # The row lock serialises every move of this table: two moves racing for
        # the same turn queue here, and the second then fails the version check.
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.version != version:
            raise Refused(_("The table has moved on; your view was out of date."))
        live = current(table)
        if live is None:
            raise Refused(_("No deal is being played at this table."))
        bots_seat = Seat.objects.filter(table=table, index=action.seat, bot_level__isnull=False)
        if not by_server and bots_seat.exists():
            raise Refused(_("A bot plays that seat."))
        left = Seat.objects.filter(table=table, index=action.seat, left_at__isnull=False)
        if not by_server and left.exists():
            raise Refused(_("You have left this seat; return to it to play."))
        try:
            events = live.engine.apply(action)
        except IllegalAction as exc:
            raise Refused(
                _("That move is not allowed now: %(reason)s.") % {"reason": exc.reason}
            ) from None
        live.deal.actions.append(action.to_dict())
        live.deal.save(update_fields=["actions"])
        table.version += 1
        table.turn_started_at = timezone.now()
        table.wakeup_at = None  # a new turn: the conductor plans it afresh
        table.save(update_fields=["version", "turn_started_at", "wakeup_at"])
        if live.engine.is_over:
            finish_deal(live.deal)
            table.refresh_from_db(fields=["version"])
        new_version = table.version
        payload = [e.to_dict() for e in events]
        transaction.on_commit(lambda: notify.table_changed(table_id, new_version, payload))
    return new_version
