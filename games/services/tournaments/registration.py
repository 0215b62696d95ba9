"""Registration: the organiser opens a draft for it, then players enter (a
Belote player alone or inviting a partner), withdraw, and answer invitations.
When the field is full, no invitation waits for an answer and no start time was
set, the entry that fills it starts the tournament at once.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Entrant, Tournament
from games.services.errors import ServiceError
from games.services.tournaments.common import Status, _bump, _is_organiser, _locked
from games.services.tournaments.entrants import (
    _entered,
    _person_name,
    _places_taken,
    _team_name,
)
from games.services.tournaments.starting import do_start


def check_open(tournament: Tournament, user: User | None) -> None:
    if not _is_organiser(tournament, user):
        raise ServiceError(_("Only the organiser can open registration."))
    if tournament.status != Status.DRAFT:
        raise ServiceError(_("Registration can only be opened for a draft tournament."))


def do_open(tournament: Tournament) -> None:
    tournament.status = Status.REGISTRATION
    tournament.wakeup_at = tournament.starts_at  # the conductor starts it then
    tournament.save(update_fields=["status", "wakeup_at"])
    _bump(tournament)


def open_registration(tournament_id: int, user: User | None) -> Tournament:
    with transaction.atomic():
        tournament = _locked(tournament_id)
        check_open(tournament, user)
        do_open(tournament)
    return tournament


def check_register(
    tournament: Tournament, user: User, partner: User | None
) -> None:
    if tournament.status != Status.REGISTRATION:
        raise ServiceError(_("Registration is not open for this tournament."))
    if _entered(tournament, user) is not None:
        raise ServiceError(_("You are already registered in this tournament."))
    if partner is not None:
        if not tournament.team_play:
            raise ServiceError(_("Only Belote tournaments are played by teams with partners."))
        if partner.pk == user.pk:
            raise ServiceError(_("You cannot be your own partner."))
        if tournament.entrants.filter(Q(user=partner) | Q(partner=partner)).exists():
            raise ServiceError(_("That player is already registered or invited."))
    if _places_taken(tournament) >= tournament.max_entrants:
        raise ServiceError(_("This tournament is full."))


def do_register(
    tournament: Tournament, user: User, partner: User | None
) -> Entrant:
    entrant = Entrant.objects.create(
        tournament=tournament,
        user=user,
        partner=partner,
        partner_status=(
            Entrant.PartnerStatus.INVITED if partner is not None else Entrant.PartnerStatus.NONE
        ),
        name=_person_name(user),
    )
    _bump(tournament)
    return entrant


def register(tournament_id: int, user: User, partner_username: str = "") -> Entrant:
    """Enter ``user`` (Belote: with ``partner_username`` invited as partner, or alone)."""
    partner = None
    if partner_username.strip():
        partner = get_user_model().objects.filter(username=partner_username.strip()).first()
        if partner is None:
            raise ServiceError(_("There is no player with that username."))
    with transaction.atomic():
        tournament = _locked(tournament_id)
        check_register(tournament, user, partner)
        entrant = do_register(tournament, user, partner)
        if _full_and_settled(tournament):
            # Registration closes when full: with no start time, play begins now.
            do_start(tournament, timezone.now())
        return entrant


def _full_and_settled(tournament: Tournament) -> bool:
    """Full, no invitation waits for an answer, and no start time was set."""
    return (
        tournament.starts_at is None
        and _places_taken(tournament) >= tournament.max_entrants
        and not tournament.entrants.filter(partner_status=Entrant.PartnerStatus.INVITED).exists()
    )


def withdraw(tournament_id: int, user: User) -> None:
    """Leave a tournament before it starts (the partner's team goes with it)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Status.REGISTRATION:
            raise ServiceError(_("You can only withdraw while registration is open."))
        entrant = _entered(tournament, user)
        if entrant is None:
            raise ServiceError(_("You are not registered in this tournament."))
        if entrant.user_id == user.pk:
            entrant.delete()
        else:  # the partner leaves; the one who invited them stays, alone
            entrant.partner = None
            entrant.partner_status = Entrant.PartnerStatus.NONE
            assert entrant.user is not None  # a person's entry: only a bot has no user
            entrant.name = _person_name(entrant.user)
            entrant.save(update_fields=["partner", "partner_status", "name"])
        _bump(tournament)


def answer_invite(tournament_id: int, user: User, accept: bool) -> Entrant:
    """The invited partner accepts (the team is complete) or declines (the one
    who invited them stays registered, alone)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Status.REGISTRATION:
            raise ServiceError(_("Registration is not open for this tournament."))
        entrant = tournament.entrants.filter(
            partner=user, partner_status=Entrant.PartnerStatus.INVITED
        ).first()
        if entrant is None:
            raise ServiceError(_("You have no invitation in this tournament."))
        if accept:
            if tournament.entrants.filter(user=user).exists():
                raise ServiceError(_("You are already registered in this tournament."))
            entrant.partner_status = Entrant.PartnerStatus.ACCEPTED
            assert entrant.user is not None  # it invited a partner: a person's entry
            entrant.name = _team_name(entrant.user, user)
        else:
            entrant.partner = None
            entrant.partner_status = Entrant.PartnerStatus.NONE
        entrant.save(update_fields=["partner", "partner_status", "name"])
        _bump(tournament)
        if _full_and_settled(tournament):
            do_start(tournament, timezone.now())
        return entrant
