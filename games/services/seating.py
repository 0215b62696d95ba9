"""Leaving a running match, coming back to it, and rematches.

Each public function runs in one transaction holding the table's row lock (the
same lock every move takes), checks first (``check_...``, which raises
``ServiceError`` and changes nothing), then acts (``do_...``). Asking twice is
harmless: the second call changes nothing. After commit the table's version has
gone up and its viewers are told, so every open table page updates.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Deal, Match, MatchEvent, Rematch, Seat, Table
from games.services.changes import announce_table_changed
from games.services.errors import ServiceError
from games.services.matches import end_match, resigned_sides, start_match


def _locked(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise ServiceError(_("There is no such table.")) from None


def _own_seat(table: Table, user: User) -> Seat:
    seat = (
        Seat.objects.select_for_update().filter(table=table, user_id=user.pk).first()
        if user.is_authenticated
        else None
    )
    if seat is None:
        raise ServiceError(_("You have no seat at this table."))
    return seat


def _playing_match(table: Table) -> Match:
    match = table.current_match()
    if match is None or match.status != Match.Status.PLAYING:
        raise ServiceError(_("No match is being played at this table."))
    return match


def _bump_and_notify(table: Table) -> None:
    """A new version (clients' in-flight moves on the old one are refused), a
    fresh plan for the conductor, and every viewer told after commit."""
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1, wakeup_at=None)
    table.refresh_from_db(fields=["version", "wakeup_at"])
    announce_table_changed(table.pk, table.version)


def _deal_number(match: Match) -> int | None:
    return (
        match.deals.filter(status=Deal.Status.PLAYING)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def _record(match: Match, seat: Seat, kind: str) -> None:
    MatchEvent.objects.create(
        match=match,
        index=seat.index,
        user_id=seat.user_id,
        kind=kind,
        at=timezone.now(),
        deal_number=_deal_number(match),
    )


# --- leaving ------------------------------------------------------------------------------


def check_leave(table: Table, user: User) -> tuple[Match, Seat]:
    match = _playing_match(table)
    return match, _own_seat(table, user)


def do_leave(table: Table, match: Match, seat: Seat) -> bool:
    if seat.left_at is not None:
        return False  # already gone: nothing to do
    seat.left_at = timezone.now()
    seat.save(update_fields=["left_at"])
    _record(match, seat, MatchEvent.Kind.LEFT)
    _end_if_nobody_plays(table, match)
    _bump_and_notify(table)
    return True


def leave(table_id: int, user: User) -> bool:
    """``user`` leaves the running match: a Normal bot plays their seat from its
    next turn (after the table's bot pause) until they return. Returns whether
    anything changed."""
    with transaction.atomic():
        table = _locked(table_id)
        match, seat = check_leave(table, user)
        return do_leave(table, match, seat)


# --- returning ----------------------------------------------------------------------------


def check_return(table: Table, user: User) -> tuple[Match, Seat]:
    match = _playing_match(table)
    return match, _own_seat(table, user)


def do_return(table: Table, match: Match, seat: Seat) -> bool:
    if seat.left_at is None:
        if seat.stand_in_since is None:
            return False  # never left (or already back)
        # Their clock ran out (or they were away): taking the seat back from the
        # stand-in is not a return from leaving, so no event is recorded. The
        # return time gives them a whole turn if it is theirs (``plan``).
        seat.stand_in_since = None
        seat.returned_at = timezone.now()
        seat.save(update_fields=["stand_in_since", "returned_at"])
        _bump_and_notify(table)
        return True
    if _has_resigned(match, seat):
        raise ServiceError(_("You resigned this match: you cannot take your seat back."))
    now = timezone.now()
    seat.left_at = None
    seat.stand_in_since = None
    seat.returned_at = now
    seat.save(update_fields=["left_at", "stand_in_since", "returned_at"])
    _record(match, seat, MatchEvent.Kind.RETURNED)
    _bump_and_notify(table)
    return True


def return_to_seat(table_id: int, user: User) -> bool:
    """``user`` takes back the seat they left; the stand-in stops. Only the
    seat's own person can: the seat stays theirs while they are away."""
    with transaction.atomic():
        table = _locked(table_id)
        match, seat = check_return(table, user)
        return do_return(table, match, seat)


# --- resigning ---------------------------------------------------------------------------


def _has_resigned(match: Match, seat: Seat) -> bool:
    return match.events.filter(index=seat.index, kind=MatchEvent.Kind.RESIGNED).exists()


def _people(table: Table) -> list[Seat]:
    return list(table.seats.select_for_update().filter(user__isnull=False).order_by("index"))


def _end_if_nobody_plays(table: Table, match: Match) -> bool:
    """A match nobody plays in any more (every person at it left or resigned)
    ends instead of being played out by stand-ins. The loser: a side that
    resigned; else the side of people who walked out on bots; else (people on
    both sides left) the side whose people left first."""
    people = _people(table)
    if not people or any(p.left_at is None for p in people):
        return False
    resigned = resigned_sides(match)
    if resigned:
        loser = min(resigned)
    elif len({p.side for p in people}) == 1:
        loser = people[0].side
    else:
        last = max(people, key=lambda p: p.left_at or timezone.now())
        loser = 1 - last.side
    end_match(match, table, winner=1 - loser)
    return True


def check_resign(table: Table, user: User) -> tuple[Match, Seat]:
    match = _playing_match(table)
    return match, _own_seat(table, user)


def do_resign(table: Table, match: Match, seat: Seat) -> bool:
    """Record the resignation (one ``RESIGNED`` event per person); a stand-in
    plays the seat from now on and it cannot be taken back. The match ends at
    once when no person of the resigner's side plays on (alone with bots, Open
    Blot, or a partner who left too): their side loses. Otherwise the partner
    plays on beside the stand-in, and the side is recorded as the loser when
    the match ends, whatever the score (``finish_deal``)."""
    if _has_resigned(match, seat):
        return False
    if seat.left_at is None:
        seat.left_at = timezone.now()
        seat.save(update_fields=["left_at"])
    _record(match, seat, MatchEvent.Kind.RESIGNED)
    side_plays_on = any(
        p.side == seat.side and p.left_at is None for p in _people(table)
    )
    if not side_plays_on:
        end_match(match, table, winner=1 - seat.side)
    _bump_and_notify(table)
    return True


def _others_playing(table: Table, user: User, same_side: bool) -> bool:
    seats = list(table.seats.all())
    mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    return mine is not None and any(
        s.user_id is not None
        and s.pk != mine.pk
        and s.left_at is None
        and (s.side == mine.side or not same_side)
        for s in seats
    )


def leave_consequence(table: Table, user: User) -> str:
    """What leaving would do at ``table``, said before the player confirms."""
    if not _others_playing(table, user, same_side=False):
        return _(
            "Nobody else plays at this table: the match ends at once and counts as a "
            "loss for your side."
        )
    return _(
        "A Normal bot will play your seat from its next turn. You can come back to your "
        "seat while the match lasts."
    )


def resign_consequence(table: Table, user: User) -> str:
    """What resigning would do at ``table``, said before the player confirms."""
    partner_plays = _others_playing(table, user, same_side=True)
    if partner_plays:
        return _(
            "Your side loses the match. A Normal bot plays your seat until the match "
            "ends, and your partner may play on. You cannot take your seat back."
        )
    return _("The match ends at once and counts as a loss for your side.")


def resign(table_id: int, user: User) -> bool:
    """``user`` resigns the running match at ``table_id`` (a loss for their
    side). Returns whether anything changed: resigning twice changes nothing."""
    with transaction.atomic():
        table = _locked(table_id)
        match, seat = check_resign(table, user)
        return do_resign(table, match, seat)


def end_unwatched(table_id: int, away: Iterable[int]) -> bool:
    """The conductor found every person still seated at the table away (no
    connection past their grace): they count as having left (a ``LEFT`` event
    each) and the match, which nobody sees any more, ends."""
    with transaction.atomic():
        table = _locked(table_id)
        match = table.current_match()
        if match is None or match.status != Match.Status.PLAYING:
            return False
        away = set(away)
        people = _people(table)
        if any(p.left_at is None and p.index not in away for p in people):
            return False  # someone came back in the meantime
        now = timezone.now()
        for p in people:
            if p.left_at is None:
                p.left_at = now
                p.save(update_fields=["left_at"])
                _record(match, p, MatchEvent.Kind.LEFT)
        ended = _end_if_nobody_plays(table, match)
        _bump_and_notify(table)
        return ended


# --- rematch ------------------------------------------------------------------------------


def check_rematch(table: Table, user: User, match_id: int) -> tuple[Match, Seat]:
    match = Match.objects.filter(pk=match_id, table=table).first()
    if match is None:
        raise ServiceError(_("There is no such match at this table."))
    seat = _own_seat(table, user)
    if match.status != Match.Status.FINISHED:
        raise ServiceError(_("The match is not over yet."))
    if match.tournament_id is not None:
        raise ServiceError(_("A tournament match is played once: there is no rematch."))
    return match, seat


def do_rematch(table: Table, match: Match, seat: Seat) -> Rematch:
    offer, _created = Rematch.objects.select_for_update().get_or_create(match=match)
    if offer.new_match_id is not None:
        return offer  # it has started: asking again changes nothing
    if table.current_match().pk != match.pk:
        raise ServiceError(_("This table has already moved on to another match."))
    came_back = seat.left_at is not None
    if came_back:
        # Asking for the next match is coming back: the stand-in stops.
        seat.left_at = None
        seat.returned_at = timezone.now()
        seat.save(update_fields=["left_at", "returned_at"])
    seats = list(table.seats.all())
    # Bots, and seats whose person left (a stand-in plays them), say yes at once.
    automatic = {s.index for s in seats if s.bot_level is not None or s.left_at is not None}
    accepted = set(offer.accepted) | automatic | {seat.index}
    if accepted == set(offer.accepted) and not came_back:
        return offer
    offer.accepted = sorted(accepted)
    if len(accepted) == len(seats):
        offer.new_match = start_match(table)
        for s in seats:
            if s.left_at is not None:  # the stand-in goes on playing for them
                _record(offer.new_match, s, MatchEvent.Kind.LEFT)
    offer.save()
    _bump_and_notify(table)
    return offer


def rematch(table_id: int, user: User, match_id: int) -> Rematch:
    """``user`` asks for (or accepts) a rematch of the finished match
    ``match_id``: the same seats and settings, a new match at the same table,
    which starts once every seat has accepted."""
    with transaction.atomic():
        table = _locked(table_id)
        match, seat = check_rematch(table, user, match_id)
        return do_rematch(table, match, seat)


def prefill_new_table(table: Table, seats: Iterable[Seat] | None = None) -> dict[str, str]:
    """The create form's fields for a new table like ``table``: its variant,
    format, rule set and timings; bots stay bots, people's seats are open.
    ``seats``: the table's seats, when the caller has them already."""
    data = {
        "variant": table.variant,
        "format": table.format,
        "turn_seconds": str(table.turn_seconds),
        "disconnect_grace_seconds": str(table.disconnect_grace_seconds),
        "bot_delay_ms": str(table.bot_delay_ms),
        "result_pause_seconds": str(table.result_pause_seconds),
    }
    if table.rule_set_id is not None:
        data["rule_set"] = str(table.rule_set_id)
    for s in table.seats.all() if seats is None else seats:
        if s.index > 0:
            data[f"seat_{s.index}"] = s.bot_level or "open"
    return data
