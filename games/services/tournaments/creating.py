"""Creating a tournament: the organiser's choices are checked (variant and
rule set, format, kind, bot level, capacity, start time, table timings; only
staff may feature one), then the tournament is saved open for registration or as
a draft. The organiser's daily limit and bot work are counted before it is made
and given back if saving fails.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import BotLevel, Kind, RuleSetConfig, Tournament
from games.models.tournaments import MAX_ENTRANTS, MIN_ENTRANTS
from games.services import botwork
from games.services.errors import ServiceError
from games.services.tables import TIMING_FIELDS, check_format
from games.services.tournaments.common import Status


def create_tournament(
    *,
    user: User,
    name: str,
    variant: str,
    kind: str,
    fmt: str,
    rule_set: RuleSetConfig,
    max_entrants: int,
    rounds: int | None = None,
    fill_with_bots: str = "",
    third_place: bool = False,
    featured: bool = False,
    starts_at: datetime | None = None,
    open_registration: bool = True,
    rated: bool = False,
    **timing: int,
) -> Tournament:
    """A new tournament organised by ``user`` (only staff may feature one), open
    for registration at once unless ``open_registration`` is False (a draft)."""
    if rule_set.variant != variant:
        raise ServiceError(_("This rule set is for another variant."))
    parsed = check_format(variant, fmt)
    if kind not in Kind.values:
        raise ServiceError(_("Unknown kind of tournament."))
    if fill_with_bots and fill_with_bots not in BotLevel.values:
        raise ServiceError(_("Unknown bot level."))
    if featured and not getattr(user, "is_staff", False):
        raise ServiceError(_("Only staff can feature a tournament."))
    if rounds is not None and kind != Kind.SWISS:
        raise ServiceError(_("Only a Swiss tournament has a chosen number of rounds."))
    if not MIN_ENTRANTS <= max_entrants <= MAX_ENTRANTS:
        raise ServiceError(
            _("A tournament has between %(low)s and %(high)s entrants.")
            % {"low": MIN_ENTRANTS, "high": MAX_ENTRANTS}
        )
    if starts_at is not None and starts_at <= timezone.now():
        raise ServiceError(_("The start time must be in the future."))
    unknown = set(timing) - TIMING_FIELDS
    if unknown:
        raise ServiceError(_("Unknown table setting."))
    tournament = Tournament(
        name=name.strip(),
        variant=variant,
        kind=kind,
        rule_set=rule_set,
        rule_set_name=rule_set.name,
        rules_snapshot=rule_set.rules().overrides(),
        format=str(parsed),
        max_entrants=max_entrants,
        rounds=rounds,
        third_place=third_place and kind == Kind.KNOCKOUT,
        fill_with_bots=fill_with_bots,
        featured=featured,
        rated=rated,
        starts_at=starts_at,
        created_by=user,
        status=Status.REGISTRATION if open_registration else Status.DRAFT,
        wakeup_at=starts_at,
        **timing,
    )
    if not tournament.name:
        raise ServiceError(_("The tournament needs a name."))
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages)) from None
    # Counted before it is made: a daily limit, and the bot work its
    # bots-only matches would add to what the organiser's bots already do.
    ticket = botwork.take_tournament_creation(user)
    try:
        with transaction.atomic():
            botwork.lock_person(user)
            botwork.check_tournament_room(user, max_entrants, fill_with_bots)
            tournament.save()
    except BaseException:
        ticket.give_back()
        raise
    return tournament
