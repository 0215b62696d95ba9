"""``manage.py bench_bot_api``: outside bots playing at once through the Bot API
against a running site, and the round trip of their moves.

    python manage.py bench_bot_api --url http://127.0.0.1:8001 --bots 20 --seconds 60

Run it with the same settings (DATABASE_URL, REDIS_URL, CHANNEL_LAYER_PREFIX) as
the site: it makes its bot accounts and their tokens directly in the site's
database, and for each bot a table against built-in bots (``--levels``, with
``--bot-delay-ms`` and ``--trick-pause-ms``; a new one when a match ends). Each
bot (a thread, ``games/loadtest/botclient.py``) reads its match stream and
answers each of its turns at once with a random legal action. The tables'
timings are a person's table's by default (a built-in bot's 700 ms pause, a won
trick shown 1 s); 0 for both makes every table play as fast as it can, a load
the machine saturates under. It prints the
move's round trip, p50 and p95: the POST answered (the move stored) and the move
seen back on the bot's own stream; then deletes what it made. The last line is
JSON. Bots are spread over the given servers (loopback only).
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from engine.match import MatchFormat
from engine.rules import SEATS
from games.loadtest import client
from games.loadtest.botclient import ApiBot
from games.models import Match, RuleSetConfig, Table
from games.services import bots
from games.services.tables import create_table

LEVELS = ("easy", "normal", "hard")


class Command(BaseCommand):
    help = "Bots playing through the Bot API at once, and their moves' round trip."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--url", action="append", default=[], help="A server (repeat).")
        parser.add_argument("--bots", type=int, default=20)
        parser.add_argument("--seconds", type=float, default=60.0)
        parser.add_argument("--variant", choices=sorted(SEATS), default="open_blot")
        parser.add_argument("--levels", choices=LEVELS, default="easy")
        parser.add_argument(
            "--bot-delay-ms", type=int, default=700, help="The built-in bots' pause (a table's)."
        )
        parser.add_argument(
            "--trick-pause-ms", type=int, default=1000, help="How long a won trick stays."
        )
        parser.add_argument("--keep", action="store_true", help="Keep the accounts and tables.")

    def handle(self, *args: object, **options: Any) -> None:
        try:
            urls = [client.check_loopback(u) for u in options["url"] or ["http://127.0.0.1:8000"]]
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if not 1 <= options["bots"] <= 200 or not 0 < options["seconds"] <= 3600:
            raise CommandError("--bots must be 1..200 and --seconds more than 0, at most 3600.")
        run_id = uuid.uuid4().hex[:8]
        variant = options["variant"]
        rule_set = RuleSetConfig.objects.get(variant=variant, is_default=True)
        lock = threading.Lock()
        load_before = os.getloadavg()
        cpu_before = client.read_cpu_times()
        try:
            accounts = [self._bot(run_id, n) for n in range(options["bots"])]

            def next_match(user: Any) -> int | None:
                # A thread of the bench makes its tables in the database directly,
                # the way a bot would ask for one (creation is not what is timed).
                with lock:
                    try:
                        table = create_table(
                            user=user,
                            variant=variant,
                            fmt=str(MatchFormat.default(variant)),
                            rule_set=rule_set,
                            others=[options["levels"]] * (SEATS[variant] - 1),
                            bot_delay_ms=options["bot_delay_ms"],
                            trick_pause_ms=options["trick_pause_ms"],
                        )
                        return Match.objects.filter(table=table).values_list("pk", flat=True).get()
                    finally:
                        connection.close()  # back to the pool: the thread plays a while

            until = time.monotonic() + options["seconds"]
            players = [
                ApiBot(urls[n % len(urls)], token, partial(next_match, user), until, seed=n)
                for n, (user, token) in enumerate(accounts)
            ]
            started = time.monotonic()
            for player in players:
                player.start()
            for player in players:
                player.join(timeout=options["seconds"] + 60)
            elapsed = time.monotonic() - started
        finally:
            if not options["keep"]:
                self._clean_up(run_id)
        post = [ms for p in players for ms in p.record.post_ms]
        seen = [ms for p in players for ms in p.record.seen_ms]
        errors = [e for p in players for e in p.record.errors]
        summary = {
            "bots": options["bots"],
            "servers": len(urls),
            "variant": variant,
            "levels": options["levels"],
            "seconds": round(elapsed, 1),
            "moves": len(post),
            "moves_per_s": round(len(post) / elapsed, 1) if elapsed else 0,
            "post_ms": client.percentiles(post),
            "seen_on_stream_ms": client.percentiles(seen),
            "stale": sum(p.record.stale for p in players),
            "matches_finished": sum(p.record.matches for p in players),
            "errors": len(errors),
            "first_errors": errors[:5],
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "machine_cpu": client.machine_share(cpu_before, client.read_cpu_times()),
        }
        p, s = summary["post_ms"], summary["seen_on_stream_ms"]
        self.stdout.write(
            f"{options['bots']} bots, {summary['moves']} moves ({summary['moves_per_s']}/s): "
            f"POST round trip p50 {p['p50']} ms, p95 {p['p95']} ms; "
            f"move seen on the bot's stream p50 {s['p50']} ms, p95 {s['p95']} ms; "
            f"stale {summary['stale']}, errors {summary['errors']}, "
            f"load average {summary['load_average_before'][0]} -> "
            f"{summary['load_average_after'][0]}"
        )
        self.stdout.write(json.dumps(summary))

    @staticmethod
    def _bot(run_id: str, n: int) -> tuple[Any, str]:
        user = get_user_model().objects.create_user(
            username=f"bb-{run_id}-{n}", password=uuid.uuid4().hex
        )
        bots.make_bot_account(user, confirmed=True)
        return user, bots.create_token(user, name="bench", scopes=["play"]).value

    @staticmethod
    def _clean_up(run_id: str) -> None:
        """Delete the run's tables (locked first, as moves lock them) and bots."""
        players = get_user_model().objects.filter(username__startswith=f"bb-{run_id}-")
        with transaction.atomic():
            tables = Table.objects.select_for_update().filter(created_by__in=players)
            Table.objects.filter(pk__in=list(tables.values_list("pk", flat=True))).delete()
        players.delete()
