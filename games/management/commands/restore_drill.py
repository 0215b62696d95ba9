"""``manage.py restore_drill``: dump the database, restore it into a fresh one,
and check that every match, replay and rating history came back and that the
running tables play on (games/ops/backups.py). Exits non-zero, naming each
difference, when the restore is not whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.ops import backups


class Command(BaseCommand):
    help = "Dump the database, restore it into a fresh one and check it is whole."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--keep", action="store_true", help="Keep the restored copy (say where)."
        )
        # Used by the drill itself: read the copy this process is pointed at.
        parser.add_argument("--inspect", metavar="OUT", help=None)

    def handle(self, *args: object, **options: Any) -> None:
        if options["inspect"]:
            Path(options["inspect"]).write_text(json.dumps(backups.snapshot(continue_play=True)))
            return
        report, copy = backups.drill(keep=options["keep"])
        self.stdout.write(
            f"restore drill: dump of {copy.dump_bytes} bytes restored; "
            f"{report.finished} finished and {report.running} running matches, "
            f"{report.pages} pages, {report.players} rating histories read back; "
            f"{report.continued} running tables played on"
        )
        if options["keep"]:
            self.stdout.write(f"the restored copy is kept: {backups.redacted(copy.url)}")
        if not report.passed:
            raise CommandError(
                "the restore is not whole:\n" + "\n".join(f"- {p}" for p in report.problems)
            )
        self.stdout.write("restore drill passed")
