"""WebSocket URLs of the live tables."""

from django.urls import path

from games.live.consumers import TableConsumer
from games.live.yardstick import YardstickConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    # The load command's bare broadcast (README "Load test").
    path("ws/loadtest-yardstick/<str:group>/", YardstickConsumer.as_asgi()),
]
