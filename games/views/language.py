"""The header's language switcher: Django's ``set_language``, and the profile."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from games.models import Player


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Remember the chosen language in the cookie (Django's view, which also refuses
    unknown languages and unsafe ``next`` URLs) and, for a signed-in player, on
    their profile — which is what serves them on every device."""
    response = django_set_language(request)
    language = request.POST.get("language")
    if language in dict(settings.LANGUAGES) and request.user.is_authenticated:
        Player.objects.update_or_create(
            user=request.user,
            defaults={"language": language},
            create_defaults={
                "language": language,
                "display_name": request.user.get_username()[:40],
            },
        )
    return response
