"""A process notices when it hears its channel layer again after an outage and
brings its viewers up to date (frames published while its subscription was
down reached nobody in it)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer

from engine.actions import Action
from games.live.deliver import layerwatch, notify
from games.live.deliver.layerwatch import LayerWatch
from games.live.receive import consumers
from tests.live.conftest import live_of, play_as_holder
from tests.live.wsclient import connect, receive_table, version_of


class FlakyLayer(InMemoryChannelLayer):
    """An in-memory layer that can go deaf (a send reaches nobody, as a pub/sub
    publish does while the subscription is down) or refuse sends outright."""

    def __init__(self) -> None:
        super().__init__()
        self.deaf = False
        self.refusing = False

    async def send(self, channel: str, message: dict) -> None:
        if self.refusing:
            raise ConnectionError("Redis is away")
        if not self.deaf:
            await super().send(channel, message)


@pytest.fixture
def quick_probes(monkeypatch) -> None:
    monkeypatch.setattr(layerwatch, "PROBE_EVERY_S", 0.02)
    monkeypatch.setattr(layerwatch, "PROBE_EVERY_AWAY_S", 0.02)
    monkeypatch.setattr(layerwatch, "PROBE_TIMEOUT_S", 0.1)


async def _until(condition, timeout: float = 5) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def _watch(layer: FlakyLayer, fault: str) -> tuple[list[bool], LayerWatch]:
    """Run a watch through a healthy spell, ``fault``, and recovery; the
    calls of ``on_back`` seen at each stage."""
    backs: list[bool] = []

    async def on_back() -> None:
        backs.append(True)

    watch = LayerWatch(layer, on_back)
    task = asyncio.create_task(watch.run())
    try:
        await _until(lambda: watch._heard >= 3)
        assert not backs and not watch.away, "a healthy layer is never reported back"
        setattr(layer, fault, True)
        await _until(lambda: watch.away)
        assert not backs
        setattr(layer, fault, False)
        await _until(lambda: bool(backs))
        await asyncio.sleep(0.2)
        return backs, watch
    finally:
        task.cancel()


@pytest.mark.asyncio
@pytest.mark.parametrize("fault", ["deaf", "refusing"])
async def test_it_says_once_that_the_layer_is_heard_again_after_probes_were_lost(
    quick_probes, fault
) -> None:
    backs, watch = await _watch(FlakyLayer(), fault)
    assert backs == [True]
    assert not watch.away


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_it_brings_its_viewers_up_to_date_when_the_layer_is_heard_again(
    duel, alice, bob, monkeypatch
) -> None:
    viewer, _ = await connect(duel.pk, alice)
    seen = version_of(await receive_table(viewer))
    # A move stored while this process heard nothing: its frames reached nobody.
    monkeypatch.setattr(notify, "table_changed", lambda *args, **kwargs: None)
    live = await sync_to_async(live_of)(duel)
    stored = await sync_to_async(play_as_holder)(duel.pk, Action(live.engine.to_act, "pass"), seen)
    assert await viewer.receive_nothing(timeout=0.3)

    await consumers.resync_live_connections()

    assert version_of(await receive_table(viewer, at_least=stored)) == stored
    await viewer.disconnect()


class CancellingLayer(FlakyLayer):
    """Cancels ``task`` from inside a probe's send, so the cancel lands in the
    same turn of the loop as the send's completion (as when a process stops, or
    a test's loop is closed, just as a probe goes out)."""

    task: asyncio.Task | None = None

    async def send(self, channel: str, message: dict) -> None:
        await super().send(channel, message)
        if self.task is not None:
            self.task.cancel()


@pytest.mark.asyncio
async def test_it_stops_when_cancelled_just_as_a_probe_is_sent(quick_probes) -> None:
    # Python 3.11's wait_for returned the finished send and dropped the cancel;
    # the watch went on probing for ever, and the loop holding it never closed.
    layer = CancellingLayer()

    async def on_back() -> None:
        pass

    task = asyncio.create_task(LayerWatch(layer, on_back).run())
    layer.task = task
    done, _ = await asyncio.wait({task}, timeout=5)
    layer.task = None
    task.cancel()
    assert task in done and task.cancelled()
