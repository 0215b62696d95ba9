"""Play now: joining and leaving a pairing pool, and the pairing pass.

A pool is a variant by match format by rated/casual. People join from the lobby
(:func:`join`) and wait; the conductor's pass (:func:`pair_waiting`, the one
place pairing happens) groups them with ``engine.pairing`` and seats each group
at a new table, in one transaction per pass. Each seated person's entry keeps
the table (their pages go there) and their open pages are told at once
(``announce_to_user(..., "paired", {"url": ...})``, after commit).

Race-free with several workers: each group is seated in a transaction that
locks its entries (``SELECT ... FOR UPDATE SKIP LOCKED``) and checks they all
still wait and are still there, and an entry is marked paired in the transaction
that seats it, so no one is seated twice. A person waits in one pool at a time
(one entry each); joining and leaving lock the person's user row first, so a
person's joins and leaves sent at once take turns.

Presence: a person is in a pool only while one of their pages holds their own
socket (an open ``Presence`` row without a table, its heartbeat fresh) or has
shown them waiting within :data:`POLL_GRACE` (the lobby's status refreshes every
2 s; a page without the socket keeps them so). Going from one page to the next
closes one socket before the next page opens its own: an entry whose person's
last page closed within :data:`BETWEEN_PAGES` is kept, though not seated, so
browsing the site while waiting keeps one's place. Closing the last page takes
them out a few seconds later, and a group is seated only if everyone in it is
still there at that moment.

Someone seated at a running table (a casual bot table included) or in a running
rated match is not pooled: two running tables at once would leave one of them
to a stand-in.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.match import MatchFormat
from engine.pairing import Group, Outlook, Ticket, outlook, pair
from engine.pairing.window import PER_SECOND
from engine.ratings import MU0
from engine.rules import SEATS
from games.models import (
    Match,
    Participant,
    PoolEntry,
    PoolWait,
    Presence,
    Rating,
    RuleSetConfig,
    Seat,
    Table,
)
from games.models.choices import BotLevel, Game, Variant, variant_of_game
from games.runtime import metrics
from games.services.bots import is_bot
from games.services.changes import announce_to_user
from games.services.errors import ServiceError
from games.services.matches import in_running_rated_match, start_match
from games.services.tables import check_format, game_rule_sets, new_table

#: The level that fills a casual table for people who asked for bots.
FILL_LEVEL = BotLevel.NORMAL
#: A page without the person's socket keeps them in the pool this long after it
#: last showed them waiting (its status refreshes every 2 s).
POLL_GRACE = timedelta(seconds=3)
#: A person whose last page closed this recently may be loading their next page
#: (its socket opens once it has loaded): their entry is kept, but not seated.
#: With the presence writes' second and the pass's, a closed tab still leaves
#: the pool within about four seconds, as a lobby's last poll does.
BETWEEN_PAGES = timedelta(seconds=2)
#: After this long without a table the status offers the nearest alternatives.
ALTERNATIVES_AFTER_S = 45
#: The usual wait is the median of the pool's pairings this recent ...
USUAL_WAIT_WITHIN = timedelta(hours=24)
#: ... the last this many of them.
USUAL_WAIT_OF = 20
#: Waits older than this are deleted by the pass.
FORGET_WAITS_AFTER = timedelta(days=7)


def running_table_of(user_id: int) -> Table | None:
    """A running table the person is seated at and has not left (a casual bot
    table counts: it would be left to a stand-in), or ``None``."""
    seat = (
        Seat.objects.filter(
            user_id=user_id, left_at__isnull=True, table__status=Table.Status.PLAYING
        )
        .select_related("table")
        .first()
    )
    return None if seat is None else seat.table


def _busy(user_ids: Iterable[int]) -> set[int]:
    """Of ``user_ids``, who plays at a running table or is in a running rated match."""
    ids = list(user_ids)
    seated = Seat.objects.filter(
        user_id__in=ids, left_at__isnull=True, table__status=Table.Status.PLAYING
    ).values_list("user_id", flat=True)
    rated = Participant.objects.filter(
        user_id__in=ids, match__rated=True, match__status=Match.Status.PLAYING
    ).values_list("user_id", flat=True)
    return {u for u in seated if u is not None} | {u for u in rated if u is not None}


def _stale() -> timedelta:
    return timedelta(seconds=settings.BLOT_PRESENCE_STALE_S)


def present(entries: Iterable[PoolEntry], now: datetime | None = None) -> set[int]:
    """Of the people of ``entries``, who is still there: a page holds their own
    socket, or showed them waiting within :data:`POLL_GRACE`."""
    now = now or timezone.now()
    waiting = list(entries)
    polled = {e.user_id for e in waiting if e.seen_at is not None and e.seen_at >= now - POLL_GRACE}
    rest = [e.user_id for e in waiting if e.user_id not in polled]
    if not rest:
        return polled
    socket = Presence.objects.filter(
        table__isnull=True,
        user_id__in=rest,
        closed_at__isnull=True,
        last_seen__gte=now - _stale(),
    ).values_list("user_id", flat=True)
    return polled | {u for u in socket if u is not None}


def between_pages(user_ids: Iterable[int], now: datetime | None = None) -> set[int]:
    """Of ``user_ids``, who closed a page holding their own socket within
    :data:`BETWEEN_PAGES`: they may be on their way to the next page."""
    now = now or timezone.now()
    closed = Presence.objects.filter(
        table__isnull=True, user_id__in=list(user_ids), closed_at__gte=now - BETWEEN_PAGES
    ).values_list("user_id", flat=True)
    return {u for u in closed if u is not None}


def _forget_the_gone(entries: list[PoolEntry], here: set[int]) -> None:
    """Delete the entries of those of ``entries`` not ``here`` and not between
    two pages: every page of theirs has closed."""
    away = {e.user_id for e in entries if e.user_id not in here}
    if not away:
        return
    gone = away - between_pages(away)
    if gone:
        PoolEntry.objects.filter(
            pk__in=[e.pk for e in entries if e.user_id in gone], table__isnull=True
        ).delete()


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
    # ``variant`` names the pool's game: a variant, or Coinche.
    if variant not in Game.values:
        raise ServiceError(_("Unknown variant."))
    if is_bot(user):
        raise ServiceError(_("Play now is for people. A bot account plays through the Bot API."))
    parsed = check_format(variant_of_game(variant), fmt)
    if rated and bots_ok:
        raise ServiceError(_("Bots can fill only a casual game: rated games are for people only."))
    friend = None
    if partner.strip():
        if variant_of_game(variant) != Variant.BELOTE:
            raise ServiceError(_("Only Belote is played with a partner."))
        friend = get_user_model().objects.filter(username=partner.strip()).first()
        if friend is None:
            raise ServiceError(_("There is no player with that username."))
        if friend.pk == user.pk:
            raise ServiceError(_("Your partner must be someone else."))
    with transaction.atomic():
        _take_turns(user)
        if in_running_rated_match(user.pk):
            raise ServiceError(_("Finish your rated match before you look for another game."))
        if running_table_of(user.pk) is not None:
            raise ServiceError(
                _(
                    "You are playing at a table right now. Finish that match, or leave "
                    "it, before you look for another game."
                )
            )
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
        _take_turns(user)
        deleted, _kinds = PoolEntry.objects.filter(user_id=user.pk, table__isnull=True).delete()
    return deleted > 0


def _take_turns(user: AbstractBaseUser) -> None:
    """Lock the person's user row: their joins and leaves sent at once (two tabs,
    a double click) take turns instead of racing for their one entry."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


@dataclass(frozen=True)
class Alternative:
    """Another way to play now, offered to someone who has waited a while:
    ``kind`` is ``casual`` (the same pool unrated), ``format`` (another format
    of the variant, ``waiting`` people in it) or ``bots`` (a table against bots)."""

    kind: str
    variant: str
    format: str
    rated: bool
    waiting: int = 0


@dataclass(frozen=True)
class Waiting:
    """What the lobby shows someone in a pool."""

    entry: PoolEntry
    seconds: int
    in_pool: int  # people waiting in this pool, them included
    partner_waiting: bool  # their partner has joined naming them (no partner: True)
    rating: Rating  # theirs in the pool's variant
    #: How their wait stands (``None`` while their partner has not joined).
    outlook: Outlook | None
    #: The median wait of the pool's recent pairings, ``None`` without any.
    usual_wait_s: float | None
    alternatives: list[Alternative]

    @property
    def window(self) -> int:
        return round(self.outlook.window) if self.outlook else 0

    @property
    def meet_in_s(self) -> int | None:
        if self.outlook is None or self.outlook.meet_in_s is None:
            return None
        return max(1, round(self.outlook.meet_in_s)) if self.outlook.meet_in_s > 0 else 0

    @property
    def seats(self) -> int:
        return SEATS[variant_of_game(self.entry.variant)]

    @property
    def window_low(self) -> int:
        return self.rating.shown - self.window

    @property
    def window_high(self) -> int:
        return self.rating.shown + self.window

    @property
    def per_second(self) -> int:
        return round(PER_SECOND)

    @property
    def missing(self) -> int:
        """People still to join before a table could be made with them."""
        others = self.outlook.in_pool if self.outlook else 0
        mine = 2 if self.entry.partner_id else 1
        return max(0, self.seats - mine - others)

    @property
    def usual_wait(self) -> int | None:
        return None if self.usual_wait_s is None else round(self.usual_wait_s)


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
    entry.seen_at = timezone.now()
    PoolEntry.objects.filter(pk=entry.pk).update(seen_at=entry.seen_at)
    same = list(
        PoolEntry.objects.filter(
            table__isnull=True, variant=entry.variant, format=entry.format, rated=entry.rated
        )
    )
    here = present(same, now) | {user.pk}
    same = [e for e in same if e.user_id in here]
    partner_waiting = entry.partner_id is None or any(
        e.user_id == entry.partner_id and e.partner_id == user.pk for e in same
    )
    skills = _skills(same)
    tickets, _by_person = _tickets(same, skills, entry.variant, now)
    mine = next((t for t in tickets if user.pk in t.members), None)
    seconds = max(0, int((now - entry.joined_at).total_seconds()))
    return Waiting(
        entry=entry,
        seconds=seconds,
        in_pool=len(same),
        partner_waiting=partner_waiting,
        rating=_rating(user.pk, entry.variant),
        outlook=None if mine is None else outlook(mine, tickets, entry_seats(entry)),
        usual_wait_s=usual_wait(entry.variant, entry.format, entry.rated, now),
        alternatives=_alternatives(entry, now) if seconds >= ALTERNATIVES_AFTER_S else [],
    )


def _rating(user_id: int, variant: str) -> Rating:
    found = Rating.objects.filter(user_id=user_id, variant=variant).first()
    return found or Rating(user_id=user_id, variant=variant)


def usual_wait(variant: str, fmt: str, rated: bool, now: datetime | None = None) -> float | None:
    """The median wait of the pool's last pairings (at most a day old)."""
    since = (now or timezone.now()) - USUAL_WAIT_WITHIN
    waits = list(
        PoolWait.objects.filter(variant=variant, format=fmt, rated=rated, at__gte=since)
        .order_by("-at")
        .values_list("waited_s", flat=True)[:USUAL_WAIT_OF]
    )
    return statistics.median(waits) if waits else None


def _alternatives(entry: PoolEntry, now: datetime) -> list[Alternative]:
    """The nearest other ways to play now: the same game casual, the format of
    the variant where the most people wait, a table against bots."""
    offers: list[Alternative] = []
    if entry.rated:
        offers.append(Alternative("casual", entry.variant, entry.format, False))
    others = list(
        PoolEntry.objects.filter(table__isnull=True, variant=entry.variant, rated=entry.rated)
        .exclude(format=entry.format)
        .exclude(user_id=entry.user_id)
    )
    here = present(others, now)
    counts: dict[str, int] = defaultdict(int)
    for other in others:
        if other.user_id in here:
            counts[other.format] += 1
    if counts:
        fmt = max(sorted(counts), key=lambda f: counts[f])
        offers.append(Alternative("format", entry.variant, fmt, entry.rated, counts[fmt]))
    else:
        usual = str(MatchFormat.default(variant_of_game(entry.variant)))
        if usual != entry.format:
            offers.append(Alternative("format", entry.variant, usual, entry.rated))
    usual = str(MatchFormat.default(variant_of_game(entry.variant)))
    offers.append(Alternative("bots", entry.variant, usual, False))
    return offers


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
    entries = list(PoolEntry.objects.filter(table__isnull=True).order_by("pk"))
    if not entries:
        return 0
    now = now or timezone.now()
    # Nobody has a page of theirs open any more: they have gone. Someone between
    # two pages waits on, and is paired once their next page is open.
    here = present(entries)
    _forget_the_gone(entries, here)
    entries = [e for e in entries if e.user_id in here]
    busy = _busy(e.user_id for e in entries)
    pools: dict[tuple[str, str, bool], list[PoolEntry]] = defaultdict(list)
    for e in entries:
        if e.user_id not in busy:
            pools[(e.variant, e.format, e.rated)].append(e)
    skills = _skills(entries)
    rule_sets = game_rule_sets()
    made = 0
    for (variant, fmt, rated), waiting in pools.items():
        tickets, by_person = _tickets(waiting, skills, variant, now)
        if not tickets or variant not in rule_sets:
            continue
        for group in pair(tickets, SEATS[variant_of_game(variant)]):
            ids = [by_person[p].pk for p in group.people]
            made += _seat_if_still_waiting(group, ids, variant, fmt, rated, rule_sets[variant], now)
    if made:
        forget_old_waits()
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
        still = list(
            PoolEntry.objects.select_for_update(skip_locked=True).filter(
                pk__in=ids, table__isnull=True
            )
        )
        if len(still) != len(ids):
            return 0
        # Checked again under the lock: someone who closed their last page, or
        # sat down at a table, since the pass read the pool is never seated.
        here = present(still)
        if any(e.user_id not in here for e in still):
            _forget_the_gone(still, here)
            return 0
        if _busy(e.user_id for e in still):
            return 0
        table = _seat(group, variant, fmt, rated, rule_set)
        PoolEntry.objects.filter(pk__in=ids).update(table=table, paired_at=now)
        PoolWait.objects.bulk_create(
            PoolWait(
                variant=variant,
                format=fmt,
                rated=rated,
                waited_s=max(0.0, (now - e.joined_at).total_seconds()),
                at=now,
            )
            for e in still
        )
        for person in group.people:
            announce_to_user(person, "paired", {"url": table.get_absolute_url()})
        pool = f"{variant}-{fmt}-{'rated' if rated else 'casual'}"
        waits = [max(0.0, (now - e.joined_at).total_seconds()) for e in still]
        transaction.on_commit(lambda: _observe_waits(pool, waits))
    return 1


def _observe_waits(pool: str, waits: list[float]) -> None:
    for waited in waits:
        metrics.pool_waits.labels(pool=pool).observe(waited)


def forget_old_waits() -> int:
    """Delete waits too old to tell anyone anything."""
    deleted, _kinds = PoolWait.objects.filter(at__lt=timezone.now() - FORGET_WAITS_AFTER).delete()
    return deleted


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


def entry_seats(entry: PoolEntry) -> int:
    """How many people a table of this entry's pool seats."""
    return SEATS[variant_of_game(entry.variant)]


def _seat(group: Group, variant: str, fmt: str, rated: bool, rule_set: RuleSetConfig) -> Table:
    table = new_table(rule_set, fmt, rated=rated and group.bots == 0)
    table.save()
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
