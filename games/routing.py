"""The app's WebSocket URLs (what games/urls.py is for pages)."""

from typing import Any

from django.urls import path

from games.live.receive.chat import TournamentChatConsumer
from games.live.receive.consumers import TableConsumer
from games.live.receive.person import PersonConsumer
from games.loadtest.yardstick import YardstickConsumer

# Channels routes consumers with Django's path(), whose stubs expect views.
websocket_urlpatterns: list[Any] = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
    # A tournament page's chat room.
    path("ws/chat/tournament/<int:tournament_id>/", TournamentChatConsumer.as_asgi()),  # type: ignore[arg-type]
    # A signed-in person's own socket on every page (games/live/receive/person.py).
    path("ws/person/", PersonConsumer.as_asgi()),  # type: ignore[arg-type]
    # The load command's bare broadcast (docs/performance.md).
    path("ws/loadtest-yardstick/<str:group>/", YardstickConsumer.as_asgi()),  # type: ignore[arg-type]
]
