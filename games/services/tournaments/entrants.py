"""Who the entrants are and how many places they take: the entry of a user
(as player or accepted partner), the count against the capacity in which two lone
Belote players make one team, and the names shown for a person, a team and a bot
entrant. Registration, closing it at the start and the organiser's checks all
read entrants through these; the module changes nothing in the database.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils.translation import gettext as _

from games.models import BotLevel, Entrant, Tournament


def _entered(tournament: Tournament, user: User) -> Entrant | None:
    return (
        tournament.entrants.filter(Q(user=user) | Q(partner=user))
        .exclude(partner=user, partner_status=Entrant.PartnerStatus.INVITED)
        .first()
    )


def _places_taken(tournament: Tournament, at_close: bool = False) -> int:
    """Entrants counted against the capacity: two lone Belote players make one
    team. ``at_close``: as registration closing would leave them (an unanswered
    invite counts as a lone player)."""
    entrants = list(tournament.entrants.filter(removed=False))
    if not tournament.team_play:
        return len(entrants)
    lone = [Entrant.PartnerStatus.NONE]
    if at_close:
        lone.append(Entrant.PartnerStatus.INVITED)
    alone = sum(1 for e in entrants if e.partner_status in lone)
    return len(entrants) - alone + (alone + 1) // 2


def _person_name(user: User) -> str:
    player = getattr(user, "player", None)
    return player.display_name if player else user.get_username()


def _team_name(first: User, second: User) -> str:
    return _("%(first)s and %(second)s") % {
        "first": _person_name(first),
        "second": _person_name(second),
    }


def _bot_name(number: int, level: str) -> str:
    return _("Bot %(n)s (%(level)s)") % {"n": number, "level": BotLevel(level).label}
