"""Play now: joining and leaving a pairing pool, and the pairing pass.

A pool is a variant by match format by rated/casual. People join from the lobby
(:func:`join`) and wait; the conductor's pass (:func:`pair_waiting`, the one
place pairing happens) groups them with ``engine.pairing`` and seats each group
at a new table, in one transaction per pass. Each seated person's entry keeps
the table (their pages go there) and their open pages are told at once
(``announce_to_user(..., "paired", {"url": ...})``, after commit).

Race-free with several workers: each group is seated in a transaction that
locks its entries (``SELECT ... FOR UPDATE SKIP LOCKED``) and checks they all
still wait, and an entry is marked paired in the transaction that seats it, so
no one is seated twice. A person waits in one pool at a time (one entry each).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.pairing import Group, Ticket, pair
from engine.ratings import MU0
from engine.rules import SEATS
from games.models import Match, Participant, PoolEntry, Rating, RuleSetConfig, Seat, Table
from games.models.choices import BotLevel, Variant
from games.services.bots import is_bot
from games.services.changes import announce_to_user
from games.services.errors import ServiceError
from games.services.matches import start_match
from games.services.tables import check_format

#: The level that fills a casual table for people who asked for bots.
FILL_LEVEL = BotLevel.NORMAL
#: Someone none of whose pages has shown them waiting for this long (the lobby's
#: status refreshes every 2 s) has closed them: they leave the pool.
GONE_AFTER = timedelta(seconds=60)


def in_running_rated_match(user_id: int) -> bool:
    return Participant.objects.filter(
        user_id=user_id, match__rated=True, match__status=Match.Status.PLAYING
    ).exists()


def _people_in_rated_matches(user_ids: Iterable[int]) -> set[int]:
    return set(
        Participant.objects.filter(
            user_id__in=list(user_ids), match__rated=True, match__status=Match.Status.PLAYING
        ).values_list("user_id", flat=True)
    )


def join(
    user: AbstractBaseUser,
    *,
    variant: str,
    fmt: str,
    rated: bool,
    bots_ok: bool = False,
    partner: str = "",
) -> PoolEntry:
    """Put ``user`` in the pool (leaving any other they waited in). ``partner``:
    the username of a friend to play Belote beside; the party waits until the
    friend joins the same pool naming ``user``."""
    if variant not in Variant.values:
        raise ServiceError(_("Unknown variant."))
    if is_bot(user):
        raise ServiceError(_("Play now is for people. A bot account plays through the Bot API."))
    parsed = check_format(variant, fmt)
    if rated and bots_ok:
        raise ServiceError(_("Bots can fill only a casual game: rated games are for people only."))
    friend = None
    if partner.strip():
        if variant != Variant.BELOTE:
            raise ServiceError(_("Only Belote is played with a partner."))
        friend = get_user_model().objects.filter(username=partner.strip()).first()
        if friend is None:
            raise ServiceError(_("There is no player with that username."))
        if friend.pk == user.pk:
            raise ServiceError(_("Your partner must be someone else."))
    if in_running_rated_match(user.pk):
        raise ServiceError(_("Finish your rated match before you look for another game."))
    with transaction.atomic():
        PoolEntry.objects.filter(user_id=user.pk).delete()
        return PoolEntry.objects.create(
            user_id=user.pk,
            variant=variant,
            format=str(parsed),
            rated=rated,
            bots_ok=bots_ok,
            partner=friend,
            joined_at=timezone.now(),
            seen_at=timezone.now(),
        )


def leave(user: AbstractBaseUser) -> bool:
    """Take ``user`` out of the pool they wait in; ``False`` when they were not
    waiting (or have just been paired: their table is ready)."""
    with transaction.atomic():
        entry = (
            PoolEntry.objects.select_for_update()
            .filter(user_id=user.pk, table__isnull=True)
            .first()
        )
        if entry is None:
            return False
        entry.delete()
    return True


@dataclass(frozen=True)
class Waiting:
    """What the lobby shows someone in a pool."""

    entry: PoolEntry
    seconds: int
    in_pool: int  # people waiting in this pool, them included
    partner_waiting: bool  # their partner has joined naming them (no partner: True)


def status(user: Any, now: datetime | None = None) -> Waiting | PoolEntry | None:
    """``None`` when ``user`` is in no pool; their entry when a table is ready
    for them (``entry.table``); else how their wait goes."""
    if not user.is_authenticated:
        return None
    entry = PoolEntry.objects.filter(user_id=user.pk).select_related("partner", "table").first()
    if entry is None:
        return None
    if entry.table_id is not None:
        return entry
    now = now or timezone.now()
    PoolEntry.objects.filter(pk=entry.pk).update(seen_at=timezone.now())
    same = PoolEntry.objects.filter(
        table__isnull=True, variant=entry.variant, format=entry.format, rated=entry.rated
    )
    partner_waiting = entry.partner_id is None or same.filter(
        user_id=entry.partner_id, partner_id=user.pk
    ).exists()
    return Waiting(
        entry=entry,
        seconds=max(0, int((now - entry.joined_at).total_seconds())),
        in_pool=same.count(),
        partner_waiting=partner_waiting,
    )


# --- the pass -----------------------------------------------------------------------------


def pair_waiting(now: datetime | None = None) -> int:
    """One pairing pass over every pool: seats what ``engine.pairing`` groups.
    Returns the tables made. Cheap when nobody waits (one query).

    The groups are decided from one read of the waiting entries; each group is
    then seated in its own transaction, which first locks the group's entries
    (``SKIP LOCKED``) and checks that every one still waits: a group another
    worker is seating, or one whose person left or switched pools meanwhile,
    is skipped (its people are looked at again by the next pass). So a table is
    announced as soon as it is made, and nobody is ever seated twice."""
    if not PoolEntry.objects.filter(table__isnull=True).exists():
        return 0
    now = now or timezone.now()
    # Nobody has a page showing them waiting any more: they have gone.
    gone = timezone.now() - GONE_AFTER
    PoolEntry.objects.filter(table__isnull=True, seen_at__lt=gone).delete()
    entries = list(PoolEntry.objects.filter(table__isnull=True).order_by("pk"))
    busy = _people_in_rated_matches(e.user_id for e in entries)
    pools: dict[tuple[str, str, bool], list[PoolEntry]] = defaultdict(list)
    for e in entries:
        if e.user_id not in busy:
            pools[(e.variant, e.format, e.rated)].append(e)
    skills = _skills(entries)
    rule_sets = {r.variant: r for r in RuleSetConfig.objects.filter(is_default=True)}
    made = 0
    for (variant, fmt, rated), waiting in pools.items():
        tickets, by_person = _tickets(waiting, skills, variant, now)
        if not tickets or variant not in rule_sets:
            continue
        for group in pair(tickets, SEATS[variant]):
            ids = [by_person[p].pk for p in group.people]
            made += _seat_if_still_waiting(group, ids, variant, fmt, rated, rule_sets[variant], now)
    return made


def _seat_if_still_waiting(
    group: Group,
    ids: list[int],
    variant: str,
    fmt: str,
    rated: bool,
    rule_set: RuleSetConfig,
    now: datetime,
) -> int:
    with transaction.atomic():
        still = PoolEntry.objects.select_for_update(skip_locked=True).filter(
            pk__in=ids, table__isnull=True
        )
        if len(list(still)) != len(ids):
            return 0
        table = _seat(group, variant, fmt, rated, rule_set)
        PoolEntry.objects.filter(pk__in=ids).update(table=table, paired_at=now)
        for person in group.people:
            announce_to_user(person, "paired", {"url": table.get_absolute_url()})
    return 1


def _skills(entries: list[PoolEntry]) -> dict[tuple[int, str], float]:
    users = {e.user_id for e in entries}
    return {
        (user_id, variant): mu
        for user_id, variant, mu in Rating.objects.filter(user_id__in=users).values_list(
            "user_id", "variant", "mu"
        )
    }


def _tickets(
    waiting: list[PoolEntry],
    skills: dict[tuple[int, str], float],
    variant: str,
    now: datetime,
) -> tuple[list[Ticket], dict[int, PoolEntry]]:
    """One ticket per person, or per party whose two entries name each other.
    Someone whose partner has not joined yet is not paired."""
    by_person = {e.user_id: e for e in waiting}
    tickets: list[Ticket] = []
    seen: set[int] = set()
    for e in waiting:
        if e.user_id in seen:
            continue
        if e.partner_id is None:
            members: tuple[int, ...] = (e.user_id,)
            party = [e]
        else:
            friend = by_person.get(e.partner_id)
            if friend is None or friend.partner_id != e.user_id:
                continue  # the partner is not here yet (or names someone else)
            members = tuple(sorted((e.user_id, friend.user_id)))
            party = [e, friend]
        seen.update(members)
        rating = sum(skills.get((m, variant), MU0) for m in members) / len(members)
        waited = min((now - p.joined_at).total_seconds() for p in party)
        tickets.append(Ticket(members, rating, waited, all(p.bots_ok for p in party)))
    return tickets, by_person


def _seat(group: Group, variant: str, fmt: str, rated: bool, rule_set: RuleSetConfig) -> Table:
    table = Table.objects.create(
        variant=variant,
        rule_set=rule_set,
        rule_set_name=rule_set.name,
        rules_snapshot=rule_set.rules().overrides(),
        format=fmt,
        rated=rated and group.bots == 0,
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            index=index,
            user_id=person,
            bot_level=FILL_LEVEL if person is None else None,
        )
        for index, person in enumerate(group.seats)
    )
    start_match(table)
    return table
