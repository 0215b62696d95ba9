"""``manage.py loadtest``: drive a running site over real WebSockets and time it.

    python manage.py loadtest --url http://127.0.0.1:8001 --url http://127.0.0.1:8002 \\
        --tables 50 --variant belote --think 1 --seconds 60

Run it with the same settings (DATABASE_URL, REDIS_URL, CHANNEL_LAYER_PREFIX) as
the site: it creates its players and tables directly in the site's database,
signs them in with session cookies, spreads every table's seats and the
spectators over the given server URLs (loopback only), and plays for the people
(a random offered move, ``--think`` seconds after their turn arrives). It ends
after ``--seconds`` or ``--max-moves``, then times a bare group broadcast of a
same-size frame through the same channel layer (the yardstick), once to channels
in this process and once through the servers to the same viewers' sockets,
deletes what it created, and prints a summary; the last line is JSON. Progress
goes to stderr.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from engine.match import FIRST_TO, MatchFormat
from games.loadtest import client
from games.models import RuleSetConfig, Table
from games.services.tables import create_table, join_seat

SEATS = {"belote": 4, "open_blot": 2}
LEVELS = ("easy", "normal", "hard")


def _cookie(user: Any) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


class Command(BaseCommand):
    help = "Load a running site over WebSockets and report move-to-viewer latencies."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--url",
            action="append",
            default=[],
            help="A server to spread viewers over (repeat; loopback only).",
        )
        parser.add_argument("--tables", type=int, default=10)
        parser.add_argument("--variant", choices=sorted(SEATS), default="belote")
        parser.add_argument(
            "--bots",
            type=int,
            default=0,
            help="Bot seats per table (the rest are simulated people).",
        )
        parser.add_argument("--bot-level", choices=LEVELS, default="normal")
        parser.add_argument("--bot-delay-ms", type=int, default=600)
        parser.add_argument(
            "--think",
            type=float,
            default=1.0,
            help="Seconds a simulated person waits before moving.",
        )
        parser.add_argument(
            "--think-spread",
            type=float,
            default=0.0,
            help="Draw each think time uniformly from think * (1 +- this), the same mean "
            "(default 0: exactly --think, so tables that start together stay in step).",
        )
        parser.add_argument(
            "--stagger",
            type=float,
            default=None,
            help="Seconds over which the tables' first moves are spread (default: the "
            "think time; 0: every table starts in the same instant).",
        )
        parser.add_argument(
            "--spectators", type=int, default=0, help="Spectators watching the first table."
        )
        parser.add_argument("--seconds", type=float, default=30.0)
        parser.add_argument("--max-moves", type=int, default=100_000)
        parser.add_argument("--yardstick-rounds", type=int, default=100)
        parser.add_argument(
            "--connect-concurrency",
            type=int,
            default=16,
            help="WebSocket handshakes in flight at once (arrivals spread, not one burst).",
        )
        parser.add_argument(
            "--samples",
            metavar="CSV",
            help="Also write every move's delivery times to this file, a line per move.",
        )
        parser.add_argument(
            "--one-owner",
            action="store_true",
            help="Every table belongs to one person (as a tournament's belong to its "
            "organiser): the backlog whose bots must not starve anyone else's.",
        )
        parser.add_argument(
            "--probe-level",
            choices=LEVELS,
            default=None,
            help="Add one table of another person against bots of this level, its bot "
            "replies and moves reported on their own ('probe').",
        )
        parser.add_argument(
            "--late-spectators",
            type=int,
            default=0,
            help="Spectators joining the first table while the tables play, "
            "--late-concurrency at a time ('late_spectators').",
        )
        parser.add_argument("--late-concurrency", type=int, default=10)
        parser.add_argument(
            "--late-after",
            type=float,
            default=0.0,
            help="Seconds after the run starts before the late spectators come "
            "(so that the tables are mid-deal, their moves timed while the crowd joins).",
        )
        parser.add_argument(
            "--plain-sockets",
            action="store_true",
            help="Do not offer permessage-deflate (browsers do): frames travel as they are.",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="Keep the tables and players.")

    def handle(self, *args: object, **options: Any) -> None:
        try:
            urls = [client.check_loopback(u) for u in options["url"] or ["http://127.0.0.1:8000"]]
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        client.OFFER_DEFLATE = not options["plain_sockets"]
        seats = SEATS[options["variant"]]
        if not 0 <= options["bots"] < seats:
            raise CommandError(f"--bots must be between 0 and {seats - 1}.")
        if not 1 <= options["tables"] <= 500 or not 0 <= options["spectators"] <= 2000:
            raise CommandError("--tables must be 1..500 and --spectators 0..2000.")
        if not 0 <= options["late_spectators"] <= 2000 or options["late_concurrency"] < 1:
            raise CommandError("--late-spectators must be 0..2000, --late-concurrency 1 or more.")
        if not 0 <= options["late_after"] < options["seconds"]:
            raise CommandError("--late-after must be at least 0 and less than --seconds.")
        if not 0 < options["seconds"] <= 3600:
            raise CommandError("--seconds must be more than 0 and at most 3600.")
        if not 0 <= options["think_spread"] < 1:
            raise CommandError("--think-spread must be at least 0 and less than 1.")
        if options["stagger"] is None:
            options["stagger"] = options["think"]
        run_id = uuid.uuid4().hex[:8]
        users: list[Any] = []
        viewers: list[client.Viewer] = []
        try:
            self._setup(run_id, urls, options, users, viewers)
            summary = asyncio.run(self._run(viewers, options))
        finally:
            if not options["keep"]:
                self._clean_up(run_id)
        summary["scenario"] = {
            key: options[key]
            for key in (
                "tables",
                "variant",
                "bots",
                "bot_level",
                "bot_delay_ms",
                "think",
                "think_spread",
                "stagger",
                "spectators",
                "seconds",
                "one_owner",
                "probe_level",
                "late_spectators",
                "late_concurrency",
            )
        } | {"servers": len(urls)}
        run, bare = summary["run"], summary["bare_broadcast"]
        sockets = summary["bare_broadcast_sockets"]
        last = run["move_to_last_viewer_ms"]["p99"]
        ratio = self._ratio(last, bare["to_last_ms"]["p99"])
        socket_ratio = self._ratio(last, sockets["to_last_ms"]["p99"])
        summary["ratio_p99_to_bare"] = ratio
        summary["ratio_p99_to_bare_sockets"] = socket_ratio
        self.stdout.write(
            f"moves {run['moves']} ({run['moves_per_s']}/s), "
            f"move->mover p50/p95/p99 {self._p(run['move_to_mover_ms'])} ms, "
            f"move->last viewer {self._p(run['move_to_last_viewer_ms'])} ms, "
            f"bot reply beyond pause {self._p(run['bot_reply_beyond_pause_ms'])} ms, "
            f"bare broadcast {self._p(bare['to_last_ms'])} ms (ratio p99 {ratio}), "
            f"through the sockets {self._p(sockets['to_last_ms'])} ms "
            f"(ratio p99 {socket_ratio}), "
            f"frames {run['frames']} of {run['frame_bytes']['mean']} B "
            f"({run['frame_bytes']['wire_mean']} B on the wire), "
            f"errors {run['errors']}" + self._machine(run["machine_cpu"])
        )
        self.stdout.write(json.dumps(summary))

    @staticmethod
    def _ratio(last: float | None, bare: float | None) -> float | None:
        return round(last / bare, 1) if last is not None and bare else None

    @staticmethod
    def _machine(share: dict[str, float] | None) -> str:
        if share is None:
            return ""
        return (
            f", machine CPU during the run {share['busy_pct']}% busy, "
            f"{share['steal_pct']}% taken by the hypervisor"
        )

    @staticmethod
    def _p(stats: dict[str, Any]) -> str:
        return f"{stats['p50']}/{stats['p95']}/{stats['p99']}"

    @staticmethod
    def _clean_up(run_id: str) -> None:
        """Delete the run's tables (locked first, in the order moves lock them,
        so a worker acting meanwhile waits instead of deadlocking) and players."""
        User = get_user_model()
        players = User.objects.filter(username__startswith=f"lt-{run_id}-")
        with transaction.atomic():
            tables = Table.objects.select_for_update().filter(created_by__in=players)
            Table.objects.filter(pk__in=list(tables.values_list("pk", flat=True))).delete()
        players.delete()

    def _setup(
        self,
        run_id: str,
        urls: list[str],
        options: dict[str, Any],
        users: list[Any],
        viewers: list[client.Viewer],
    ) -> None:
        variant, seats, bots = options["variant"], SEATS[options["variant"]], options["bots"]
        rules = RuleSetConfig.objects.get(variant=variant, is_default=True)
        longest = max(
            (f for f in MatchFormat.choices(variant) if f.kind == FIRST_TO), key=lambda f: f.n
        )
        User = get_user_model()
        owner = User.objects.create_user(f"lt-{run_id}-owner", password=None)
        users.append(owner)
        next_url = 0
        self._probe_table: int | None = None
        probe = options["probe_level"]
        for t in range(options["tables"] + (1 if probe else 0)):
            is_probe = t == options["tables"]
            bots = seats - 1 if is_probe else options["bots"]
            people = [
                User.objects.create_user(f"lt-{run_id}-{t}-{s}", password=None)
                for s in range(seats - bots)
            ]
            users += people
            level = probe if is_probe else options["bot_level"]
            others = ["open"] * (seats - bots - 1) + [level] * bots
            table = create_table(
                user=people[0],
                variant=variant,
                fmt=str(longest),
                rule_set=rules,
                others=others,
                bot_delay_ms=options["bot_delay_ms"],
                turn_seconds=600,
                # The shortest shared pause after a deal (2 s, about the former
                # 2.5 s), so runs stay comparable with the figures measured before.
                result_pause_seconds=2,
            )
            for index, user in enumerate(people[1:], start=1):
                join_seat(table.pk, user, index)
            if is_probe:
                self._probe_table = table.pk
            elif options["one_owner"]:
                # Made by its own person (within every per-person limit), then
                # handed to one owner, as a tournament's tables are its organiser's.
                Table.objects.filter(pk=table.pk).update(created_by=owner)
            bot_seats = frozenset(range(seats - bots, seats))
            for index, user in enumerate(people):
                viewers.append(
                    client.Viewer(
                        table.pk, index, urls[next_url % len(urls)], _cookie(user), bot_seats
                    )
                )
                next_url += 1
            if t == 0:
                for _ in range(options["spectators"]):
                    viewers.append(client.Viewer(table.pk, None, urls[next_url % len(urls)], None))
                    next_url += 1
                for _ in range(options["late_spectators"]):
                    url = urls[next_url % len(urls)]
                    viewers.append(client.Viewer(table.pk, None, url, None, late=True))
                    next_url += 1

    async def _run(self, viewers: list[client.Viewer], options: dict[str, Any]) -> dict[str, Any]:
        record = client.Record(
            expected=sum(not v.late for v in viewers),
            probe_table=self._probe_table,
            late_after_s=options["late_after"],
        )
        stop = asyncio.Event()
        closing = asyncio.Event()
        rng = random.Random(options["seed"])
        tables = sorted({viewer.table for viewer in viewers})
        offsets = {t: options["stagger"] * i / len(tables) for i, t in enumerate(tables)}
        clients = []
        for ident, viewer in enumerate(viewers):
            if not viewer.late:  # a move's last viewer: of those there from the start
                record.viewers_of[viewer.table].add(ident)
            clients.append(
                client.Client(
                    ident,
                    viewer,
                    record,
                    options["think"],
                    options["bot_delay_ms"] / 1000,
                    random.Random(rng.random()),
                    stop,
                    closing,
                    offsets[viewer.table],
                    options["think_spread"],
                )
            )
        gate = asyncio.Semaphore(options["connect_concurrency"])
        late_gate = asyncio.Semaphore(options["late_concurrency"])
        joining = time.perf_counter()
        tasks = [
            asyncio.create_task(c.run(late_gate if c.viewer.late else gate)) for c in clients
        ]
        await record.ready.wait()  # joins are timed on their own; the run starts now
        started = time.perf_counter()
        cpu_before = client.read_cpu_times()
        all_joined_s = started - joining
        await client.progress(stop, record, options["seconds"], options["max_moves"])
        ended = time.perf_counter()
        machine = client.machine_share(cpu_before, client.read_cpu_times())
        elapsed = ended - started
        # Moves sent just before the end are still on their way: let them arrive.
        await asyncio.sleep(client.DRAIN_S)
        closing.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        run = client.summarise(record, elapsed, until=ended)
        if options["samples"]:
            client.write_samples(record, started, options["samples"])
        run["all_joined_s"] = round(all_joined_s, 2)
        run.update(client.summarise_extras(record, started, tables[0]))
        run["machine_cpu"] = machine
        by_table: dict[int, list[client.Viewer]] = {}
        for viewer in viewers:
            by_table.setdefault(viewer.table, []).append(viewer)
        frame = run["frame_bytes"]["mean"] or 6000
        layer = get_channel_layer()
        pause_s = max(0.0, options["think"] / 4)
        bare = await client.bare_broadcast(
            layer, [len(v) for v in by_table.values()], frame, options["yardstick_rounds"], pause_s
        )
        sockets = await client.socket_broadcast(
            layer, list(by_table.values()), frame, options["yardstick_rounds"], pause_s
        )
        return {"run": run, "bare_broadcast": bare, "bare_broadcast_sockets": sockets}
