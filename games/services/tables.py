"""Creating tables and taking or leaving seats before the match starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.match import MatchFormat
from engine.rules import BELOTE, SEATS
from games import ratelimit
from games.models import (
    COINCHE,
    COINCHE_RULE_SET,
    BotLevel,
    Game,
    RuleSetConfig,
    Seat,
    Table,
    Tournament,
    variant_of_game,
)
from games.services import botwork
from games.services.botwork import running_bot_tables
from games.services.changes import announce_seats_changed, announce_table_changed
from games.services.errors import ServiceError
from games.services.matches import in_running_rated_match, start_match

OPEN = "open"
TIMING_FIELDS = frozenset(
    {"turn_seconds", "disconnect_grace_seconds", "bot_delay_ms", "trick_pause_ms",
     "result_pause_seconds"}
)
SEAT_CHOICES = (OPEN, *BotLevel.values)


def check_format(variant: str, fmt: str) -> MatchFormat:
    """The parsed format if ``variant`` offers it, else ``ServiceError``."""
    try:
        parsed = MatchFormat.parse(fmt)
    except (ValueError, TypeError) as exc:
        raise ServiceError(_("Unknown match format.")) from exc
    if parsed not in MatchFormat.choices(variant):
        raise ServiceError(_("This format is not offered for this variant."))
    return parsed


HOUR = 3600


def new_table(rules: RuleSetConfig | Tournament, fmt: str, **fields: Any) -> Table:
    """An unsaved table playing ``rules`` in the match format ``fmt``, with the
    other ``fields`` given: every table is made here. ``rules`` is a rule set,
    whose name and overrides are copied now (editing the rule set later leaves the
    table as it was), or a tournament, whose own copy is taken (the rules its
    entrants signed up for)."""
    if isinstance(rules, Tournament):
        rule_set, name, snapshot = rules.rule_set, rules.rule_set_name, dict(rules.rules_snapshot)
    else:
        rule_set, name, snapshot = rules, rules.name, rules.rules().overrides()
    return Table(
        variant=rules.variant,
        rule_set=rule_set,
        rule_set_name=name,
        rules_snapshot=snapshot,
        format=fmt,
        **fields,
    )


def _take_creation_limits(user: User, address: str | None) -> list[ratelimit.Ticket]:
    """Count a table against its creator's (and their address's) hourly limits
    before it is made, refusing one past them. Counted first, in one
    atomic step each, so many creations at once cannot all see room for one more;
    the caller gives the tickets back if the table is not made."""
    per_user = ratelimit.Limit(settings.BLOT_TABLES_PER_USER_HOURLY, HOUR)
    by_user = ratelimit.take("table:user", str(user.pk), per_user)
    if by_user is None:
        raise ServiceError(
            ngettext(
                "You have created %(count)d table in the last hour, the most allowed. "
                "Please try again later.",
                "You have created %(count)d tables in the last hour, the most allowed. "
                "Please try again later.",
                per_user.count,
            )
            % {"count": per_user.count}
        )
    if address is None:
        return [by_user]
    per_address = ratelimit.Limit(settings.BLOT_TABLES_PER_ADDRESS_HOURLY, HOUR)
    by_address = ratelimit.take("table:address", address, per_address)
    if by_address is None:
        by_user.give_back()
        raise ServiceError(
            _("Too many tables were created from your network in the last hour. "
              "Please try again later.")
        )
    return [by_user, by_address]


def _check_bot_tables(user: User) -> None:
    # Called inside the creation's transaction with the user's row locked, so two
    # creations at once cannot both see room for one more.
    most = settings.BLOT_BOT_TABLES_PER_USER
    if running_bot_tables(user) >= most:
        raise ServiceError(
            ngettext(
                "You already have %(count)d table with bots running, the most allowed. "
                "Please finish it or wait until it ends.",
                "You already have %(count)d tables with bots running, the most allowed. "
                "Please finish one or wait until one ends.",
                most,
            )
            % {"count": most}
        )


def create_table(
    *,
    user: User,
    variant: str,
    fmt: str,
    rule_set: RuleSetConfig,
    others: Sequence[str],
    is_private: bool = False,
    address: str | None = None,
    rated: bool = False,
    **timing: int,
) -> Table:
    """A new table with ``user`` in seat 0 and ``others`` ("open" or a bot level)
    in seats 1.. . Starts the match at once when no seat is left open. ``timing``:
    ``turn_seconds``, ``disconnect_grace_seconds``, ``bot_delay_ms``, ``trick_pause_ms``
    (validated against the model's limits). ``address``: where the request came from,
    for the per-address limit. Refuses with ``ServiceError`` past the creation limits
    (``BLOT_TABLES_PER_USER_HOURLY``, ``BLOT_TABLES_PER_ADDRESS_HOURLY``,
    ``BLOT_BOT_TABLES_PER_USER``)."""
    if rule_set.variant != variant:
        raise ServiceError(_("This rule set is for another variant."))
    parsed = check_format(variant, fmt)
    if len(others) != SEATS[variant] - 1 or any(o not in SEAT_CHOICES for o in others):
        raise ServiceError(_("Every other seat must be open or a bot."))
    if rated and any(o != OPEN for o in others):
        raise ServiceError(_("A rated table is for people only: leave every other seat open."))
    unknown = set(timing) - TIMING_FIELDS
    if unknown:
        raise ServiceError(_("Unknown table setting."))
    table = new_table(
        rule_set, str(parsed), is_private=is_private, rated=rated, created_by=user, **timing
    )
    try:
        table.full_clean(exclude=["invite_token"])
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages)) from None
    tickets = _take_creation_limits(user, address)
    try:
        with transaction.atomic():
            if any(o != OPEN for o in others):
                get_user_model().objects.select_for_update().filter(pk=user.pk).first()
                _check_bot_tables(user)
                botwork.check_table_room(user)
            table.save()
            Seat.objects.create(table=table, index=0, user=user)
            for index, other in enumerate(others, start=1):
                Seat.objects.create(
                    table=table, index=index, bot_level=None if other == OPEN else other
                )
            if not any(o == OPEN for o in others):
                start_match(table)
    except BaseException:
        for ticket in tickets:  # no table was made: it does not count
            ticket.give_back()
        raise
    return table


def _locked_waiting_table(table_id: int) -> Table:
    # The row lock serialises every seat change of one table (two people clicking
    # the last free seat at once: the second sees it taken).
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.status != Table.Status.WAITING:
        raise ServiceError(_("The match has already started."))
    return table


def join_seat(table_id: int, user: User, index: int) -> Table:
    """Seat ``user`` at seat ``index`` (moving them if already seated there)."""
    with transaction.atomic():
        table = _locked_waiting_table(table_id)
        seats = {s.index: s for s in table.seats.select_for_update()}
        seat = seats.get(index)
        if seat is None:
            raise ServiceError(_("There is no such seat."))
        if not seat.is_open:
            raise ServiceError(_("This seat is taken."))
        if table.rated and in_running_rated_match(user.pk):
            raise ServiceError(
                _("Finish your rated match before you sit down at another rated table.")
            )
        current = next((s for s in seats.values() if s.user_id == user.pk), None)
        if current is not None:
            current.user = None
            current.save(update_fields=["user"])
        seat.user = user
        seat.save(update_fields=["user"])
        _bump(table)
        # Before the first frame of the match is drawn: the joiner's open
        # sockets move to the new seat.
        announce_seats_changed(table.pk, [user.pk])
        if all(not s.is_open for s in seats.values()):
            start_match(table)
    return table


def leave_seat(table_id: int, user: User, index: int) -> bool:
    """Free ``user``'s seat before the start. Returns False when that left no
    human at the table, which is then removed."""
    with transaction.atomic():
        table = _locked_waiting_table(table_id)
        seat = table.seats.select_for_update().filter(index=index).first()
        if seat is None or seat.user_id != user.pk:
            raise ServiceError(_("This is not your seat."))
        seat.user = None
        seat.save(update_fields=["user"])
        # Their sockets here become a spectator's, or close with the table.
        announce_seats_changed(table.pk, [user.pk])
        if not table.seats.filter(user__isnull=False).exists():
            table.delete()
            return False
        _bump(table)
    return True


def cancel_table(table_id: int, user: User) -> None:
    """The creator removes a table nobody has started playing at."""
    with transaction.atomic():
        table = _locked_waiting_table(table_id)
        if table.created_by_id != user.pk:
            raise ServiceError(_("Only the table's creator can cancel it."))
        # The seated people's sockets close with the table.
        announce_seats_changed(table.pk, table.seats.values_list("user_id", flat=True))
        table.delete()


def seat_holders_edited(table_id: int, before: Mapping[int, int | None]) -> None:
    """Staff changed who holds the table's seats (the admin's seat rows;
    ``before``: seat id -> user id as it was): the table gets a new version, its
    viewers are told, and the people whose place changed, the old holders and
    the new, have their sockets at the table re-admitted."""
    after = dict(Seat.objects.filter(table_id=table_id).values_list("pk", "user_id"))
    changed = [pk for pk in before.keys() | after.keys() if before.get(pk) != after.get(pk)]
    if not changed:
        return
    Table.objects.filter(pk=table_id).update(version=F("version") + 1)
    version = Table.objects.values_list("version", flat=True).get(pk=table_id)
    announce_seats_changed(table_id, [u for pk in changed for u in (before.get(pk), after.get(pk))])
    announce_table_changed(table_id, version)


def _bump(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db(fields=["version"])


def game_rule_sets() -> dict[str, RuleSetConfig]:
    """The rule set each game is played with: a variant's default one, and
    Coinche's built-in one (a game without its rule set has no table to seat)."""
    found = {r.variant: r for r in RuleSetConfig.objects.filter(is_default=True)}
    coinche = RuleSetConfig.objects.filter(variant=BELOTE, name=COINCHE_RULE_SET).first()
    if coinche is not None and coinche.overrides.get("coinche"):
        found[COINCHE] = coinche
    return found


#: "Play against bots" in the lobby: the variant's usual format (Belote first to
#: 1000, the target French club players know; Open Blot first to 501), the
#: default rule set and timings, every other seat a Normal bot.
QUICK_BOT_LEVEL = BotLevel.NORMAL


def create_quick_bot_table(
    user: User, variant: str, level: str = QUICK_BOT_LEVEL, rule_set: RuleSetConfig | None = None
) -> Table:
    """A public table against bots of ``level`` (Normal unless the player picked
    another) with the game's defaults (``variant`` names a variant or Coinche,
    played with its built-in rule set; ``rule_set``: another of the variant's);
    the match starts at once. Goes through
    :func:`create_table` like any other table."""
    if variant not in Game.values:
        raise ServiceError(_("Unknown variant."))
    if level not in BotLevel.values:
        raise ServiceError(_("Unknown bot level."))
    engine_variant = variant_of_game(variant)
    if rule_set is not None and rule_set.variant != engine_variant:
        raise ServiceError(_("This rule set is for another variant."))
    rule_set = rule_set or game_rule_sets().get(variant)
    if rule_set is None:
        raise ServiceError(_("This variant has no default rule set."))
    return create_table(
        user=user,
        variant=engine_variant,
        fmt=str(MatchFormat.default(engine_variant)),
        rule_set=rule_set,
        others=[level] * (SEATS[engine_variant] - 1),
    )
