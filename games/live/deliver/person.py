"""Pushing what a service announced to one person to every page they have open.

``games.services.changes.announce_to_user`` sends the ``user_notified`` signal
after commit; the receiver here forwards the event to the person's group, which
only that person's sockets join (``games.live.receive.person``). It never
raises into the service that announced: the change is committed either way, and
a page that missed a push is put right when it reconnects or when the process
hears the channel layer again (``table.resync``).
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.dispatch import receiver

from games.runtime.lograte import RateLimitedLog
from games.services import changes

log = logging.getLogger(__name__)

#: Events whose ``data["url"]`` is a table the person's pages go to at once.
NAVIGATING_EVENTS = frozenset({"paired", "challenge-accepted"})
SEND_TIMEOUT_S = 2.0

_failures = RateLimitedLog(log, "Pushing an event to a person's pages")


def person_group(user_id: int) -> str:
    """Every open page of one signed-in person."""
    return f"person-{user_id}"


async def send_to_person(user_id: int, event: str, data: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "person.event", "event": event, "data": data}
    await asyncio.wait_for(layer.group_send(person_group(user_id), message), SEND_TIMEOUT_S)


@receiver(changes.user_notified)
def _announced_to_user(
    sender: object, user_id: int, event: str, data: dict[str, object], **kwargs: object
) -> None:
    try:
        async_to_sync(send_to_person)(user_id, event, data)
    except Exception as exc:
        _failures.failed(exc)
    else:
        _failures.recovered()
