"""Measure channel layers the way live tables use them: one group per table,
a few listeners, small "table changed, version N" messages.

    python manage.py bench_channel_layer --redis redis://127.0.0.1:6379/0

Prints, per layer, the median and 95th-percentile delivery time of a group
message to every listener, and group messages per second.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from channels.layers import InMemoryChannelLayer
from django.core.management.base import BaseCommand


async def _bench(layer: Any, listeners: int, messages: int) -> dict[str, float]:
    channels = [await layer.new_channel() for _ in range(listeners)]
    for channel in channels:
        await layer.group_add("bench-table", channel)
    latencies = []
    started = time.perf_counter()
    try:
        for version in range(messages):
            sent = time.perf_counter()
            await layer.group_send("bench-table", {"type": "table.changed", "version": version})
            await asyncio.gather(*(layer.receive(c) for c in channels))
            latencies.append(time.perf_counter() - sent)
    finally:
        for channel in channels:
            await layer.group_discard("bench-table", channel)
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "median_ms": statistics.median(latencies) * 1000,
        "p95_ms": latencies[int(len(latencies) * 0.95) - 1] * 1000,
        "per_second": messages / elapsed,
    }


class Command(BaseCommand):
    help = "Compare the in-memory and Redis channel layers (core and pub/sub)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
        parser.add_argument("--listeners", type=int, default=5)
        parser.add_argument("--messages", type=int, default=500)

    def handle(self, *args: Any, **options: Any) -> None:
        from channels_redis.core import RedisChannelLayer
        from channels_redis.pubsub import RedisPubSubChannelLayer

        layers = {
            "in-memory": lambda: InMemoryChannelLayer(),
            "redis core": lambda: RedisChannelLayer(hosts=[options["redis"]]),
            "redis pubsub": lambda: RedisPubSubChannelLayer(hosts=[options["redis"]]),
        }
        for name, make in layers.items():

            async def run(make: Any = make) -> dict[str, float]:
                layer = make()
                try:
                    return await _bench(layer, options["listeners"], options["messages"])
                finally:
                    # Close connections only: never flush keys of a shared Redis.
                    if isinstance(layer, RedisChannelLayer):
                        await layer.close_pools()
                    elif isinstance(layer, RedisPubSubChannelLayer):
                        await layer.flush()

            result = asyncio.run(run())
            self.stdout.write(
                f"{name:13} median {result['median_ms']:.2f} ms  "
                f"p95 {result['p95_ms']:.2f} ms  {result['per_second']:.0f} msg/s"
            )
