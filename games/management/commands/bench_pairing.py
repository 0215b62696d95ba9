"""Time the pairing pass with many people waiting across the Play-now pools.

    python manage.py bench_pairing [--people 1000] [--seed 1]

Makes ``--people`` users waiting in the pools (every variant, format and
rated/casual, ratings spread like a real site's, Belote parties among them,
each with a page of the site open),
then times the conductor's pass (``games.services.pools.pair_waiting``):

- ``idle_pass_ms``: a pass over everyone that seats nobody (each person just
  joined, windows narrow, ratings kept apart): what every poll costs while
  they wait;
- ``seating_pass_ms``: the pass once their windows have widened, which seats
  every table it can (creating tables, seats, matches and first deals);
- ``engine_pair_ms``: ``engine.pairing.pair`` alone over the same tickets.

Everything is made inside one transaction that is rolled back at the end: the
database is left as it was. The last line is JSON.
"""

from __future__ import annotations

import json
import random
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from engine.match import MatchFormat
from engine.pairing import Ticket, pair
from engine.rules import SEATS
from games.models import PoolEntry, Presence, Rating, Table, Variant
from games.services import pools


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the Play-now pairing pass with many people waiting."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--people", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, **options) -> None:
        figures: dict[str, float | int] = {}
        try:
            with transaction.atomic():
                self._measure(options["people"], random.Random(options["seed"]), figures)
                raise Rollback
        except Rollback:
            pass
        self.stdout.write(json.dumps(figures))

    def _measure(self, people: int, rng: random.Random, figures: dict) -> None:
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=f"bench-pairing-{i}-{rng.random():.6f}")
            for i in range(people)
        )
        pools_ = [
            (variant, str(fmt), rated)
            for variant in Variant.values
            for fmt in MatchFormat.choices(variant)
            for rated in (True, False)
        ]
        now = timezone.now()
        entries, ratings = [], []
        for i, user in enumerate(users):
            variant, fmt, rated = pools_[i % len(pools_)]
            # Everyone just joined and ratings 150 apart, then nobody meets yet.
            mu = 300.0 + 150.0 * (i // len(pools_))
            ratings.append(Rating(user=user, variant=variant, mu=mu))
            entries.append(
                PoolEntry(
                    user=user, variant=variant, format=fmt, rated=rated, joined_at=now, seen_at=now
                )
            )
        # Belote parties: pairs of neighbours in the same pool naming each other.
        by_pool: dict[tuple[str, str, bool], list[PoolEntry]] = {}
        for e in entries:
            by_pool.setdefault((e.variant, e.format, e.rated), []).append(e)
        for (variant, _fmt, _rated), members in by_pool.items():
            if variant != Variant.BELOTE:
                continue
            for a, b in zip(members[0:8:2], members[1:8:2], strict=False):
                a.partner, b.partner = b.user, a.user
        Rating.objects.bulk_create(ratings)
        PoolEntry.objects.bulk_create(entries)
        # Each of them has a page of the site open (their own socket): still there.
        Presence.objects.bulk_create(
            Presence(
                channel_name=f"bench-pairing-{user.pk}",
                user=user,
                connected_at=now,
                last_seen=now + timedelta(minutes=10),
            )
            for user in users
        )

        started = time.perf_counter()
        made = pools.pair_waiting(now=now)
        figures["idle_pass_ms"] = round((time.perf_counter() - started) * 1000, 1)
        figures["idle_tables"] = made

        tickets = {
            key: [
                Ticket((e.user_id,), 300.0 + 150.0 * k, 120.0)
                for k, e in enumerate(members)
            ]
            for key, members in by_pool.items()
        }
        started = time.perf_counter()
        for (variant, _fmt, _rated), waiting in tickets.items():
            pair(waiting, SEATS[variant])
        figures["engine_pair_ms"] = round((time.perf_counter() - started) * 1000, 1)

        started = time.perf_counter()
        made = pools.pair_waiting(now=now + timedelta(minutes=2))
        figures["seating_pass_ms"] = round((time.perf_counter() - started) * 1000, 1)
        figures["seating_tables"] = made
        figures["people"] = people
        figures["pools"] = len(pools_)
        figures["left_waiting"] = PoolEntry.objects.filter(table__isnull=True).count()
        figures["tables"] = Table.objects.filter(pk__in=PoolEntry.objects.values("table")).count()
