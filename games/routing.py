"""The app's WebSocket URLs (what games/urls.py is for pages)."""

from django.urls import path

from games.live.receive.consumers import TableConsumer
from games.loadtest.yardstick import YardstickConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    # The load command's bare broadcast (docs/performance.md).
    path("ws/loadtest-yardstick/<str:group>/", YardstickConsumer.as_asgi()),
]
