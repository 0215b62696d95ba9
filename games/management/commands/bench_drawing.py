"""Time drawing a busy Belote table's frames after each move, as a move's own
process draws them.

    python manage.py bench_drawing [--reps 15] [--language en] [--keep]

Four people sit at a Belote table; its first deal is played with random legal
moves, and after each move every player's frame is drawn from the move's rows in
memory (``frames.render_all`` with a ``Known``, the path a move takes). The parts
kept across moves start empty at every repetition, so a repetition draws the
deal as one process would. Prints the time per move (each repetition's mean; the
fastest and the median repetition); the last line is JSON. It writes the table
and its players to the configured database and removes them unless ``--keep``.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import translation

from games.live.draw import drawing, frames
from games.live.submit.play import current
from games.models import RuleSetConfig, Table
from games.services.tables import create_table, join_seat


class Command(BaseCommand):
    help = "Time drawing a Belote table's four frames after each move of a deal."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--reps", type=int, default=15)
        parser.add_argument("--language", default="en")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the table and players")

    def handle(self, *args: Any, **options: Any) -> None:
        users = [
            get_user_model().objects.get_or_create(username=f"bench-drawing-{i}")[0]
            for i in range(4)
        ]
        table = create_table(
            user=users[0],
            variant="belote",
            fmt="first_to:1001",
            rule_set=RuleSetConfig.objects.get(variant="belote", is_default=True),
            others=["open"] * 3,
        )
        try:
            report = self._time(table, users, options)
        finally:
            if not options["keep"]:
                Table.objects.filter(pk=table.pk).delete()
                get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
        self.stdout.write(
            f"{report['moves']} moves, {report['reps']} repetitions: "
            f"{report['fastest_ms_per_move']} ms per move at best, "
            f"{report['median_ms_per_move']} ms in the median repetition"
        )
        self.stdout.write(json.dumps(report))

    def _time(self, table: Table, users: list[Any], options: dict[str, Any]) -> dict[str, Any]:
        for index, user in enumerate(users[1:], start=1):
            join_seat(table.pk, user, index)
        table.refresh_from_db()
        seats = list(table.seats.order_by("index"))
        live = current(table)
        assert live is not None, "four people seated: the match has started"
        frames.note_language(table.pk, options["language"])
        # Each state of the deal, as a move leaves it in memory for its frames.
        rng = random.Random(options["seed"])
        states = []
        engine = live.deal.rebuild()
        while not engine.is_over:
            engine.apply(rng.choice(engine.legal_actions()))
            if not engine.is_over:  # the last card closes the deal: other rows then
                states.append(frames.Known(table, seats, live.match, live.deal, engine.clone()))
        per_move = []
        with translation.override(options["language"]):
            for _rep in range(options["reps"]):
                drawing.parts.clear()
                started = time.perf_counter()
                for known in states:
                    frames.render_all(table.pk, known)
                per_move.append((time.perf_counter() - started) / len(states) * 1000)
        return {
            "moves": len(states),
            "reps": options["reps"],
            "viewpoints": 4,
            "language": options["language"],
            "fastest_ms_per_move": round(min(per_move), 3),
            "median_ms_per_move": round(statistics.median(per_move), 3),
        }
