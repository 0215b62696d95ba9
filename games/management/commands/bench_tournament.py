"""Run a whole Swiss tournament of Easy bots (best of one) through the conductor's
passes and time it.

    python manage.py bench_tournament [--entrants 64] [--rounds N] [--variant open_blot] [--keep]

Prints the wall time, matches per second, the slowest standings update (one
``advance`` of the tournament: recording a finished match, the standings and
the next round's pairings) and the slowest render of the tournament page's live
fragment; the last line is JSON. It writes to the configured database and
removes what it created unless ``--keep``.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.test import RequestFactory
from django.utils import timezone

from games.live.conduct.conductor import run_due
from games.models import Match, RuleSetConfig, Table, Tournament
from games.services import tournaments as svc
from games.views.tournaments import tournament_live


class Command(BaseCommand):
    help = "Run a Swiss tournament of Easy bots to the end and report its speed."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--entrants", type=int, default=64)
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument("--variant", default="open_blot", choices=["open_blot", "belote"])
        parser.add_argument("--keep", action="store_true", help="keep the tournament and tables")

    def handle(self, *args: Any, **options: Any) -> None:
        settings.BLOT_NEXT_DEAL_PAUSE_MS = 0  # no pause between deals
        variant = options["variant"]
        # Staff: a benchmark's field of bots is larger than a person's bot budget.
        user, _ = get_user_model().objects.update_or_create(
            username="bench-organiser", defaults={"is_staff": True}
        )
        tournament = svc.create_tournament(
            user=user,
            name="Benchmark Swiss",
            variant=variant,
            kind="swiss",
            fmt="best_of:1",
            rule_set=RuleSetConfig.objects.get(variant=variant, is_default=True),
            max_entrants=options["entrants"],
            rounds=options["rounds"],
            fill_with_bots="easy",
            bot_delay_ms=0,
        )
        started = time.perf_counter()
        svc.start(tournament.pk, user)
        advances: list[float] = []
        renders: list[float] = []
        request = RequestFactory().get("/", {"v": "-1"})
        request.user = user
        passes = 0
        while True:
            tournament.refresh_from_db(fields=["status"])
            if tournament.status != Tournament.Status.RUNNING:
                break
            passes += 1
            moves = run_due(timezone.now())
            due = list(Tournament.objects.filter(pk=tournament.pk, wakeup_at__lte=timezone.now()))
            if due:
                t0 = time.perf_counter()
                svc.advance(tournament.pk)
                advances.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                tournament_live(request, tournament.pk)
                renders.append(time.perf_counter() - t0)
            elif not moves:
                time.sleep(0.01)
        wall = time.perf_counter() - started
        matches = Match.objects.filter(tournament=tournament).count()
        report = {
            "entrants": options["entrants"],
            "variant": variant,
            "rounds": tournament.round_set.count(),
            "matches": matches,
            "wall_s": round(wall, 2),
            "matches_per_s": round(matches / wall, 2),
            "standings_updates": len(advances),
            "slowest_standings_update_ms": round(max(advances) * 1000, 1),
            "median_standings_update_ms": round(statistics.median(advances) * 1000, 1),
            "slowest_live_fragment_ms": round(max(renders) * 1000, 1),
            "median_live_fragment_ms": round(statistics.median(renders) * 1000, 1),
            "conductor_passes": passes,
        }
        self.stdout.write(
            f"{report['matches']} matches in {report['rounds']} rounds, {report['wall_s']} s"
            f" ({report['matches_per_s']} matches/s); slowest standings update"
            f" {report['slowest_standings_update_ms']} ms; slowest live fragment"
            f" {report['slowest_live_fragment_ms']} ms"
        )
        self.stdout.write(json.dumps(report))
        if not options["keep"]:
            tables = Table.objects.filter(pk__in=tournament.pairings.values("table"))
            tournament.delete()
            tables.delete()
