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
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.actions import Action
from engine.deal import Deal as EngineDeal
from engine.errors import IllegalAction
from games.i18n import reason_text
from games.live.deliver import notify
from games.live.draw import frames
from games.live.plan.turns import plan
from games.live.store import rows
from games.models import Deal, Match, Seat, Table
from games.runtime import metrics
from games.runtime.structlog import event as log_event
from games.services.matches import finish_deal

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: A client message larger than this is refused before it is parsed.
MAX_MESSAGE_BYTES = 2048
CLIENT_TYPES = ("pass", "take", "choose", "declare", "play", "bid", "coinche", "surcoinche")
#: A bid's value is a small whole number (80 … 160, or 250 for capot); a longer
#: string of digits is not one.
_VALUE_DIGITS = 3


class Refused(Exception):
    """A move refused; the table is unchanged. ``message`` is for the player."""

    def __init__(self, message: StrOrPromise) -> None:
        super().__init__(message)
        self.message = message


class NotYourSeat(Refused):
    """A person's move for a seat that is not theirs at that moment: their
    socket has not yet heard that the seat changed hands."""


class StaleVersion(Refused):
    """A move made on a version of the table that is not the current one."""


class NotAllowed(Refused):
    """A move the engine does not allow now."""


@dataclass(frozen=True)
class Live:
    """A playing table's current deal, rebuilt from its stored actions."""

    table: Table
    match: Match
    deal: Deal
    engine: EngineDeal


def current(table: Table) -> Live | None:
    """The table's match and open deal, or ``None`` when nothing is being played."""
    # The match being played and its open deal, in one query: a table plays one
    # match at a time (a rematch starts only once the last one is over), so the
    # newest open deal of a playing match is the one being played.
    deal = rows.newest_open_deal(table.pk)
    if deal is None or deal.match.status != Match.Status.PLAYING:
        return None
    return Live(table, deal.match, deal, deal.rebuild())


def _refuse_constant(name: str) -> Any:
    # JSON has no Infinity or NaN; Python's parser accepts them unless told not to.
    raise ValueError(f"{name} is not JSON")


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """A browser's move: ``{"type": ..., "version": N, ...}``; refuses anything else.

    Whatever a client sends ends here as a :class:`Refused`, never as another
    exception: the consumer logs unexpected exceptions with a traceback, and a
    hostile client must not be able to fill the log."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise Refused(_("That message is too large."))
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (TypeError, ValueError, RecursionError):
        # RecursionError: a thousand nested brackets fit in the size limit.
        raise Refused(_("That message is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise Refused(_("That message is not a move."))
    data.pop("HEADERS", None)  # htmx adds its request headers; they carry no move
    return data


#: A table version is a small count of moves; anything longer is not one.
_VERSION_DIGITS = 15


def _client_version(raw: Any) -> int:
    """The table version a move was made on: a whole number (htmx sends it as a
    string of digits, other clients as a JSON integer); anything else is refused."""
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= _VERSION_DIGITS:
        return int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < 10**_VERSION_DIGITS:
        return raw
    raise Refused(_("The move does not say which table version it was made on."))


def _text_or_none(raw: Any) -> str | None:
    return raw if isinstance(raw, str) else None


def _bid_value(raw: Any) -> int | None:
    """A bid's value as sent (a JSON integer, or a string of digits from a form);
    None for anything else, which the engine then refuses as malformed."""
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= _VALUE_DIGITS:
        return int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < 10**_VALUE_DIGITS:
        return raw
    return None


def action_from_client(data: dict[str, Any], seat: int) -> tuple[Action, int]:
    """The action and the version a client move was made on. The seat always comes
    from the server's side (the connection's user), never from the message."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise Refused(_("Unknown kind of move."))
    version = _client_version(data.get("version"))
    claimed = data.get("seat", seat)
    # Compared as given: no int() or str() of a hostile 2,000-digit number.
    if isinstance(claimed, bool) or claimed not in (seat, str(seat)):
        raise Refused(_("You can only act for your own seat."))
    fields: dict[str, Any] = {"seat": seat, "type": kind}
    if kind == "play":
        fields["card"] = _text_or_none(data.get("card"))
    elif kind == "choose":
        fields["trump"] = _text_or_none(data.get("trump"))
    elif kind == "bid":
        fields["value"] = _bid_value(data.get("value"))
        fields["trump"] = _text_or_none(data.get("trump"))
    elif kind == "declare":
        cards = data.get("cards")
        if isinstance(cards, str):
            cards = cards.split()
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            cards = None
        fields["cards"] = cards
    try:
        return Action.from_dict(fields), version
    except (IllegalAction, TypeError, ValueError):
        raise Refused(_("That move is malformed.")) from None


def submit(
    table_id: int,
    action: Action,
    version: int,
    *,
    user_id: int | None = None,
    by_server: bool = False,
    stand_in: bool = False,
) -> int:
    """Apply ``action`` to the table's current deal if ``version`` is current.

    A person's move names the person making it (``user_id``, the socket's user):
    it is applied only while the action's seat is theirs, checked here under the
    table's lock on every move, whatever the caller believes about the seat.
    ``by_server`` marks a move the server makes itself (a bot seat, or a timed-out
    or absent player's turn); the caller has checked the seat is its to play.
    ``stand_in``: the server plays for a person whose clock ran out or who is
    away, and their seat is marked so (a stand-in plays it until they are back).
    Returns the new version; raises :class:`Refused` and changes nothing otherwise.
    """
    with transaction.atomic():
        # The row lock serialises every move of this table: two moves racing for
        # the same turn queue here, and the second then fails the version check.
        found = rows.select(Table, "t.id = %s", [table_id], lock=True)
        if not found:
            raise Table.DoesNotExist(f"no table {table_id}")
        table = found[0]
        if table.version != version:
            raise StaleVersion(_("The table has moved on; your view was out of date."))
        live = current(table)
        if live is None:
            raise Refused(_("No deal is being played at this table."))
        by_seat = f"t.{rows.quote('index')}"
        seats = rows.select(Seat, "t.table_id = %s", [table.pk], order_by=by_seat)
        by_index = {row.index: row for row in seats}
        if not by_server:
            mover = by_index.get(action.seat)
            if mover is not None and mover.bot_level is not None:
                raise Refused(_("A bot plays that seat."))
            if mover is None or user_id is None or mover.user_id != user_id:
                raise NotYourSeat(_("This seat is no longer yours."))
            if mover.left_at is not None:
                raise Refused(_("You have left this seat; return to it to play."))
        mover = by_index.get(action.seat)
        if mover is not None and mover.user_id is not None and mover.left_at is None:
            # A person playing their own card is back; a stand-in playing for
            # them marks the seat (both only when it changes: no write otherwise).
            if by_server and stand_in and mover.stand_in_since is None:
                mover.stand_in_since = timezone.now()
                rows.update(mover, ["stand_in_since"])
                transaction.on_commit(metrics.turn_timeouts.inc)
            elif not by_server and mover.stand_in_since is not None:
                mover.stand_in_since = None
                rows.update(mover, ["stand_in_since"])
        try:
            events = live.engine.apply(action)
        except IllegalAction as exc:
            raise NotAllowed(
                _("That move is not allowed now: %(reason)s.")
                % {"reason": reason_text(exc.reason)}
            ) from None
        live.deal.actions.append(action.to_dict())
        rows.update(live.deal, ["actions"])
        table.version += 1
        now = table.turn_started_at = timezone.now()
        # The next turn, planned here where the deal is already in memory: when a
        # person is to act and nothing is due before their clock (or their grace)
        # runs out, the table sleeps until then and the conductor is not woken.
        # Otherwise (a bot, a stand-in, the deal's end) the conductor plans it.
        step = None if live.engine.is_over else plan(live, now, by_index)
        person_to_act = step is not None and step.level is None
        table.wakeup_at = step.at if step is not None and step.level is None else None
        rows.update(table, ["version", "turn_started_at", "wakeup_at"])
        closed = None
        if live.engine.is_over:
            closed = finish_deal(live.deal, played=live.engine)
            table.refresh_from_db(fields=["version", "status"])
        new_version = table.version
        payload = [e.to_dict() for e in events]
        # What this move read and wrote is the whole table (with the score row,
        # deal and match its closing wrote when it ended the deal): its frames are
        # drawn from it.
        known = frames.Known(table, seats, live.match, live.deal, live.engine, closed)
        transaction.on_commit(
            lambda: notify.table_changed(
                table_id, new_version, payload, wake_conductor=not person_to_act, known=known
            )
        )
        by = _mover_kind(by_server, mover)
        match_id = live.match.pk
        transaction.on_commit(lambda: _count_move(table_id, match_id, new_version, by, action))
    return new_version


def _mover_kind(by_server: bool, mover: Seat | None) -> str:
    """Who made a move, for the metrics and the log: a person, a bot seat, or a
    stand-in playing a person's seat."""
    if not by_server:
        return "person"
    if mover is not None and mover.user_id is not None:
        return "stand_in"
    return "bot"


def _count_move(table_id: int, match_id: int, version: int, by: str, action: Action) -> None:
    """A stored move, counted and logged (its kind only: never its card)."""
    metrics.moves.labels(by=by).inc()
    if by == "stand_in":
        metrics.stand_in_moves.inc()
    log_event(
        "move", table_id=table_id, match_id=match_id, version=version, by=by,
        action=action.type,
    )
