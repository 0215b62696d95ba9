"""What a viewer sees of the tournaments they play in, read on every page:
their tournament matches being played now ("your match is ready") and their
entries in tournaments that have started. Read-only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from games.models import Entrant, Pairing, Table, Tournament
from games.services.tournaments.common import Status


@dataclass(frozen=True)
class ReadyMatch:
    tournament: Tournament
    pairing: Pairing


def ready_matches(user: User | AnonymousUser) -> list[ReadyMatch]:
    """The viewer's tournament matches being played now ("your match is ready")."""
    if not user.is_authenticated:
        return []
    pairings = (
        Pairing.objects.filter(
            status=Pairing.Status.PLAYING,
            table__status=Table.Status.PLAYING,
            tournament__status=Status.RUNNING,
        )
        .filter(
            Q(entrant_a__user=user)
            | Q(entrant_b__user=user)
            | Q(entrant_a__partner=user, entrant_a__partner_status=Entrant.PartnerStatus.ACCEPTED)
            | Q(entrant_b__partner=user, entrant_b__partner_status=Entrant.PartnerStatus.ACCEPTED)
        )
        .select_related("tournament", "table")
    )
    return [ReadyMatch(p.tournament, p) for p in pairings]


def tournaments_of(user: User) -> QuerySet[Entrant]:
    """Entries of ``user`` (as player or accepted partner) in started tournaments."""
    return (
        Entrant.objects.filter(
            Q(user=user) | Q(partner=user, partner_status=Entrant.PartnerStatus.ACCEPTED)
        )
        .exclude(seed=None)
        .select_related("tournament")
        .order_by("-tournament__created_at")
    )
