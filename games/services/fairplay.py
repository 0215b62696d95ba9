"""Fair play around rated matches: when a finished rated match moves no rating,
and what staff are told (docs/DECISIONS.md P-20, P-21).

A rated match moves ratings only for what people played and decided:

- it ended before :data:`MIN_CARDS` cards were played (resigned, left or
  abandoned at once): nothing was shown, so nothing is rated;
- both sides forfeited it (each resigned, left, or was away from the table,
  ``games.services.ratings.forfeits``): stand-ins decided it;
- its opponents had already met in :data:`DAILY_MEETINGS` rated matches in the
  last 24 hours: a second account fed wins by a friend counts three times a day
  at most, and an honest pair of regulars loses little.

Staff are told (``FairPlaySignal``, listed in the admin) of rated matches between
opponents who logged in from one address or used one browser (keyed digests of
both, ``AccessMark``: never the address itself), of rated matches that ended too
early, and of opponents past the day's meetings. A shared address is a signal,
not a verdict: families and colleagues share one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from engine.actions import PLAY
from games import ratelimit
from games.models import AccessMark, FairPlaySignal, Match, RatingChange, UnratedMatch

#: A rated match that ends before this many cards were played is not rated:
#: half a deal (Belote and Open Blot deals are both 32 cards).
MIN_CARDS = 16
#: Rated matches between the same two opponents that count within ...
DAILY_MEETINGS = 3
#: ... this long.
MEETINGS_WITHIN = timedelta(hours=24)
#: Addresses and browsers compared: those used within this long.
ACCESS_WITHIN = timedelta(days=30)
#: The browser's own mark: a random id in a long-lived cookie.
DEVICE_COOKIE = "blot_device"
DEVICE_COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie


def cards_played(match: Match) -> int:
    """Cards played in every deal of ``match``, finished or not."""
    return sum(
        sum(1 for action in actions if action.get("type") == PLAY)
        for actions in match.deals.values_list("actions", flat=True)
    )


def meetings(sides: Sequence[Sequence[int]], since: datetime, exclude: int | None = None) -> int:
    """The most rated matches since ``since`` in which any person of one side
    sat against any person of the other (``exclude``: a match not to count)."""
    people = [p for side in sides for p in side]
    rows = RatingChange.objects.filter(user_id__in=people, at__gte=since)
    if exclude is not None:
        rows = rows.exclude(match_id=exclude)
    seated: dict[int, dict[int, int]] = defaultdict(dict)
    for match_id, user_id, index in rows.values_list("match_id", "user_id", "index"):
        seated[match_id][user_id] = index % 2
    most = 0
    for a in sides[0]:
        for b in sides[1]:
            met = sum(
                1
                for who in seated.values()
                if a in who and b in who and who[a] != who[b]
            )
            most = max(most, met)
    return most


def unrated_reason(
    match: Match, sides: Sequence[Sequence[int]], forfeited: Iterable[int], now: datetime
) -> str | None:
    """Why the finished rated ``match`` (people ``sides[0]`` against
    ``sides[1]``; ``forfeited``: the sides that lost it by their own doing)
    moves no rating, or ``None`` when it is rated."""
    if cards_played(match) < MIN_CARDS:
        return UnratedMatch.Reason.EARLY
    if {0, 1} <= set(forfeited):
        return UnratedMatch.Reason.STAND_INS
    if meetings(sides, now - MEETINGS_WITHIN, exclude=match.pk) >= DAILY_MEETINGS:
        return UnratedMatch.Reason.REPEATED
    return None


def record_unrated(
    match: Match, reason: str, sides: Sequence[Sequence[int]], now: datetime
) -> None:
    """Store why ``match`` moved no rating; what farming looks like goes to staff."""
    UnratedMatch.objects.get_or_create(match=match, defaults={"reason": reason, "at": now})
    if reason == UnratedMatch.Reason.EARLY:
        signal(match, FairPlaySignal.Kind.EARLY, [p for side in sides for p in side], now)
    elif reason == UnratedMatch.Reason.REPEATED:
        signal(match, FairPlaySignal.Kind.REPEATED, [p for side in sides for p in side], now)


def signal(match: Match, kind: str, people: Iterable[int], now: datetime) -> None:
    """Tell staff (once per match and kind)."""
    try:
        with transaction.atomic():
            found, _made = FairPlaySignal.objects.get_or_create(
                match=match, kind=kind, defaults={"at": now}
            )
    except IntegrityError:  # another path told them first
        return
    found.people.add(*people)


def note_shared_access(match: Match, sides: Sequence[Sequence[int]], now: datetime) -> None:
    """Signal opponents of ``match`` who logged in from one address or used one
    browser lately."""
    people = [p for side in sides for p in side]
    side_of = {p: i for i, side in enumerate(sides) for p in side}
    users: dict[tuple[str, str], set[int]] = defaultdict(set)
    marks = AccessMark.objects.filter(user_id__in=people, last_seen__gte=now - ACCESS_WITHIN)
    for user_id, kind, digest in marks.values_list("user_id", "kind", "digest"):
        users[(kind, digest)].add(user_id)
    kinds = {
        AccessMark.Kind.ADDRESS: FairPlaySignal.Kind.SHARED_ADDRESS,
        AccessMark.Kind.DEVICE: FairPlaySignal.Kind.SHARED_DEVICE,
    }
    for (kind, _digest), who in users.items():
        if len({side_of[u] for u in who}) == 2:
            signal(match, kinds[AccessMark.Kind(kind)], who, now)


# --- noting where people log in from ----------------------------------------------------


def digest(kind: str, value: str) -> str:
    """A keyed digest: equal values match, and the value cannot be read back."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


def device_of(request: HttpRequest) -> str:
    """The browser's id: its cookie's, or a new one that :func:`keep_device`
    sets on the response."""
    known = request.COOKIES.get(DEVICE_COOKIE, "")
    if 16 <= len(known) <= 64 and known.isalnum():
        return known
    made = getattr(request, "blot_new_device", None)
    if made is None:
        made = secrets.token_hex(16)
        request.blot_new_device = made  # type: ignore[attr-defined]
    return str(made)


def keep_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Set the browser's id cookie if this request made one."""
    made = getattr(request, "blot_new_device", None)
    if made is not None:
        response.set_cookie(
            DEVICE_COOKIE,
            made,
            max_age=DEVICE_COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


def note_login(request: HttpRequest | None, user: Any) -> None:
    """Keep digests of the address and browser ``user`` logged in with."""
    if request is None or user is None or user.pk is None:
        return
    now = timezone.now()
    seen = [(AccessMark.Kind.DEVICE, device_of(request))]
    address = ratelimit.client_address(request)
    if address:
        seen.append((AccessMark.Kind.ADDRESS, address))
    for kind, value in seen:
        mark = digest(kind, value)
        updated = AccessMark.objects.filter(user_id=user.pk, kind=kind, digest=mark).update(
            last_seen=now
        )
        if not updated:
            made = AccessMark(
                user_id=user.pk, kind=kind, digest=mark, first_seen=now, last_seen=now
            )
            AccessMark.objects.bulk_create([made], ignore_conflicts=True)
