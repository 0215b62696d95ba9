"""WebSocket routes. Live tables (the next issue) add their consumers here."""

from __future__ import annotations

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
