"""Following players and challenging them: the only code that changes ``Follow``
and ``Challenge`` rows.

A challenge names the challenged player and, at Belote, optionally the
challenger's partner; every person it names must accept. When the last one
accepts, the table is opened with everyone seated and all of them are sent to
it (``challenge-accepted``, pushed to every page they have open). Seats nobody
was named for are a Normal bot in a casual match, and an open seat in a rated one
(rated play is people only): that table waits, listed in the lobby, until someone
takes the seat. A challenge not answered within :func:`ttl` expires.

Every refusal raises ``ServiceError`` with a sentence for the person who asked
and changes nothing. After each change the people concerned are told through
``games.services.changes.announce_to_user`` (after commit): ``"challenge"``
means "what you are shown of challenges changed, draw it again".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.match import MatchFormat
from engine.rules import BELOTE, SEATS
from games import ratelimit
from games.models import (
    BotLevel,
    Challenge,
    Follow,
    Game,
    Player,
    Seat,
    Table,
    names,
    variant_of_game,
)
from games.services import bots
from games.services.changes import announce_to_user
from games.services.errors import ServiceError
from games.services.matches import in_running_rated_match, start_match
from games.services.tables import check_format, game_rule_sets, new_table

#: Challenges one person may have waiting for answers at once.
MAX_PENDING_SENT = 5
#: Challenges one person may send per hour (a flood of notifications is abuse).
SENT_PER_HOUR = ratelimit.Limit(30, 3600)
#: Who fills a seat nobody was named for, in a casual match.
FILL_LEVEL = BotLevel.NORMAL
#: How long a declined or expired challenge stays in its challenger's notices.
OUTCOME_SHOWN = timedelta(days=1)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


def ttl() -> timedelta:
    return timedelta(seconds=settings.BLOT_CHALLENGE_TTL_S)


def _signed_in(user: User | AnonymousUser | None, message: str) -> User:
    if user is None or not user.is_authenticated:
        raise ServiceError(message)
    return user


def find_person(name: str) -> User | None:
    """The player called ``name``: a username, or a display name (compared as
    names are: case-folded, NFKC)."""
    name = (name or "").strip()
    if not name:
        return None
    model = get_user_model()
    found = model.objects.filter(username=name, is_active=True).first()
    if found is not None:
        return found
    player = Player.objects.filter(name_key=names.key(name), user__is_active=True).first()
    return player.user if player is not None else None


# --- following -------------------------------------------------------------------------


def follow(user: User | AnonymousUser | None, other: User) -> Follow:
    """``user`` follows ``other`` (again: nothing changes)."""
    user = _signed_in(user, _("Log in to follow players."))
    if user.pk == other.pk:
        raise ServiceError(_("You cannot follow yourself."))
    try:
        with transaction.atomic():
            row, _created = Follow.objects.get_or_create(follower=user, followed=other)
    except IntegrityError:  # the same click twice at once: the other one made it
        row = Follow.objects.get(follower=user, followed=other)
    return row


def unfollow(user: User | AnonymousUser | None, other: User) -> bool:
    """Stop following; whether ``user`` was following ``other``."""
    user = _signed_in(user, _("Log in to follow players."))
    deleted, _rows = Follow.objects.filter(follower=user, followed=other).delete()
    return bool(deleted)


def is_following(user: User | AnonymousUser | None, other: User) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Follow.objects.filter(follower=user, followed=other).exists()


def followed(user: User) -> list[User]:
    """The people ``user`` follows, by display name."""
    model = get_user_model()
    return list(
        model.objects.filter(followers__follower=user)
        .select_related("player")
        .order_by("player__display_name", "username")
    )


def tables_playing(user_ids: list[int]) -> dict[int, list[Table]]:
    """The tables each of ``user_ids`` is seated at with a match being played."""
    seats = (
        Seat.objects.filter(user_id__in=user_ids, table__status=Table.Status.PLAYING)
        .select_related("table")
        .order_by("-table__created_at")
    )
    playing: dict[int, list[Table]] = {}
    for seat in seats:
        assert seat.user_id is not None
        playing.setdefault(seat.user_id, []).append(seat.table)
    return playing


# --- challenges ------------------------------------------------------------------------


def _pending(now: datetime) -> Q:
    return Q(status=Challenge.Status.PENDING, expires_at__gt=now)


def create_challenge(
    challenger: User | AnonymousUser | None,
    challenged: User | None,
    *,
    variant: str,
    fmt: str,
    rated: bool = False,
    partner_name: str = "",
) -> Challenge:
    """``challenger`` invites ``challenged`` (and at Belote ``partner_name``, their
    partner) to a match; every person named is told at once."""
    challenger = _signed_in(challenger, _("Log in to challenge a player."))
    if challenged is None or not challenged.is_active:
        raise ServiceError(_("There is no such player."))
    if challenged.pk == challenger.pk:
        raise ServiceError(_("You cannot challenge yourself."))
    # ``variant`` names the challenge's game: a variant, or Coinche.
    if variant not in Game.values:
        raise ServiceError(_("Unknown variant."))
    parsed = check_format(variant_of_game(variant), fmt)
    partner = None
    if (partner_name or "").strip():
        if variant_of_game(variant) != BELOTE:
            raise ServiceError(_("Only Belote is played with a partner."))
        partner = find_person(partner_name)
        if partner is None:
            raise ServiceError(_("There is no player with the partner's name."))
        if partner.pk in (challenger.pk, challenged.pk):
            raise ServiceError(_("Your partner must be someone other than you and your opponent."))
    if rated and in_running_rated_match(challenger.pk):
        raise ServiceError(
            _("Finish your rated match before you challenge someone to another rated match.")
        )
    # Counted before the work, atomically: of many sent at once, only the
    # limit's worth get through; a challenge that is then refused is uncounted.
    ticket = ratelimit.take("challenge", str(challenger.pk), SENT_PER_HOUR)
    if ticket is None:
        raise ServiceError(_("You have sent many challenges this hour. Please wait a while."))
    try:
        challenge = _create_challenge(challenger, challenged, partner, variant, parsed, rated)
    except ServiceError:
        ticket.give_back()
        raise
    return challenge


def _create_challenge(
    challenger: User,
    challenged: User,
    partner: User | None,
    variant: str,
    parsed: MatchFormat,
    rated: bool,
) -> Challenge:
    now = timezone.now()
    with transaction.atomic():
        # Serialise one challenger's challenges: two at once cannot both pass the checks.
        get_user_model().objects.select_for_update().filter(pk=challenger.pk).first()
        sent = Challenge.objects.filter(_pending(now), challenger=challenger)
        if sent.filter(challenged=challenged).exists():
            raise ServiceError(
                _("You have already challenged this player. Please wait for their answer.")
            )
        if sent.count() >= MAX_PENDING_SENT:
            raise ServiceError(
                ngettext(
                    "You have %(count)d challenge waiting for an answer, the most allowed. "
                    "Please cancel it or wait for the answer.",
                    "You have %(count)d challenges waiting for an answer, the most allowed. "
                    "Please cancel one or wait for the answers.",
                    MAX_PENDING_SENT,
                )
                % {"count": MAX_PENDING_SENT}
            )
        challenge = Challenge.objects.create(
            challenger=challenger,
            challenged=challenged,
            partner=partner,
            variant=variant,
            format=str(parsed),
            rated=rated,
            expires_at=now + ttl(),
        )
        _tell_everyone(challenge)
    return challenge


def _row(challenge_id: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None:
        raise ServiceError(_("This challenge does not exist."))
    return challenge


def _check_waiting(challenge: Challenge, now: datetime) -> None:
    """Refuse unless the challenge still waits for answers."""
    if challenge.status == Challenge.Status.PENDING and challenge.expires_at <= now:
        raise ServiceError(_("This challenge has expired."))
    if challenge.status == Challenge.Status.ACCEPTED:
        raise ServiceError(_("This challenge has already been accepted."))
    if challenge.status == Challenge.Status.DECLINED:
        raise ServiceError(_("This challenge has been declined."))
    if challenge.status == Challenge.Status.CANCELLED:
        raise ServiceError(_("This challenge has been cancelled."))
    if challenge.status == Challenge.Status.EXPIRED:
        raise ServiceError(_("This challenge has expired."))


def _answerer(challenge: Challenge, user: User) -> str:
    """Which answer ``user`` gives: ``"challenged"`` or ``"partner"``."""
    if user.pk == challenge.challenged_id:
        return "challenged"
    if user.pk == challenge.partner_id:
        return "partner"
    raise ServiceError(_("This challenge is not addressed to you."))


def accept(challenge_id: int, user: User | AnonymousUser | None) -> Challenge:
    """``user`` accepts. Once everyone named has, the table opens with them all
    seated and everyone is sent to it; ``challenge.table`` is set then."""
    user = _signed_in(user, _("Log in to answer a challenge."))
    with transaction.atomic():
        now = timezone.now()
        challenge = _row(challenge_id)
        role = _answerer(challenge, user)  # first: a stranger learns nothing more
        _check_waiting(challenge, now)
        _check_one_rated_match(challenge, user)
        if role == "challenged":
            if challenge.challenged_accepted:
                raise ServiceError(_("You have already accepted this challenge."))
            challenge.challenged_accepted = True
        else:
            if challenge.partner_accepted:
                raise ServiceError(_("You have already accepted this challenge."))
            challenge.partner_accepted = True
        everyone = challenge.challenged_accepted and (
            challenge.partner_id is None or challenge.partner_accepted
        )
        if not everyone:
            challenge.save(update_fields=["challenged_accepted", "partner_accepted"])
            _tell_everyone(challenge)
            return challenge
        challenge.table = _open_table(challenge)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.answered_at = now
        challenge.save()
        url = challenge.table.get_absolute_url()
        for person in challenge.people():
            announce_to_user(person, "challenge-accepted", {"url": url})
    return challenge


def _check_one_rated_match(challenge: Challenge, user: User) -> None:
    """A person plays one rated match at a time (the Play-now pools refuse the
    same): a rated challenge is not accepted while anyone it names is playing
    one, its table would be their second."""
    if not challenge.rated:
        return
    if in_running_rated_match(user.pk):
        raise ServiceError(_("Finish your rated match before you accept another rated challenge."))
    if any(in_running_rated_match(person) for person in challenge.people()):
        raise ServiceError(
            _(
                "Someone this challenge names is playing a rated match: it can be accepted "
                "once that match is over."
            )
        )


def decline(challenge_id: int, user: User | AnonymousUser | None) -> Challenge:
    """``user`` (the challenged player or the partner) declines; the challenger
    is told."""
    user = _signed_in(user, _("Log in to answer a challenge."))
    with transaction.atomic():
        now = timezone.now()
        challenge = _row(challenge_id)
        _answerer(challenge, user)
        _check_waiting(challenge, now)
        challenge.status = Challenge.Status.DECLINED
        challenge.declined_by = user
        challenge.answered_at = now
        challenge.save(update_fields=["status", "declined_by", "answered_at"])
        _tell_everyone(challenge)
    return challenge


def cancel(challenge_id: int, user: User | AnonymousUser | None) -> Challenge:
    """The challenger takes a challenge back before it is accepted."""
    user = _signed_in(user, _("Log in to answer a challenge."))
    with transaction.atomic():
        now = timezone.now()
        challenge = _row(challenge_id)
        if challenge.challenger_id != user.pk:
            raise ServiceError(_("Only the challenger can cancel a challenge."))
        _check_waiting(challenge, now)
        challenge.status = Challenge.Status.CANCELLED
        challenge.answered_at = now
        challenge.challenger_dismissed = True
        challenge.save(update_fields=["status", "answered_at", "challenger_dismissed"])
        _tell_everyone(challenge)
    return challenge


def dismiss(challenge_id: int, user: User | AnonymousUser | None) -> None:
    """The challenger has read that their challenge was declined or expired."""
    user = _signed_in(user, _("Log in to answer a challenge."))
    with transaction.atomic():
        challenge = (
            Challenge.objects.select_for_update()
            .filter(pk=challenge_id, challenger_id=user.pk)
            .first()
        )
        if challenge is None:
            raise ServiceError(_("This challenge does not exist."))
        if challenge.challenger_dismissed:
            return
        if challenge.status == Challenge.Status.PENDING and challenge.expires_at > timezone.now():
            raise ServiceError(_("This challenge is still waiting for an answer."))
        challenge.challenger_dismissed = True
        if challenge.status == Challenge.Status.PENDING:
            challenge.status = Challenge.Status.EXPIRED
        challenge.save(update_fields=["challenger_dismissed", "status"])
        announce_to_user(user.pk, "challenge", {"id": challenge.pk})


def _tell_everyone(challenge: Challenge) -> None:
    for person in challenge.people():
        announce_to_user(person, "challenge", {"id": challenge.pk})


def _open_table(challenge: Challenge) -> Table:
    """The challenge's table, everyone named seated; the match starts at once
    unless a rated Belote table waits for a person in a seat nobody was named for."""
    rule_set = game_rule_sets().get(challenge.variant)
    if rule_set is None:
        raise ServiceError(_("This variant has no default rule set."))
    table = new_table(
        rule_set,
        challenge.format,
        created_by=challenge.challenger,
        rated=challenge.rated,  # a rated challenge opens a rated table (people only)
    )
    table.save()
    # Seats alternate between the sides: the challenger and their partner hold
    # seats 0 and 2, the challenged player seat 1.
    people: dict[int, int | None] = {0: challenge.challenger_id, 1: challenge.challenged_id}
    if SEATS[variant_of_game(challenge.variant)] == 4:
        people[2] = challenge.partner_id
        people[3] = None
    # Rated play among people waits for a person in a seat nobody was named for;
    # a rated match with a bot account is a ladder match, where a built-in bot
    # counts at its fixed rating, so it fills the seat.
    named = [user_id for user_id in people.values() if user_id is not None]
    fill = None if challenge.rated and not bots.bot_ids(named) else FILL_LEVEL
    Seat.objects.bulk_create(
        Seat(table=table, index=index, user_id=user_id, bot_level=None if user_id else fill)
        for index, user_id in people.items()
    )
    if all(user_id is not None for user_id in people.values()) or fill is not None:
        start_match(table)
    return table


# --- what a person is shown ------------------------------------------------------------


@dataclass
class Notices:
    """What one person is shown of challenges now."""

    #: Waiting for this person's answer.
    incoming: list[Challenge] = field(default_factory=list)
    #: Sent by this person, or accepted by them, and waiting for the others.
    waiting: list[Challenge] = field(default_factory=list)
    #: Sent by this person and declined or expired, not yet dismissed.
    outcomes: list[Challenge] = field(default_factory=list)

    def next_change(self) -> datetime | None:
        """When one of the shown challenges expires (the notices change then)."""
        times = [c.expires_at for c in (*self.incoming, *self.waiting)]
        return min(times) if times else None


def _with_names(rows: QuerySet[Challenge]) -> QuerySet[Challenge]:
    return rows.select_related(
        "challenger__player", "challenged__player", "partner__player", "declined_by__player"
    ).order_by("created_at")


def notices(user: User | AnonymousUser, now: datetime | None = None) -> Notices:
    """The challenges ``user`` is shown now (a signed-out visitor: none). One
    query: every challenge naming them that waits or ended within
    ``OUTCOME_SHOWN``, sorted here."""
    shown = Notices()
    if not user.is_authenticated:
        return shown
    now = now or timezone.now()
    rows = _with_names(
        Challenge.objects.filter(
            Q(challenger=user) | Q(challenged=user) | Q(partner=user),
            status__in=[
                Challenge.Status.PENDING,
                Challenge.Status.DECLINED,
                Challenge.Status.EXPIRED,
            ],
            expires_at__gt=now - OUTCOME_SHOWN,
        )
    )
    for challenge in rows:
        if challenge.status == Challenge.Status.PENDING and challenge.expires_at > now:
            asked = (challenge.challenged_id == user.pk and not challenge.challenged_accepted) or (
                challenge.partner_id == user.pk and not challenge.partner_accepted
            )
            (shown.incoming if asked else shown.waiting).append(challenge)
        elif challenge.challenger_id == user.pk and not challenge.challenger_dismissed:
            shown.outcomes.append(challenge)  # declined, or expired unanswered
    return shown
