"""A tournament's life: draft -> registration -> running -> finished (or cancelled).

Every step is ``check_...`` (refuses with a ``ServiceError`` and changes nothing)
then ``do_...`` (makes the change), run by the public function in one
transaction holding the tournament's row lock. Each step re-reads the stored
state, so running it twice, or in two processes at once, changes nothing the
second time: the second caller waits for the lock, then finds the work done.

Progression keeps no state in memory. A finished match sets its tournament's
``wakeup_at`` (``games.services.matches.finish_deal``); the periodic runner calls
:func:`advance_due`, which records results, begins the next round or the ready
knockout matches (their tables created with the entrants seated, bots filling
bot places), and finishes the tournament when nothing is left to play. Which
pairings, bracket and standings are the right ones is decided by the pure
functions of ``engine.tournament``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import tournament as pure
from engine.rules import SEATS
from games.models import (
    BotLevel,
    Entrant,
    Kind,
    Match,
    Pairing,
    RuleSetConfig,
    Seat,
    Table,
    Tournament,
    TournamentRound,
)
from games.models.tournaments import MAX_ENTRANTS, MIN_ENTRANTS
from games.services import botwork
from games.services.errors import ServiceError
from games.services.matches import announce_tournament_match, start_match
from games.services.tables import TIMING_FIELDS, check_format, new_table

log = logging.getLogger(__name__)

Status = Tournament.Status
#: The level of a bot partner given to a lone Belote player when the organiser
#: chose no bot level.
DEFAULT_PARTNER_LEVEL = BotLevel.NORMAL
#: Statuses in which the tournament's tables are still to be played.
OPEN_STATUSES = (Status.DRAFT, Status.REGISTRATION, Status.RUNNING)


# --- creating ------------------------------------------------------------------------------


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


# --- registration --------------------------------------------------------------------------


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
            entrant.name = _team_name(entrant.user, user)
        else:
            entrant.partner = None
            entrant.partner_status = Entrant.PartnerStatus.NONE
        entrant.save(update_fields=["partner", "partner_status", "name"])
        _bump(tournament)
        if _full_and_settled(tournament):
            do_start(tournament, timezone.now())
        return entrant


def _person_name(user) -> str:
    player = getattr(user, "player", None)
    return player.display_name if player else user.get_username()


def _team_name(first, second) -> str:
    return _("%(first)s and %(second)s") % {
        "first": _person_name(first),
        "second": _person_name(second),
    }


def _bot_name(number: int, level: str) -> str:
    return _("Bot %(n)s (%(level)s)") % {"n": number, "level": BotLevel(level).label}


# --- starting ------------------------------------------------------------------------------


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


# --- running -------------------------------------------------------------------------------


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


def _progress(tournament: Tournament) -> bool:
    """Record finished matches, begin what is ready, finish when all is played."""
    changed = _record_results(tournament)
    # Forfeits decide matches as they are made, which may make more ready: go on
    # until nothing new begins (bounded, whatever the stored data says).
    for _attempt in range(2 * MAX_ENTRANTS):
        if tournament.kind == Kind.KNOCKOUT:
            began = _begin_ready_knockout_matches(tournament)
        else:
            began = _begin_next_round(tournament)
        if began is None:  # nothing is left to play
            _finish(tournament)
            return True
        if not began:
            break
        changed = True
    return changed


def _record_results(tournament: Tournament) -> bool:
    playing = list(
        tournament.pairings.filter(
            status=Pairing.Status.PLAYING, match__status=Match.Status.FINISHED
        ).select_related("match")
    )
    for pairing in playing:
        match = pairing.match
        assert match is not None
        last = match.score_rows.order_by("-number").first()
        totals = last.totals if last is not None else [0, 0]
        pairing.points_a, pairing.points_b = totals[0], totals[1]
        if match.winner is not None:
            pairing.winner_id = pairing.entrant_a_id if match.winner == 0 else pairing.entrant_b_id
        pairing.status = Pairing.Status.FINISHED
        pairing.save(update_fields=["points_a", "points_b", "winner", "status"])
    return bool(playing)


def entrant_ids(tournament: Tournament) -> list[int]:
    """Entrants in seed order (the pure functions' input)."""
    return list(
        tournament.entrants.exclude(seed=None).order_by("seed").values_list("pk", flat=True)
    )


def results(tournament: Tournament) -> list[pure.Result]:
    return [
        pure.Result(
            round=p.round,
            a=p.entrant_a_id,
            b=p.entrant_b_id,
            winner=p.winner_id,
            points=(p.points_a, p.points_b),
            forfeit=p.forfeit,
        )
        for p in tournament.pairings.filter(status=Pairing.Status.FINISHED).order_by(
            "round", "index"
        )
    ]


def knockout_bracket(tournament: Tournament) -> list[list[pure.BracketMatch]]:
    winners = {
        (p.round, p.index): p.winner_id
        for p in tournament.pairings.filter(status=Pairing.Status.FINISHED, winner__isnull=False)
        if p.winner_id is not None
    }
    return pure.bracket(entrant_ids(tournament), winners, tournament.third_place)


def total_rounds(tournament: Tournament, count: int | None = None) -> int:
    count = count if count is not None else len(entrant_ids(tournament))
    if tournament.kind == Kind.KNOCKOUT:
        return pure.knockout_rounds(count)
    if tournament.kind == Kind.ROUND_ROBIN:
        return pure.round_robin_rounds(count)
    return tournament.rounds or pure.swiss_rounds_for(count)


def _begin_ready_knockout_matches(tournament: Tournament) -> bool | None:
    """Open every bracket match whose two entrants are known. None: the final
    (and the third-place match) is decided."""
    rounds = knockout_bracket(tournament)
    last = rounds[-1]
    if all(m.winner is not None for m in last):
        return None
    stored = set(tournament.pairings.values_list("round", "index"))
    began = False
    for match in (m for r in rounds for m in r):
        if match.ready and match.key not in stored:
            TournamentRound.objects.get_or_create(tournament=tournament, number=match.round)
            assert match.a is not None and match.b is not None
            _begin_pairing(
                tournament, match.round, match.index, match.a, match.b, match.third_place
            )
            began = True
    return began


def _begin_next_round(tournament: Tournament) -> bool | None:
    """Swiss / round robin: begin the next round once the current one is over.
    None: the last round is over."""
    if tournament.pairings.filter(status=Pairing.Status.PLAYING).exists():
        return False
    played = tournament.round_set.count()
    entrants = entrant_ids(tournament)
    if played >= total_rounds(tournament, len(entrants)):
        return None
    number = played + 1
    if tournament.kind == Kind.SWISS:
        pairs = pure.swiss_pairings(entrants, results(tournament))
    else:
        pairs = pure.round_robin_round(entrants, number)
    TournamentRound.objects.create(tournament=tournament, number=number)
    for index, pair in enumerate(pairs, start=1):
        if pair.b is None:
            Pairing.objects.create(
                tournament=tournament,
                round=number,
                index=index,
                entrant_a_id=pair.a,
                status=Pairing.Status.FINISHED,
                winner_id=pair.a,
            )
        else:
            _begin_pairing(tournament, number, index, pair.a, pair.b, False)
    return True


def _begin_pairing(
    tournament: Tournament, round_number: int, index: int, a_id: int, b_id: int, third: bool
) -> Pairing:
    """Store the pairing and open its table with both entrants seated; a removed
    entrant's match is a forfeit instead (no table)."""
    a, b = Entrant.objects.get(pk=a_id), Entrant.objects.get(pk=b_id)
    pairing = Pairing(
        tournament=tournament,
        round=round_number,
        index=index,
        entrant_a=a,
        entrant_b=b,
        third_place=third,
    )
    if a.removed or b.removed:
        pairing.forfeit = True
        pairing.status = Pairing.Status.FINISHED
        # Both gone: a knockout still needs someone to go through; the higher seed does.
        both_gone = a.removed and b.removed
        if not both_gone or tournament.kind == Kind.KNOCKOUT:
            pairing.winner = b if a.removed and not both_gone else a
        pairing.save()
        return pairing
    table = _open_table(tournament, a, b)
    pairing.table = table
    pairing.match = table.current_match()
    pairing.save()
    announce_tournament_match(table.pk)
    return pairing


def _open_table(tournament: Tournament, a: Entrant, b: Entrant) -> Table:
    table = new_table(
        tournament,
        tournament.format,
        created_by=tournament.created_by,
        turn_seconds=tournament.turn_seconds,
        disconnect_grace_seconds=tournament.disconnect_grace_seconds,
        bot_delay_ms=tournament.bot_delay_ms,
    )
    table.save()
    # Seats alternate between the sides: entrant a holds the even seats (side 0).
    per_side = SEATS[tournament.variant] // 2
    for member in range(per_side):
        for side, entrant in enumerate((a, b)):
            user_id, level = _member(tournament, entrant, member)
            Seat.objects.create(
                table=table, index=member * 2 + side, user_id=user_id, bot_level=level
            )
    if tournament.rated and not table.seats.filter(bot_level__isnull=False).exists():
        table.rated = True  # rated play is people only: a bot's match is not rated
        table.save(update_fields=["rated"])
    match = start_match(table)
    Match.objects.filter(pk=match.pk).update(tournament=tournament)
    _name_bots(match, a, b)
    return table


def _name_bots(match: Match, a: Entrant, b: Entrant) -> None:
    """A bot entrant is the same bot, with the same name, on its table as in the
    bracket and the standings (not "Bot <seat>"); a bot that only partners an
    entrant is a partner bot, numbered like no entrant."""
    for participant in match.participants.filter(bot_level__isnull=False):
        entrant = (a, b)[participant.index % 2]
        entrant_bot = entrant.is_bot and participant.index < 2 and entrant.seed
        participant.bot_number = entrant.seed if entrant_bot else 0
        participant.name = participant.shown_name
        participant.save(update_fields=["bot_number", "name"])


def _member(tournament: Tournament, entrant: Entrant, member: int) -> tuple[int | None, str | None]:
    """Who sits in the entrant's ``member``-th seat: a user id or a bot level."""
    level = entrant.bot_level or tournament.fill_with_bots or DEFAULT_PARTNER_LEVEL
    if member == 0:
        return (entrant.user_id, None) if entrant.user_id else (None, level)
    if entrant.partner_id and entrant.partner_status == Entrant.PartnerStatus.ACCEPTED:
        return entrant.partner_id, None
    return None, level


def _finish(tournament: Tournament) -> None:
    for entrant_id, place in placings(tournament).items():
        Entrant.objects.filter(pk=entrant_id).update(place=place)
    tournament.status = Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])


def placings(tournament: Tournament) -> dict[int, int]:
    if tournament.kind == Kind.KNOCKOUT:
        return pure.knockout_placings(knockout_bracket(tournament))
    return {s.entrant: s.rank for s in standings(tournament)}


def standings(tournament: Tournament) -> list[pure.Standing]:
    return pure.standings(entrant_ids(tournament), results(tournament), tournament.kind)


# --- organiser and admin -------------------------------------------------------------------


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


# --- what a viewer sees --------------------------------------------------------------------


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
