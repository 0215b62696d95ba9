"""Leaderboards: the best rated players of a variant, and where you stand."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from engine.ratings import BOT_RATINGS, MU0, PROVISIONAL_MATCHES, is_provisional, label
from games.labels import VARIANT_SLUGS, slug_of
from games.models import BotLevel, Variant
from games.services import ratings


def _rows(board: list[ratings.Leader], variant: str) -> list[dict[str, object]]:
    """The ranked people with the bots placed among them by rating (a bot below
    people of its own rating): one scale, so a reader sees where each person
    stands against each bot."""
    bots = sorted(
        ((BOT_RATINGS[variant][level], level, label) for level, label in BotLevel.choices),
        reverse=True,
    )
    rows: list[dict[str, object]] = []
    for leader in board:
        while bots and bots[0][0] > leader.rating:
            rating, level, name = bots.pop(0)
            rows.append({"bot": level, "name": name, "rating": rating})
        rows.append({"leader": leader})
    rows.extend({"bot": level, "name": name, "rating": rating} for rating, level, name in bots)
    return rows


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
        "rows": _rows(board, engine_variant),
        "new_rating": label(round(MU0), is_provisional(0)),
        "provisional_matches": PROVISIONAL_MATCHES,
    }
    return render(request, "games/leaderboard.html", context)
