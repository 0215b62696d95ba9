"""Leaderboards: the best rated players of a variant, and where you stand."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from engine.ratings import BOT_RATINGS
from games.labels import VARIANT_SLUGS, slug_of
from games.models import BotLevel, Variant
from games.services import ratings


def leaderboard(request: HttpRequest, variant: str = "belote") -> HttpResponse:
    engine_variant = VARIANT_SLUGS.get(variant)
    if engine_variant is None:
        raise Http404
    board = ratings.leaderboard(engine_variant)
    mine = ratings.standing(request.user, engine_variant) if request.user.is_authenticated else None
    context = {
        "variant": engine_variant,
        "variant_slug": variant,
        "variant_label": Variant(engine_variant).label,
        "board": board,
        "mine": mine,
        "variants": [(slug_of(v), label) for v, label in Variant.choices],
        "min_matches": ratings.LEADERBOARD_MIN_MATCHES,
        "active_days": ratings.LEADERBOARD_ACTIVE_DAYS,
        "bots": [
            (level, label, BOT_RATINGS[engine_variant][level])
            for level, label in BotLevel.choices
        ],
    }
    return render(request, "games/leaderboard.html", context)
