"""Top-level URLs: the admin, the Bot API, accounts, and the games app."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("", include("games.ops.urls")),
    path("", include("games.urls")),
]
