"""Delete the chat messages past their keeping time (the conductor does it every
few minutes too; this is for a server that runs without one, e.g. from cron)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services.chat import KEEP_ROOMS, purge_expired


class Command(BaseCommand):
    help = "Delete spectators' and tournament rooms' chat messages older than 48 hours."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = purge_expired()
        hours = int(KEEP_ROOMS.total_seconds() // 3600)
        self.stdout.write(f"Deleted {deleted} chat messages older than {hours} hours.")
