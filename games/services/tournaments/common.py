"""What every step of a tournament's life shares: its statuses and the three
helpers each public step is built on. A step takes the tournament's row lock
(:func:`_locked`, raising a ``ServiceError`` for a tournament that does not
exist), asks whether the caller may act as the organiser (:func:`_is_organiser`;
``None`` is the server itself), and bumps the stored ``version`` after a change
(:func:`_bump`), which is how the tournament's page knows to redraw. Nothing here
imports another module of the package: every other module stands on this one.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import F
from django.utils.translation import gettext as _

from games.models import BotLevel, Tournament
from games.services.errors import ServiceError

Status = Tournament.Status
#: The level of a bot partner given to a lone Belote player when the organiser
#: chose no bot level.
DEFAULT_PARTNER_LEVEL = BotLevel.NORMAL
#: Statuses in which the tournament's tables are still to be played.
OPEN_STATUSES = (Status.DRAFT, Status.REGISTRATION, Status.RUNNING)


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise ServiceError(_("There is no such tournament.")) from None


def _bump(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.refresh_from_db(fields=["version"])


def _is_organiser(tournament: Tournament, user: User | None) -> bool:
    if user is None:  # the server itself (the start time came)
        return True
    return tournament.created_by_id == user.pk or getattr(user, "is_staff", False)
