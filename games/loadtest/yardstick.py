"""A bare listener for the load command's yardstick (``manage.py loadtest``).

It joins one ``loadtest-yardstick-*`` group and forwards whatever is sent to it,
so the yardstick's broadcast goes the way a table's frames go (channel layer →
Daphne → WebSocket) with no move behind it. It reads nothing and sends nothing of
its own, and no table's group matches its names, so a listener learns nothing;
only signed-in users may listen, like players (spectators of a table need no
account, so it opens no door a table does not)."""

from __future__ import annotations

import re

from channels.generic.websocket import AsyncWebsocketConsumer

GROUP = re.compile(r"loadtest-yardstick-[0-9a-f]{1,16}-[0-9]{1,6}")
CLOSE_REFUSED = 4403


class YardstickConsumer(AsyncWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        name = self.scope["url_route"]["kwargs"]["group"]
        if user is None or not user.is_authenticated or not GROUP.fullmatch(name):
            await self.close(code=CLOSE_REFUSED)
            return
        self.group = name
        await self.channel_layer.group_add(name, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Listen only: whatever a client sends is ignored."""

    async def table_frame(self, event: dict) -> None:
        await self.send(text_data=event["html"])
