"""WebSocket URLs of the live tables."""

from django.urls import path

from games.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
