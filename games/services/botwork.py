"""One bot-work budget per person, across their tables and their tournaments.

Bots cost the workers' processes; people do not. The budget is counted in
*tables with bots playing at once*: a person's own tables with a bot seat that
are waiting or playing, plus, for each tournament they organise that is not
over and fills its places with bots, the most bots-only matches it could play at
once (half its places: a field of bots alone). ``BLOT_BOT_WORK_PER_USER`` is the
most a person may have (staff are not limited: they run the showcase
tournaments, whose bots the conductor serves last). A table or tournament that
would pass it is refused when it is created, with the room left; counted with
the person's row locked, so two creations at once cannot both take the last
room. A person may also create at most ``BLOT_TOURNAMENTS_PER_USER_DAILY``
tournaments a day.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import ratelimit
from games.models import Table, Tournament
from games.services.errors import ServiceError

#: Tournaments whose tables are still to be played.
_OPEN = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
DAY = 24 * 3600


def budget() -> int:
    return settings.BLOT_BOT_WORK_PER_USER


def running_bot_tables(user: AbstractBaseUser) -> int:
    """Tables ``user`` created that have a bot seat and are waiting or playing.
    A tournament's tables are counted with the tournament (below)."""
    return (
        Table.objects.filter(
            created_by_id=user.pk,
            status__in=[Table.Status.WAITING, Table.Status.PLAYING],
            seats__bot_level__isnull=False,
        )
        .exclude(matches__tournament__isnull=False)
        .distinct()
        .count()
    )


def tournament_bot_tables(max_entrants: int, fill_with_bots: str) -> int:
    """The most bots-only matches a tournament may play at once: with bots
    filling its places, every place may be a bot's."""
    return max_entrants // 2 if fill_with_bots else 0


def bot_work_in_use(user: AbstractBaseUser) -> int:
    """Tables with bots ``user``'s tables and open tournaments may run at once."""
    tournaments = Tournament.objects.filter(created_by_id=user.pk, status__in=_OPEN).exclude(
        fill_with_bots=""
    )
    reserved = sum(
        tournament_bot_tables(t.max_entrants, t.fill_with_bots)
        for t in tournaments.only("max_entrants", "fill_with_bots")
    )
    return running_bot_tables(user) + reserved


def lock_person(user: AbstractBaseUser) -> None:
    """Lock ``user``'s row until the transaction ends: their budget is counted
    and taken one creation at a time."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def check_table_room(user: AbstractBaseUser) -> None:
    """Refuse one more table with bots when ``user``'s budget is spent (call with
    the person locked, :func:`lock_person`)."""
    if getattr(user, "is_staff", False):
        return
    most = budget()
    if bot_work_in_use(user) + 1 > most:
        raise ServiceError(
            _(
                "Your bots are already playing at the most tables allowed at once, "
                "across your tables and tournaments (%(budget)d). Please wait until "
                "one ends."
            )
            % {"budget": most}
        )


def check_tournament_room(user: AbstractBaseUser, max_entrants: int, fill_with_bots: str) -> None:
    """Refuse a tournament whose bots-only matches would pass what is left of
    ``user``'s budget (call with the person locked)."""
    needed = tournament_bot_tables(max_entrants, fill_with_bots)
    if not needed or getattr(user, "is_staff", False):
        return
    most = budget()
    room = max(0, most - bot_work_in_use(user))
    if needed > room:
        first = ngettext(
            "Filled with bots, this tournament could need %(count)d table of bots at once.",
            "Filled with bots, this tournament could need %(count)d tables of bots at once.",
            needed,
        ) % {"count": needed}
        second = _(
            "Room left in your bot budget (tables with bots at once, across your "
            "tables and tournaments): %(room)d of %(budget)d. Please choose fewer "
            "entrants, or no bots."
        ) % {"room": room, "budget": most}
        raise ServiceError(f"{first} {second}")


def take_tournament_creation(user: AbstractBaseUser) -> ratelimit.Ticket:
    """Count one tournament against ``user``'s daily limit before it is made (the
    caller gives the ticket back if it is not); staff are not limited."""
    if getattr(user, "is_staff", False):
        return ratelimit.Ticket(None)
    most = settings.BLOT_TOURNAMENTS_PER_USER_DAILY
    ticket = ratelimit.take("tournament:user", str(user.pk), ratelimit.Limit(most, DAY))
    if ticket is None:
        raise ServiceError(
            ngettext(
                "You have created %(count)d tournament today, the most allowed. "
                "Please try again tomorrow.",
                "You have created %(count)d tournaments today, the most allowed. "
                "Please try again tomorrow.",
                most,
            )
            % {"count": most}
        )
    return ticket
