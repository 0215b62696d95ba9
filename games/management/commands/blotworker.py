"""``manage.py blotworker``: run bots and turn clocks outside the web processes.

Use it with ``BLOT_CONDUCTOR=external`` on the Daphne processes and the Redis
channel layer (the in-memory layer cannot reach another process's viewers).
Several workers may run at once: every move is checked against the table version.
"""

from __future__ import annotations

import asyncio
import contextlib

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.live.conductor import conduct_forever


class Command(BaseCommand):
    help = "Play bot turns, timed-out turns and absent players' turns for live tables."

    def handle(self, *args: object, **options: object) -> None:
        backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
        if backend.endswith("InMemoryChannelLayer"):
            raise CommandError(
                "blotworker needs a shared channel layer (set REDIS_URL); with the "
                "in-memory layer the web process runs bots itself."
            )
        self.stdout.write("blotworker: running (Ctrl-C to stop)")
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(conduct_forever())
