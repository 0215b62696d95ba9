"""Rating a finished rated match, and fair play in it.

A rated match (``Match.rated``: a rated Play-now pool, a rated table made by
hand, a rated tournament) changes each person's rating in its variant once,
when it is finished: :func:`rate_match` is called in the transaction that
finishes it (``games.services.matches.finish_deal``), and the pairing pass
(:func:`rate_unrated`) rates any finished rated match that was finished some
other way. Asking twice changes nothing (one ``RatingChange`` per person per
match).

Fair play: a side whose person resigned, left the table and did not come back
before the end (or came back only after a whole deal), or was away (no
connection to the table, or left) for a whole deal or for most of the match
loses the match, whatever the score says. A connection the server lost (it never
said it closed: a crashed process, an outage) counts as present, so a seat lost
to a server fault counts against no one. When both sides forfeited, stand-ins
decided the match and it moves no rating; nor does one that ended too early or
between opponents past the day's rated meetings (``games.services.fairplay``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, OuterRef, QuerySet, Subquery
from django.utils import timezone

from engine import ratings as maths
from games.models import (
    Deal,
    Match,
    MatchEvent,
    Participant,
    Presence,
    Rating,
    RatingChange,
    Table,
    UnratedMatch,
)
from games.services import fairplay
from games.services.changes import announce_table_changed

#: Why a side lost by forfeit (stored on each ``RatingChange`` of the match).
RESIGNED = "resigned"
LEFT = "left"
AWAY = "away"


@dataclass(frozen=True)
class Forfeit:
    side: int
    reason: str


def forfeits(match: Match, participants: Iterable[Participant]) -> list[Forfeit]:
    """The sides that lose the match by their own doing, first reason each."""
    people = {p.index: p for p in participants if p.user_id is not None}
    reasons: dict[int, str] = {}
    # When each seat's person left, and back to None when they returned; a stay
    # away that spanned a whole deal counts like never coming back.
    left_at: dict[int, datetime | None] = {}
    away: dict[int, list[tuple[datetime, datetime]]] = {}
    for event in match.events.order_by("at", "id"):
        if event.index not in people:
            continue
        if event.kind == MatchEvent.Kind.RESIGNED:
            reasons.setdefault(event.index % 2, RESIGNED)
        elif event.kind == MatchEvent.Kind.LEFT:
            left_at.setdefault(event.index, None)
            left_at[event.index] = left_at[event.index] or event.at
        elif event.kind == MatchEvent.Kind.RETURNED:
            since = left_at.get(event.index)
            if since is not None:
                away.setdefault(event.index, []).append((since, event.at))
                left_at[event.index] = None
    for index, since in sorted(left_at.items()):
        if since is not None:
            reasons.setdefault(index % 2, LEFT)
    deals = _finished_deals(match) if away else []
    for index, spans in sorted(away.items()):
        if any(
            gone <= start and back >= end
            for gone, back in spans
            for start, end in deals
        ):
            reasons.setdefault(index % 2, LEFT)
    for index in sorted(people):
        if index % 2 in reasons:
            continue
        if _away_a_whole_deal(match, index) or _away_most_of_the_match(
            match, index, away.get(index, []), left_at.get(index)
        ):
            reasons.setdefault(index % 2, AWAY)
    return [Forfeit(side, reason) for side, reason in sorted(reasons.items())]


def _away_most_of_the_match(
    match: Match,
    index: int,
    left_spans: list[tuple[datetime, datetime]],
    left_since: datetime | None,
) -> bool:
    """Whether seat ``index``'s person was away for more than half of the match:
    no connection to the table, or left it (a stand-in playing for them)."""
    start, end = match.started_at, match.finished_at or timezone.now()
    if end <= start:
        return False
    connected = _union(
        (max(opened, start), min(closed or end, end))
        for opened, closed in Presence.objects.filter(
            table_id=match.table_id, seat_index=index
        ).values_list("connected_at", "closed_at")
    )
    gone = _union([*left_spans, *([(left_since, end)] if left_since else [])])
    there = _length(connected) - _length(_overlap(connected, gone))
    return there * 2 < (end - start).total_seconds()


def _union(spans: Iterable[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    merged: list[tuple[datetime, datetime]] = []
    for a, b in sorted(s for s in spans if s[0] < s[1]):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _overlap(
    xs: list[tuple[datetime, datetime]], ys: list[tuple[datetime, datetime]]
) -> list[tuple[datetime, datetime]]:
    return _union((max(a, c), min(b, d)) for a, b in xs for c, d in ys)


def _length(spans: list[tuple[datetime, datetime]]) -> float:
    return sum((b - a).total_seconds() for a, b in spans)


def _away_a_whole_deal(match: Match, index: int) -> bool:
    """Whether seat ``index``'s person had no connection to the table for the
    whole of some finished deal. A connection that never closed counts as
    present until now: the server lost track of it, not the player."""
    spans = [
        (opened, closed)
        for opened, closed in Presence.objects.filter(
            table_id=match.table_id, seat_index=index
        ).values_list("connected_at", "closed_at")
    ]
    deals = _finished_deals(match)
    return any(not _covered(spans, started, finished) for started, finished in deals)


def _finished_deals(match: Match) -> list[tuple[datetime, datetime]]:
    return [
        (started, finished)
        for started, finished in match.deals.filter(status=Deal.Status.FINISHED).values_list(
            "started_at", "finished_at"
        )
        if finished is not None
    ]


def _covered(
    spans: list[tuple[datetime, datetime | None]], start: datetime, end: datetime
) -> bool:
    return any(opened <= end and (closed is None or closed >= start) for opened, closed in spans)


def rate_match(match: Match) -> list[RatingChange]:
    """Rate ``match`` if it is a finished rated match between people that has
    not been rated; the changes made (none otherwise)."""
    if not match.rated or match.status != Match.Status.FINISHED or match.winner is None:
        return []
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if RatingChange.objects.filter(match=match).exists():
            return []
        if UnratedMatch.objects.filter(match=match).exists():
            return []
        participants = list(match.participants.order_by("index"))
        people = {p.index: p.user_id for p in participants if p.user_id is not None}
        if not participants or len(people) != len(participants) or match.winner is None:
            return []  # rated play is people only
        if any(p.bot_account for p in participants):
            return []  # a bot account's match is rated on the bot ladder (services/botladder.py)
        lost = forfeits(match, participants)
        now = match.finished_at or timezone.now()
        sides = [[p for p in participants if p.side == side] for side in (0, 1)]
        ids = [[people[p.index] for p in side] for side in sides]
        fairplay.note_shared_access(match, ids, now)
        unrated = fairplay.unrated_reason(match, ids, (f.side for f in lost), now)
        if unrated is not None:
            fairplay.record_unrated(match, unrated, ids, now)
            return []
        winner: int = match.winner
        forfeit = ""
        if len(lost) == 1:
            winner, forfeit = 1 - lost[0].side, lost[0].reason
        ratings = _locked_ratings(match.game, list(people.values()))
        before = [[_skill(ratings[people[p.index]]) for p in side] for side in sides]
        after = maths.rate(before, winner)
        changes = []
        for side, seated in enumerate(sides):
            for person, skill in zip(seated, after[side], strict=True):
                rating = ratings[people[person.index]]
                shown_before = rating.shown
                rating.mu, rating.sigma = skill.mu, skill.sigma
                rating.shown = skill.shown
                rating.matches += 1
                rating.last_played = now
                rating.save(update_fields=["mu", "sigma", "shown", "matches", "last_played"])
                changes.append(
                    RatingChange(
                        match=match,
                        user_id=people[person.index],
                        variant=match.game,
                        index=person.index,
                        shown_before=shown_before,
                        shown_after=rating.shown,
                        mu_after=skill.mu,
                        sigma_after=skill.sigma,
                        matches_after=rating.matches,
                        won=side == winner,
                        forfeit="" if side == winner else forfeit,
                        at=now,
                    )
                )
        return RatingChange.objects.bulk_create(changes)


def _skill(rating: Rating) -> maths.Skill:
    return maths.Skill(rating.mu, rating.sigma)


def _locked_ratings(variant: str, user_ids: list[int]) -> dict[int, Rating]:
    # Made if missing, then locked in one order (by id), so two matches finishing
    # at once with a person in common wait for each other instead of deadlocking.
    Rating.objects.bulk_create(
        [Rating(user_id=u, variant=variant) for u in user_ids], ignore_conflicts=True
    )
    rows = Rating.objects.select_for_update().filter(variant=variant, user_id__in=user_ids)
    return {r.user_id: r for r in rows.order_by("pk")}


#: How far back the pass looks for a finished rated match left unrated.
RATE_LATE_WITHIN = timedelta(hours=1)


def rate_unrated(limit: int = 50) -> int:
    """Rate finished rated matches that have no rating changes yet (one finished
    by a path that did not rate it). Returns how many were rated."""
    recent = timezone.now() - RATE_LATE_WITHIN
    pending = (
        Match.objects.filter(rated=True, status=Match.Status.FINISHED, winner__isnull=False)
        .filter(finished_at__gte=recent)
        .exclude(participants__user__isnull=True)
        .exclude(participants__bot_account=True)
        .filter(~Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
        .filter(~Exists(UnratedMatch.objects.filter(match=OuterRef("pk"))))
        .order_by("finished_at")[:limit]
    )
    rated = 0
    for match in pending:
        with transaction.atomic():
            if rate_match(match):
                rated += 1
                _redraw(match.table_id)
    return rated


def _redraw(table_id: int) -> None:
    """A new version of the table, so its open pages are redrawn with the
    rating changes (a match finished some other way was drawn without them)."""
    Table.objects.filter(pk=table_id).update(version=F("version") + 1)
    version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
    if version is not None:
        announce_table_changed(table_id, version)


def rating_of(user_id: int, variant: str) -> Rating:
    """The player's rating in ``variant`` (a new player's when they have none)."""
    found = Rating.objects.filter(user_id=user_id, variant=variant).first()
    return found or Rating(user_id=user_id, variant=variant)


def unrated_of(match: Match) -> UnratedMatch | None:
    """Why a finished rated match moved no rating, if it moved none."""
    if not match.rated:
        return None
    return UnratedMatch.objects.filter(match=match).first()


def with_ratings(rows: QuerySet[Any], variant: str, user: str = "user") -> QuerySet[Any]:
    """``rows`` (each naming a person by ``user``) with that person's shown rating
    in ``variant`` and their rated matches, read in the same query
    (``rating_shown``, ``rating_matches``; ``None`` for someone never rated):
    pages that draw many people read no more queries for their ratings."""
    theirs = Rating.objects.filter(user=OuterRef(user), variant=variant)
    return rows.annotate(
        rating_shown=Subquery(theirs.values("shown")[:1]),
        rating_matches=Subquery(theirs.values("matches")[:1]),
    )


def label_of(row: Any) -> str | None:
    """The rating of a row read by :func:`with_ratings` as pages write it
    (``1500?`` for someone never rated); ``None`` for a row without a person."""
    if getattr(row, "user_id", None) is None:
        return None
    shown_as = getattr(row, "rating_shown", None)
    if shown_as is None:
        return Rating().label
    return maths.label(shown_as, maths.is_provisional(row.rating_matches or 0))


def labels(people: Iterable[tuple[int, str]]) -> dict[tuple[int, str], str]:
    """Each ``(user id, variant)``'s rating as pages write it (``1500?``), a new
    player's where they have none; one query however many."""
    wanted = set(people)
    if not wanted:
        return {}
    found = {
        (r.user_id, r.variant): r.label
        for r in Rating.objects.filter(
            user_id__in={u for u, _v in wanted}, variant__in={v for _u, v in wanted}
        )
    }
    new = Rating().label
    return {key: found.get(key, new) for key in wanted}


# --- reading: leaderboards, standings, history --------------------------------------------

#: Who is on a leaderboard: out of their provisional matches, active lately.
LEADERBOARD_MIN_MATCHES = maths.PROVISIONAL_MATCHES
LEADERBOARD_ACTIVE_DAYS = 30
LEADERBOARD_SIZE = 100


def _ranked(variant: str):  # -> QuerySet[Rating]
    since = timezone.now() - timedelta(days=LEADERBOARD_ACTIVE_DAYS)
    return Rating.objects.filter(
        variant=variant, matches__gte=LEADERBOARD_MIN_MATCHES, last_played__gte=since
    ).order_by("-shown", "pk")


@dataclass(frozen=True)
class Leader:
    rank: int
    username: str
    name: str
    rating: int
    matches: int


def leaderboard(variant: str) -> list[Leader]:
    rows = _ranked(variant).select_related("user__player")[:LEADERBOARD_SIZE]
    return [
        Leader(
            rank=i,
            username=r.user.get_username(),
            name=_display_name(r.user),
            rating=r.shown,
            matches=r.matches,
        )
        for i, r in enumerate(rows, start=1)
    ]


@dataclass(frozen=True)
class Standing:
    rating: Rating
    rank: int | None  # None: not on the board (yet, or not lately)


def standing(user: object, variant: str) -> Standing:
    rating = rating_of(user.pk, variant)  # type: ignore[attr-defined]
    ranked = _ranked(variant)
    if rating.pk is None or not ranked.filter(pk=rating.pk).exists():
        return Standing(rating, None)
    ahead = ranked.filter(shown__gt=rating.shown).count() + ranked.filter(
        shown=rating.shown, pk__lt=rating.pk
    ).count()
    return Standing(rating, ahead + 1)


def history(user_id: int, variant: str) -> list[int]:
    """The shown rating before the first rated match and after each one."""
    changes = list(
        RatingChange.objects.filter(user_id=user_id, variant=variant)
        .order_by("at", "id")
        .values_list("shown_before", "shown_after")
    )
    if not changes:
        return []
    return [changes[0][0], *(after for _before, after in changes)]


def _display_name(user: object) -> str:
    player = getattr(user, "player", None)
    return player.display_name if player else user.get_username()  # type: ignore[attr-defined]
