"""Noticing that this process hears its channel layer again after an outage.

With the pub/sub layer a process hears a group only while its subscription to
Redis stands. When Redis restarts, redis-py subscribes again a moment after
Redis answers; a frame published in that moment (another process's retry, a
bot's move) reaches nobody here, and the publisher cannot tell. So each process
checks its own hearing: it sends a probe to a channel of its own and waits for
it. Once a probe comes back after one did not, every live connection of the
process is told to resend its table (``table.resync``): a version query each,
and a frame only for a viewer who lacks the stored version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from games.runtime.cancelling import raise_if_cancelled
from games.runtime.lograte import RateLimitedLog

log = logging.getLogger(__name__)

#: Between probes while the layer is heard, and while it is not.
PROBE_EVERY_S = 1.0
PROBE_EVERY_AWAY_S = 0.25
#: A probe not back within this is lost: the layer is away (or this process deaf).
PROBE_TIMEOUT_S = 2.0

_failures = RateLimitedLog(log, "Hearing the channel layer")


class LayerWatch:
    """Probes ``layer`` from this process; calls ``on_back`` when it is heard
    again after a probe was lost."""

    def __init__(self, layer: Any, on_back: Callable[[], Awaitable[None]]) -> None:
        self.layer = layer
        self.on_back = on_back
        self.away = False
        self._sent = 0
        self._heard = 0
        self._arrived = asyncio.Event()

    async def run(self) -> None:
        channel = await self._own_channel()
        listener = asyncio.create_task(self._listen(channel))
        try:
            while True:
                raise_if_cancelled()
                heard = await self.probe(channel)
                if not heard:
                    if not self.away:
                        _failures.failed(TimeoutError("a probe of this process's channel was lost"))
                    self.away = True
                elif self.away:
                    self.away = False
                    _failures.recovered()
                    await self.on_back()
                await asyncio.sleep(PROBE_EVERY_AWAY_S if self.away else PROBE_EVERY_S)
        finally:
            listener.cancel()

    async def probe(self, channel: str) -> bool:
        """Send one probe; whether it (or a later one) arrived in time."""
        self._sent += 1
        number = self._sent
        self._arrived.clear()
        try:
            # asyncio.timeout, not wait_for: see games/runtime/cancelling.py.
            async with asyncio.timeout(PROBE_TIMEOUT_S):
                await self.layer.send(channel, {"type": "probe", "n": number})
        except asyncio.CancelledError:
            raise
        except Exception:
            return False
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(PROBE_TIMEOUT_S):
                while self._heard < number:
                    await self._arrived.wait()
                    self._arrived.clear()
        return self._heard >= number

    async def _own_channel(self) -> str:
        delay = PROBE_EVERY_AWAY_S
        while True:
            raise_if_cancelled()
            try:
                return await self.layer.new_channel("blot-probe.")
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away as the process starts: keep trying
                await asyncio.sleep(delay)
                delay = min(delay * 2, PROBE_TIMEOUT_S)

    async def _listen(self, channel: str) -> None:
        # Never cancelled while the watch runs: the pub/sub layer drops a channel's
        # subscription when a receive on it is cancelled.
        while True:
            raise_if_cancelled()
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(PROBE_EVERY_AWAY_S)
                continue
            self._heard = max(self._heard, int(message.get("n", 0)))
            self._arrived.set()
