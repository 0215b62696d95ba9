"""A signed-in player's saved language, on every page."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.models import Player


class PreferredLanguageMiddleware:
    """LocaleMiddleware picks a language from the cookie or the browser before the
    user is known; for a signed-in player the language saved on their profile wins,
    on any device they log in from."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = Player.objects.filter(user=user).values_list("language", flat=True).first()
            if language in dict(settings.LANGUAGES):
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
