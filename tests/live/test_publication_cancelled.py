"""A publication cut off by the process stopping (its task cancelled while the
channel layer is still sending) ends quietly: nothing is left for the garbage
collector to report as an error nobody read, which a clean stop must not log."""

from __future__ import annotations

import asyncio
import gc

import pytest

from games.live.deliver import notify
from games.live.draw import frames

pytestmark = pytest.mark.asyncio


class StuckLayer:
    """A channel layer whose sends never finish."""

    def __init__(self) -> None:
        self.sending = asyncio.Event()

    async def group_send(self, group: str, message: dict) -> None:
        self.sending.set()
        await asyncio.sleep(3600)


async def _cancelled_midway(monkeypatch, publication) -> list[dict]:
    layer = StuckLayer()
    monkeypatch.setattr(notify, "get_channel_layer", lambda: layer)
    loop = asyncio.get_running_loop()
    reported: list[dict] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    try:
        task = asyncio.create_task(publication())
        await layer.sending.wait()
        task.cancel()
        await asyncio.wait([task])
        assert task.cancelled()
        del task
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(previous)
    return reported


async def test_a_cancelled_frame_publication_leaves_no_error_to_report(monkeypatch) -> None:
    html = frames.Frames({0: 7, 1: 8})
    html[(0, "en")] = "<div>seat 0</div>"
    html[(1, "en")] = "<div>seat 1</div>"
    reported = await _cancelled_midway(monkeypatch, lambda: notify.publish_async(1, 2, html))
    assert reported == []


async def test_a_cancelled_seat_notice_leaves_no_error_to_report(monkeypatch) -> None:
    reported = await _cancelled_midway(monkeypatch, lambda: notify._tell_people(1, [7, 8]))
    assert reported == []


async def test_a_publication_the_layer_never_finishes_fails_after_its_time(monkeypatch) -> None:
    """The caller hears the failure (and retries) instead of waiting forever."""
    monkeypatch.setattr(notify, "get_channel_layer", StuckLayer)
    monkeypatch.setattr(notify, "SEND_TIMEOUT_S", 0.05)
    html = frames.Frames({0: 7})
    html[(0, "en")] = "<div>seat 0</div>"
    with pytest.raises(TimeoutError):
        await notify.publish_async(1, 2, html)
