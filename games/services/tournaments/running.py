"""The periodic runner's entry points. ``advance_due`` picks the tournaments
whose ``wakeup_at`` has come (a start time, or a match that finished) and calls
``advance`` on each, which starts a tournament whose start time came (or cancels
it when too few entered) and otherwise moves a running one on. One tournament
that fails is logged and retried later without stopping the others.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Tournament
from games.services.errors import ServiceError
from games.services.tournaments.common import OPEN_STATUSES, Status, _bump, _locked
from games.services.tournaments.organiser import do_cancel
from games.services.tournaments.progress import _progress
from games.services.tournaments.starting import check_start, do_start

# The package's name, as before it was split: log handling keyed on it still applies.
log = logging.getLogger("games.services.tournaments")


def advance_due(now: datetime | None = None, limit: int = 20) -> int:
    """The periodic runner's call: start tournaments whose start time came and move on
    those a finished match woke. Returns how many changed."""
    now = now or timezone.now()
    due = list(
        Tournament.objects.filter(wakeup_at__lte=now, status__in=OPEN_STATUSES)
        .order_by("wakeup_at")
        .values_list("pk", flat=True)[:limit]
    )
    changed = 0
    for tournament_id in due:
        try:
            changed += advance(tournament_id, now)
        except Exception:  # one broken tournament must not stop the others
            log.exception("tournament %s: could not advance", tournament_id)
            Tournament.objects.filter(pk=tournament_id).update(
                wakeup_at=now + timedelta(seconds=30)
            )
    return changed


def advance(tournament_id: int, now: datetime | None = None) -> bool:
    """Do whatever is due for the tournament now. Returns whether anything changed."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.wakeup_at is None or tournament.wakeup_at > now:
            return False  # another process got here first
        tournament.wakeup_at = None
        tournament.save(update_fields=["wakeup_at"])
        if tournament.status == Status.REGISTRATION:
            try:
                check_start(tournament, None)
            except ServiceError:
                do_cancel(tournament, now)  # nobody came
                return True
            do_start(tournament, now)
            return True
        if tournament.status != Status.RUNNING:
            return False
        changed = _progress(tournament)
        if changed:
            _bump(tournament)
        return changed
