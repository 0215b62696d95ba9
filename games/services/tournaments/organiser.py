"""What the organiser (or staff, in the admin) may do to a tournament that is
not over: cancel it, which ends every table still playing with no winner, or
remove an entrant, who is simply gone before the start and afterwards forfeits
the match being played and every later one. Tables are locked before the
tournament, in the order a finishing move takes them, so the two cannot deadlock.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Entrant, Match, Pairing, Table, Tournament
from games.services.errors import ServiceError
from games.services.matches import announce_tournament_match
from games.services.tournaments.common import (
    OPEN_STATUSES,
    Status,
    _bump,
    _is_organiser,
    _locked,
)
from games.services.tournaments.progress import _progress


def check_cancel(tournament: Tournament, user: User | None) -> None:
    if not _is_organiser(tournament, user):
        raise ServiceError(_("Only the organiser can cancel the tournament."))
    if tournament.status not in OPEN_STATUSES:
        raise ServiceError(_("This tournament is already over."))


def do_cancel(tournament: Tournament, now: datetime) -> None:
    """Stop every table still playing (their matches end without a winner)."""
    for pairing in tournament.pairings.filter(status=Pairing.Status.PLAYING):
        _stop(pairing, winner_side=None, now=now)
        pairing.status = Pairing.Status.FINISHED
        pairing.save(update_fields=["status"])
    tournament.status = Status.CANCELLED
    tournament.finished_at = now
    tournament.wakeup_at = None
    tournament.save(update_fields=["status", "finished_at", "wakeup_at"])
    _bump(tournament)


def _lock_tables(tournament_id: int, entrant_id: int | None = None) -> None:
    """Lock the tables still playing (of one entrant, or all) before the
    tournament: a move that ends a match holds its table's lock and then wakes
    the tournament, so taking them in the same order cannot deadlock."""
    pairings = Pairing.objects.filter(tournament_id=tournament_id, status=Pairing.Status.PLAYING)
    if entrant_id is not None:
        pairings = pairings.filter(Q(entrant_a_id=entrant_id) | Q(entrant_b_id=entrant_id))
    ids = list(pairings.exclude(table=None).values_list("table_id", flat=True))
    list(Table.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk"))


def cancel(tournament_id: int, user: User | None) -> Tournament:
    with transaction.atomic():
        _lock_tables(tournament_id)
        tournament = _locked(tournament_id)
        check_cancel(tournament, user)
        do_cancel(tournament, timezone.now())
    return tournament


def remove_entrant(entrant_id: int, user: User | None) -> None:
    """Take an entrant out. Before the start they are simply gone; once running,
    the match they are playing and every later one is a forfeit, recorded as such."""
    entrant = Entrant.objects.filter(pk=entrant_id).first()
    if entrant is None:
        raise ServiceError(_("There is no such entrant."))
    with transaction.atomic():
        _lock_tables(entrant.tournament_id, entrant_id)
        tournament = _locked(entrant.tournament_id)
        entrant = Entrant.objects.select_for_update().get(pk=entrant_id)
        if not _is_organiser(tournament, user):
            raise ServiceError(_("Only the organiser can remove an entrant."))
        if tournament.status not in OPEN_STATUSES:
            raise ServiceError(_("This tournament is already over."))
        if entrant.removed:
            return  # done before: nothing more to do
        if tournament.status != Status.RUNNING:
            entrant.delete()
            _bump(tournament)
            return
        entrant.removed = True
        entrant.save(update_fields=["removed"])
        now = timezone.now()
        for pairing in tournament.pairings.filter(
            Q(entrant_a=entrant) | Q(entrant_b=entrant), status=Pairing.Status.PLAYING
        ):
            winner_side = 1 if pairing.entrant_a_id == entrant.pk else 0
            _stop(pairing, winner_side=winner_side, now=now)
            pairing.forfeit = True
            pairing.status = Pairing.Status.FINISHED
            pairing.winner_id = pairing.entrant_b_id if winner_side else pairing.entrant_a_id
            pairing.save(update_fields=["forfeit", "status", "winner"])
        _progress(tournament)
        _bump(tournament)


def _stop(pairing: Pairing, winner_side: int | None, now: datetime) -> None:
    """End a pairing's table: the conductor leaves finished tables alone."""
    if pairing.table_id:
        Table.objects.filter(pk=pairing.table_id).update(
            status=Table.Status.FINISHED, version=F("version") + 1, wakeup_at=None
        )
        announce_tournament_match(pairing.table_id)
    if pairing.match_id:
        Match.objects.filter(pk=pairing.match_id, status=Match.Status.PLAYING).update(
            status=Match.Status.FINISHED, winner=winner_side, finished_at=now
        )
