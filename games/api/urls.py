"""The Bot API's URLs (docs/bot-api.md), under ``/api/``."""

from django.urls import path

from games.api import views

urlpatterns = [
    path("bot/account", views.account, name="api_account"),
    path("bot/stream/event", views.event_stream, name="api_event_stream"),
    path("bot/match/<int:match_id>/stream", views.match_stream, name="api_match_stream"),
    path("bot/match/<int:match_id>/action", views.action, name="api_action"),
    path("bot/match/<int:match_id>/chat", views.chat, name="api_chat"),
    path("bot/match/<int:match_id>/resign", views.resign, name="api_resign"),
    path("bot/challenge/<int:challenge_id>/accept", views.accept, name="api_accept"),
    path("bot/challenge/<int:challenge_id>/decline", views.decline, name="api_decline"),
    path("bot/table", views.table, name="api_table"),
    path("challenge/<str:username>", views.challenge, name="api_challenge"),
]
