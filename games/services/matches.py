"""Starting a match, dealing, and closing a deal into the score table.

Live play (``games.live.submit.play``) appends to ``Deal.actions`` and calls
:func:`finish_deal` when the engine says the deal is over. The next deal is not
dealt then: the finished deal's result and last trick stay on the table for a
pause, after which the conductor calls :func:`deal_next`.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.cards import code
from engine.deal import Deal as EngineDeal
from engine.match import Match as EngineMatch
from engine.match import MatchFormat
from engine.match import ScoreRow as EngineScoreRow
from engine.shuffle import commit, shuffled_deck
from games.models import Deal, Match, MatchEvent, Participant, ScoreRow, Seat, Table, Tournament
from games.models.choices import bot_name
from games.services.changes import announce_table_changed, announce_to_user
from games.services.errors import ServiceError
from games.services.ratings import rate_match


def in_running_rated_match(user_id: int) -> bool:
    """Whether the person plays a rated match now: one rated match at a time,
    whichever way the next would begin (a pool, a challenge, a seat taken)."""
    return Participant.objects.filter(
        user_id=user_id, match__rated=True, match__status=Match.Status.PLAYING
    ).exists()


def start_match(table: Table) -> Match:
    """Create the match and its first deal. The caller holds ``table``'s row lock."""
    seats = list(table.seats.select_related("user__player"))
    if len(seats) != table.seat_count or any(s.is_open for s in seats):
        raise ServiceError(_("Every seat must be filled before the match starts."))
    match = Match.objects.create(
        table=table,
        variant=table.variant,
        rules=dict(table.rules_snapshot),
        format=table.format,
        rated=table.rated,
        first_dealer=secrets.randbelow(table.seat_count),
    )
    Participant.objects.bulk_create(
        Participant(
            match=match,
            index=s.index,
            user=s.user,
            bot_level=s.bot_level,
            name=_seat_name(s.user, s.bot_level, s.index),
            bot_account=_is_bot_account(s.user),
        )
        for s in seats
    )
    deal_new(match, number=1, dealer=match.first_dealer)
    announce_to_bots(match)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db(fields=["version"])
    return match


def announce_to_bots(match: Match) -> None:
    """Tell the bot accounts seated in ``match`` that it started or ended: their
    event streams (the Bot API) wake at once instead of at their next look."""
    bots = Participant.objects.filter(match=match, bot_account=True, user__isnull=False)
    for user_id in bots.values_list("user_id", flat=True):
        announce_to_user(user_id, "bot-match", {"match": match.pk})


def _is_bot_account(user) -> bool:
    player = getattr(user, "player", None) if user is not None else None
    return bool(player is not None and player.is_bot)


def _seat_name(user, bot_level: str | None, index: int) -> str:
    if user is not None:
        player = getattr(user, "player", None)
        return player.display_name if player else user.get_username()
    return bot_name(index, bot_level or "")


def deal_new(match: Match, number: int, dealer: int) -> Deal:
    """A deal from a fresh cryptographic shuffle, with its commitment."""
    deck = shuffled_deck()
    commitment = commit(deck)
    return Deal.objects.create(
        match=match,
        number=number,
        dealer=dealer,
        deck=[code(c) for c in deck],
        shuffle_salt=commitment.salt,
        commitment=commitment.digest,
    )


def fold_match(match: Match) -> EngineMatch:
    """The engine match as its stored score table leaves it: each row was folded by
    the engine in its deal's closing transaction, so resuming from the rows is the
    same state as replaying every deal, for one query however long the match."""
    rows = [_engine_row(row) for row in match.score_rows.order_by("number")]
    return EngineMatch.resume(
        match.variant, MatchFormat.parse(match.format), match.first_dealer, rows
    )


def _engine_row(row: ScoreRow) -> EngineScoreRow:
    return EngineScoreRow(
        number=row.number,
        dealer=row.dealer,
        trump=row.trump,
        taker=row.taker,
        deal_points=(row.deal_points[0], row.deal_points[1]),
        awarded=None if row.awarded is None else (row.awarded[0], row.awarded[1]),
        totals=(row.totals[0], row.totals[1]),
        wins=(row.wins[0], row.wins[1]),
        markers=tuple(row.markers),
        held_points=row.held_points,
    )


@transaction.atomic
def finish_deal(deal: Deal, played: EngineDeal | None = None) -> ScoreRow:
    """Close a deal whose stored actions end it: store the result, append the score
    row, and finish the match when it is over. The next deal is dealt later, by
    :func:`deal_next`, so the result can be read on the table first.

    ``played`` is the deal as the caller just rebuilt and played it from those
    stored actions (a move ending the deal, under the table's lock), so it is not
    rebuilt a second time."""
    match = Match.objects.select_for_update().get(pk=deal.match_id)
    deal = Deal.objects.select_for_update().get(pk=deal.pk)
    if deal.is_finished:
        raise ServiceError(_("This deal is already finished."))
    engine_deal = played if played is not None else deal.rebuild()
    result = engine_deal.result()
    if result is None:
        raise ServiceError(_("This deal is not over."))
    deal.result = result.to_dict()
    deal.status = Deal.Status.FINISHED
    deal.finished_at = timezone.now()
    deal.save(update_fields=["result", "status", "finished_at"])

    folded = fold_match(match)  # the score table before this deal
    row = score_row_from(match, deal, folded.add_deal(result))
    table = Table.objects.select_for_update().get(pk=match.table_id)
    if folded.is_over:
        # A side one of whose people resigned has lost, whatever the score.
        resigned = resigned_sides(match)
        winner = 1 - min(resigned) if resigned else folded.winner
        end_match(match, table, winner)
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    return row


def resigned_sides(match: Match) -> set[int]:
    """The sides a person of which resigned this match."""
    return {
        index % 2
        for index in match.events.filter(kind=MatchEvent.Kind.RESIGNED).values_list(
            "index", flat=True
        )
    }


def end_match(match: Match, table: Table, winner: int | None) -> None:
    """Finish ``match`` (the caller holds ``table``'s row lock): a deal still
    open is abandoned, the table is finished (so it no longer counts as a
    running bot table) and the match's tournament, if any, is woken to record
    the result. The caller bumps the table's version."""
    now = timezone.now()
    match.deals.filter(status=Deal.Status.PLAYING).update(status=Deal.Status.ABANDONED)
    match.status = Match.Status.FINISHED
    match.winner = winner
    match.finished_at = now
    match.save(update_fields=["status", "winner", "finished_at"])
    table.status = Table.Status.FINISHED
    table.wakeup_at = None
    table.save(update_fields=["status", "wakeup_at"])
    rate_match(match)  # a rated match changes its players' ratings now
    announce_to_bots(match)
    if match.tournament_id is not None:
        Tournament.objects.filter(pk=match.tournament_id).update(wakeup_at=now)
        # Its people's "your match is ready" goes (pushed to their open pages).
        announce_tournament_match(table.pk)


def announce_tournament_match(table_id: int) -> None:
    """The people seated at a tournament's table: their "your match is ready"
    changed (the match began or ended); pushed to every page they have open."""
    people = Seat.objects.filter(table_id=table_id, user__isnull=False)
    for user_id in people.values_list("user_id", flat=True):
        announce_to_user(user_id, "match-ready")


@transaction.atomic
def deal_next(match_id: int) -> Deal | None:
    """Deal the next deal of a playing match that has no deal open; ``None`` (and
    nothing changed) when there is nothing to deal. Safe to call twice at once:
    the table row lock serialises callers and the second finds the deal open."""
    match = Match.objects.get(pk=match_id)
    table = Table.objects.select_for_update().get(pk=match.table_id)
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.PLAYING:
        return None
    if match.deals.filter(status=Deal.Status.PLAYING).exists():
        return None
    folded = fold_match(match)
    if folded.is_over:  # pragma: no cover - finish_deal finishes such a match
        return None
    last = match.deals.order_by("-number").values_list("number", flat=True).first() or 0
    deal = deal_new(match, number=last + 1, dealer=folded.next_dealer)
    # The new deal's first turn starts now (the clock must not count the pause).
    Table.objects.filter(pk=table.pk).update(
        version=F("version") + 1, turn_started_at=timezone.now(), wakeup_at=None
    )
    return deal


def result_pause(table: Table, least: timedelta, playing: int | None = None) -> timedelta:
    """How long a finished deal's result stays on the table before the next deal
    (docs/DECISIONS.md): at a table of people, the table's shared
    ``result_pause_seconds``; for a person alone with bots, until they press
    "Next deal" (:func:`deal_next_for`) or their turn clock runs out as if it
    were their move; ``least`` when nobody plays any more. A zero ``least``
    (tests, benchmarks) deals at once. ``playing``: the people playing on."""
    if not least:
        return least
    if playing is None:
        playing = table.seats.filter(user__isnull=False, left_at__isnull=True).count()
    if playing == 0:
        return least
    if playing == 1:
        return max(least, timedelta(seconds=table.turn_seconds))
    return max(least, timedelta(seconds=table.result_pause_seconds))


def deal_next_for(table_id: int, user) -> bool:
    """``user``, the one person playing at the table (the rest are bots or
    stand-ins), has read the last deal's result: deal the next deal now. At a
    table of people the table's shared pause decides instead. Returns whether a
    deal was dealt (pressing twice deals once)."""
    with transaction.atomic():
        try:
            table = Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist:
            raise ServiceError(_("There is no such table.")) from None
        match = table.current_match()
        if match is None or match.status != Match.Status.PLAYING:
            raise ServiceError(_("No match is being played at this table."))
        playing = list(table.seats.filter(user__isnull=False, left_at__isnull=True))
        if not user.is_authenticated or user.pk not in {s.user_id for s in playing}:
            raise ServiceError(_("You have no seat at this table."))
        if len(playing) > 1:
            raise ServiceError(
                _("At a table of people the next deal comes after the table's pause.")
            )
        if deal_next(match.pk) is None:
            return False
        table.refresh_from_db(fields=["version"])
        announce_table_changed(table.pk, table.version)
        return True


def score_row_from(match: Match, deal: Deal | None, row) -> ScoreRow:
    """Store one ``engine.match.ScoreRow``."""
    return ScoreRow.objects.create(
        match=match,
        deal=deal,
        number=row.number,
        dealer=row.dealer,
        trump=row.trump,
        taker=row.taker,
        deal_points=list(row.deal_points),
        totals=list(row.totals),
        markers=list(row.markers),
        held_points=row.held_points or 0,
        awarded=_jsonable(row.awarded),
        wins=list(row.wins),
    )


def _jsonable(value):
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value
