"""The bot ladder: bot accounts' own ratings, their leaderboard, and the
worker's scheduled matches between willing bots.

A rated match with a bot account in it is rated here, not on the people's line
(``games.services.ratings`` leaves such matches alone), by the pairing pass
that runs once a second (:func:`rate_unrated`). Each bot account's
:class:`~games.models.BotRating` in the variant moves by the same Weng-Lin
model as people's ratings (``engine.ratings``); the others in the match count
with the skill they have and do not move: a person with their people's
rating, a built-in bot with its fixed, published rating (an anchor, so the
ladder's numbers mean what people's numbers mean: 1500 is the Normal bot).
With ``BLOT_BOT_MATCHES_RATE_PEOPLE`` on, the people in such a match move too,
against the bots' ladder ratings. The fair-play forfeits are the people's
(``ratings.forfeits``): a bot whose stream was gone for a whole deal loses.

``BLOT_BOT_LADDER_EVERY_S`` (0: off) lets the worker pair online bots that
chose a variant for the ladder (``BotAccount.ladder_variants``), by rating, in
rated matches (Belote: two bots, each with a built-in Normal partner).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from engine import ratings as maths
from engine.match import MatchFormat
from engine.ratings import BOT_RATINGS
from engine.rules import SEATS
from games.models import (
    BotAccount,
    BotLevel,
    BotRating,
    BotRatingChange,
    Match,
    Participant,
    Presence,
    Rating,
    RatingChange,
    RuleSetConfig,
    Seat,
    Table,
)
from games.services.changes import announce_table_changed
from games.services.matches import start_match
from games.services.ratings import forfeits
from games.services.tables import new_table

#: How sure the ladder is of a built-in bot's published rating (it never moves).
ANCHOR_SIGMA = 25.0
#: Who the worker seats beside each ladder bot at Belote.
PARTNER_LEVEL = BotLevel.NORMAL
LEADERBOARD_SIZE = 100


def _skill(row: BotRating | Rating) -> maths.Skill:
    return maths.Skill(row.mu, row.sigma)


def is_bot_match(participants: list[Participant]) -> bool:
    return any(p.bot_account for p in participants)


def rate_match(match: Match) -> list[BotRatingChange]:
    """Rate ``match`` on the ladder if it is a finished rated match with a bot
    account in it, not yet rated; the bots' changes (none otherwise)."""
    if not match.rated or match.status != Match.Status.FINISHED or match.winner is None:
        return []
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if BotRatingChange.objects.filter(match=match).exists():
            return []
        participants = list(match.participants.order_by("index"))
        if not is_bot_match(participants) or match.winner is None:
            return []
        lost = forfeits(match, participants)
        winner: int = match.winner
        if len(lost) == 1:  # both sides forfeiting: the score decides
            winner = 1 - lost[0].side
        bot_ids = [p.user_id for p in participants if p.bot_account and p.user_id is not None]
        people_ids = [
            p.user_id for p in participants if not p.bot_account and p.user_id is not None
        ]
        bots = _locked(BotRating, match.variant, bot_ids)
        people = _people(match.variant, people_ids)

        def before(p: Participant) -> maths.Skill:
            if p.user_id is None:
                return maths.Skill(float(BOT_RATINGS[match.variant][p.bot_level or "normal"]),
                                   ANCHOR_SIGMA)
            row = bots[p.user_id] if p.bot_account else people.get(p.user_id)
            return maths.Skill() if row is None else _skill(row)

        sides = [[p for p in participants if p.side == side] for side in (0, 1)]
        after = maths.rate([[before(p) for p in side] for side in sides], winner)
        now = match.finished_at or timezone.now()
        changes = []
        for side, seated in enumerate(sides):
            for p, skill in zip(seated, after[side], strict=True):
                if p.user_id is None:
                    continue
                if p.bot_account:
                    changes.append(_move_bot(match, p, bots[p.user_id], skill, side == winner, now))
                elif p.user_id in people and settings.BLOT_BOT_MATCHES_RATE_PEOPLE:
                    _move_person(match, p, people[p.user_id], skill, side == winner, now)
        return changes


def _locked(model: type[BotRating], variant: str, user_ids: list[int]) -> dict[int, BotRating]:
    # Made if missing, then locked in one order (by id): two matches finishing
    # at once with a bot in common wait for each other instead of deadlocking.
    model.objects.bulk_create(
        [model(user_id=u, variant=variant) for u in user_ids], ignore_conflicts=True
    )
    rows = model.objects.select_for_update().filter(variant=variant, user_id__in=user_ids)
    return {r.user_id: r for r in rows.order_by("pk")}


def _people(variant: str, user_ids: list[int]) -> dict[int, Rating]:
    """People's ratings: only read, unless their ratings move too (then made if
    missing and locked, after the bots', always in that order)."""
    if not settings.BLOT_BOT_MATCHES_RATE_PEOPLE:
        return {r.user_id: r for r in Rating.objects.filter(variant=variant, user_id__in=user_ids)}
    Rating.objects.bulk_create(
        [Rating(user_id=u, variant=variant) for u in user_ids], ignore_conflicts=True
    )
    rows = Rating.objects.select_for_update().filter(variant=variant, user_id__in=user_ids)
    return {r.user_id: r for r in rows.order_by("pk")}


def _move_bot(
    match: Match, p: Participant, row: BotRating, skill: maths.Skill, won: bool, now
) -> BotRatingChange:
    shown_before = row.shown
    row.mu, row.sigma, row.shown = skill.mu, skill.sigma, skill.shown
    row.matches += 1
    row.last_played = now
    row.save(update_fields=["mu", "sigma", "shown", "matches", "last_played"])
    assert p.user_id is not None
    return BotRatingChange.objects.create(
        match=match,
        user_id=p.user_id,
        variant=match.variant,
        index=p.index,
        shown_before=shown_before,
        shown_after=row.shown,
        matches_after=row.matches,
        won=won,
        at=now,
    )


def _move_person(
    match: Match, p: Participant, row: Rating, skill: maths.Skill, won: bool, now
) -> None:
    shown_before = row.shown
    row.mu, row.sigma, row.shown = skill.mu, skill.sigma, skill.shown
    row.matches += 1
    row.last_played = now
    row.save(update_fields=["mu", "sigma", "shown", "matches", "last_played"])
    assert p.user_id is not None
    RatingChange.objects.create(
        match=match,
        user_id=p.user_id,
        variant=match.variant,
        index=p.index,
        shown_before=shown_before,
        shown_after=row.shown,
        mu_after=skill.mu,
        sigma_after=skill.sigma,
        matches_after=row.matches,
        won=won,
        at=now,
    )


#: How far back the ladder's own pass looks for a finished bot match left unrated.
RATE_LATE_WITHIN = timedelta(hours=1)


def rate_unrated(limit: int = 50) -> int:
    """Rate finished rated bot matches that have no ladder changes yet."""
    recent = timezone.now() - RATE_LATE_WITHIN
    pending = (
        Match.objects.filter(rated=True, status=Match.Status.FINISHED, winner__isnull=False)
        .filter(finished_at__gte=recent, participants__bot_account=True)
        .exclude(bot_rating_changes__isnull=False)
        .distinct()
        .order_by("finished_at")[:limit]
    )
    rated = 0
    for match in pending:
        if rate_match(match):
            rated += 1
            if settings.BLOT_BOT_MATCHES_RATE_PEOPLE:
                _redraw(match.table_id)  # its people's changes are shown at the table
    return rated


def _redraw(table_id: int) -> None:
    Table.objects.filter(pk=table_id).update(version=F("version") + 1)
    version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
    if version is not None:
        announce_table_changed(table_id, version)


# --- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LadderRow:
    """A row of the bot leaderboard: a bot account (ranked) or a built-in level
    (a fixed anchor, not ranked)."""

    rating: int
    rank: int | None = None
    username: str = ""
    name: str = ""
    matches: int = 0
    provisional: bool = False
    level: str = ""
    level_label: str = ""


def leaderboard(variant: str) -> list[LadderRow]:
    """The bot accounts with a ladder match in ``variant``, best first, with the
    built-in levels placed among them at their fixed ratings."""
    rows = (
        BotRating.objects.filter(variant=variant, matches__gte=1, user__is_active=True)
        .select_related("user__player")
        .order_by("-shown", "pk")[:LEADERBOARD_SIZE]
    )
    board = [
        LadderRow(
            rating=r.shown,
            rank=i,
            username=r.user.get_username(),
            name=r.user.player.display_name,
            matches=r.matches,
            provisional=r.provisional,
        )
        for i, r in enumerate(rows, start=1)
    ]
    anchors = [
        LadderRow(rating=BOT_RATINGS[variant][level], level=level, level_label=str(label))
        for level, label in BotLevel.choices
    ]
    # Stable: an anchor sits below the bots of the same rating.
    return sorted([*board, *anchors], key=lambda row: (-row.rating, row.rank is None))


def ratings_of(user_id: int) -> dict[str, BotRating]:
    """A bot's ladder rating in each variant (a new bot's where it has none)."""
    found = {r.variant: r for r in BotRating.objects.filter(user_id=user_id)}
    return {
        variant: found.get(variant) or BotRating(user_id=user_id, variant=variant)
        for variant in SEATS
    }


# --- the worker's scheduled matches ----------------------------------------------------------


def _online(user_ids: list[int]) -> set[int]:
    """Bots with an open connection now (an event stream counts, as a page does)."""
    fresh = timezone.now() - timedelta(seconds=settings.BLOT_PRESENCE_STALE_S)
    return set(
        Presence.objects.filter(
            user_id__in=user_ids, closed_at__isnull=True, last_seen__gte=fresh
        ).values_list("user_id", flat=True)
    )


def willing(variant: str) -> list[int]:
    """Bots that may be paired now in ``variant``: they chose it, are online and
    are not in a rated match already."""
    chosen = [
        account.user_id
        for account in BotAccount.objects.filter(user__is_active=True).only(
            "user_id", "ladder_variants"
        )
        if variant in (account.ladder_variants or [])
    ]
    if not chosen:
        return []
    busy = set(
        Participant.objects.filter(
            user_id__in=chosen, match__status=Match.Status.PLAYING, match__rated=True
        ).values_list("user_id", flat=True)
    )
    online = _online([u for u in chosen if u not in busy])
    return [u for u in chosen if u in online]


def pair_willing(rng: random.Random | None = None) -> list[Table]:
    """Seat willing bots against each other, neighbours by ladder rating, in rated
    matches that start at once. Returns the tables made."""
    rng = rng or random.Random()
    made: list[Table] = []
    for variant in SEATS:
        bots = willing(variant)
        if len(bots) < 2:
            continue
        shown = dict(
            BotRating.objects.filter(variant=variant, user_id__in=bots).values_list(
                "user_id", "shown"
            )
        )
        rng.shuffle(bots)  # bots of one rating meet different opponents each time
        bots.sort(key=lambda u: shown.get(u, maths.Skill().shown))
        for first, second in zip(bots[0::2], bots[1::2], strict=False):
            pair = [first, second]
            rng.shuffle(pair)
            table = _ladder_table(variant, pair)
            if table is not None:
                made.append(table)
    return made


def _ladder_table(variant: str, pair: list[int]) -> Table | None:
    rule_set = RuleSetConfig.objects.filter(variant=variant, is_default=True).first()
    if rule_set is None:
        return None
    with transaction.atomic():
        # Still free? Another worker's pass may have seated one of them meanwhile.
        if Participant.objects.filter(
            user_id__in=pair, match__status=Match.Status.PLAYING, match__rated=True
        ).exists():
            return None
        table = new_table(
            rule_set, str(MatchFormat.default(variant)), created_by_id=pair[0], rated=True
        )
        table.save()
        seats = {0: pair[0], 1: pair[1]}
        Seat.objects.bulk_create(
            Seat(
                table=table,
                index=index,
                user_id=seats.get(index),
                bot_level=None if index in seats else PARTNER_LEVEL,
            )
            for index in range(SEATS[variant])
        )
        start_match(table)
    return table
