"""Starting a tournament: the organiser's ``start``, and the ``do_start`` that
registration (when the field fills) and the periodic runner (when the start time
comes) call too. Closing registration pairs the lone Belote players into teams
(the last one with a bot partner), fills the empty places with bots when the
organiser asked for them and seeds everyone, people before bots; then the first
round begins.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Entrant, Tournament
from games.models.tournaments import MIN_ENTRANTS
from games.services.errors import ServiceError
from games.services.tournaments.common import (
    DEFAULT_PARTNER_LEVEL,
    Status,
    _bump,
    _is_organiser,
    _locked,
)
from games.services.tournaments.entrants import _bot_name, _places_taken, _team_name
from games.services.tournaments.progress import _progress


def check_start(tournament: Tournament, user: User | None) -> None:
    if not _is_organiser(tournament, user):
        raise ServiceError(_("Only the organiser can start the tournament."))
    if tournament.status != Status.REGISTRATION:
        raise ServiceError(_("Only a tournament open for registration can start."))
    # With bots filling the empty places every tournament has its full field
    # (an all-bot one too: a demonstration, or the benchmark).
    if _places_taken(tournament, at_close=True) < MIN_ENTRANTS and not tournament.fill_with_bots:
        raise ServiceError(_("A tournament needs at least two entrants to start."))


def do_start(tournament: Tournament, now: datetime) -> None:
    """Close registration (pair lone Belote players, fill with bots, seed), then
    begin the first round."""
    _close_registration(tournament)
    tournament.status = Status.RUNNING
    tournament.started_at = now
    tournament.wakeup_at = None
    tournament.save(update_fields=["status", "started_at", "wakeup_at"])
    _progress(tournament)
    _bump(tournament)


def start(
    tournament_id: int, user: User | None, now: datetime | None = None
) -> Tournament:
    with transaction.atomic():
        tournament = _locked(tournament_id)
        check_start(tournament, user)
        do_start(tournament, now or timezone.now())
    return tournament


def _close_registration(tournament: Tournament) -> None:
    entrants = list(tournament.entrants.filter(removed=False).order_by("created_at", "id"))
    if tournament.team_play:
        for entrant in entrants:
            if entrant.partner_status == Entrant.PartnerStatus.INVITED:
                entrant.partner = None  # an invite nobody answered: play as a lone player
                entrant.partner_status = Entrant.PartnerStatus.NONE
                entrant.save(update_fields=["partner", "partner_status"])
        alone = [e for e in entrants if e.partner_status == Entrant.PartnerStatus.NONE]
        for first, second in zip(alone[::2], alone[1::2], strict=False):
            first.partner = second.user
            first.partner_status = Entrant.PartnerStatus.ACCEPTED
            # Lone players are people: only a bot entrant has no user.
            assert first.user is not None and second.user is not None
            first.name = _team_name(first.user, second.user)
            first.save(update_fields=["partner", "partner_status", "name"])
            second.delete()
            entrants.remove(second)
        if len(alone) % 2:
            last = alone[-1]
            last.partner_status = Entrant.PartnerStatus.BOT
            last.bot_level = tournament.fill_with_bots or DEFAULT_PARTNER_LEVEL
            last.save(update_fields=["partner_status", "bot_level"])
    if tournament.fill_with_bots:
        for number in range(len(entrants) + 1, tournament.max_entrants + 1):
            entrants.append(
                Entrant.objects.create(
                    tournament=tournament,
                    bot_level=tournament.fill_with_bots,
                    name=_bot_name(number, tournament.fill_with_bots),
                )
            )
    # Seeds in order of registration, people before bots.
    entrants.sort(key=lambda e: (e.user_id is None, e.created_at, e.pk))
    for seed, entrant in enumerate(entrants, start=1):
        entrant.seed = seed
    Entrant.objects.bulk_update(entrants, ["seed"])
