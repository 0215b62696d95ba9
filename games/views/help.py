"""How to play: one page per variant, written out in each language.

The rules pages are whole texts, not strings: each language has its own template
(``templates/help/<language>/<variant>.html``), written for players and checked
against docs/rules.md. A language without its own page falls back to English.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from engine.rules import BELOTE, OPEN_BLOT
from games.labels import GAME_SLUGS, slug_of


def how_to_play(request: HttpRequest, variant: str) -> HttpResponse:
    # A variant's page, or Coinche's (which also tells Belote's announcements).
    engine_variant = GAME_SLUGS.get(variant)
    if engine_variant is None:
        raise Http404("no such variant")
    language = get_language() or settings.LANGUAGE_CODE
    templates = [
        f"help/{language}/{engine_variant}.html",
        f"help/{settings.LANGUAGE_CODE}/{engine_variant}.html",
    ]
    other = OPEN_BLOT if engine_variant == BELOTE else BELOTE
    return render(request, templates, {"variant": engine_variant, "other": slug_of(other)})
