"""Leaderboards: the best rated players of a variant, and where you stand."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from engine.ratings import BOT_RATINGS, MU0, PROVISIONAL_MATCHES, is_provisional, label
from games.labels import GAME_SLUGS, game_slug_of, slug_of
from games.models import BotLevel, Game, variant_of_game
from games.services import ratings


def _rows(board: list[ratings.Leader], variant: str) -> list[dict[str, object]]:
    """The ranked people with the bots placed among them by rating (a bot below
    people of its own rating): one scale, so a reader sees where each person
    stands against each bot."""
    bots = sorted(
        # Coinche's bots stand at their Belote ratings: the same bots, one scale.
        (
            (BOT_RATINGS[variant_of_game(variant)][level], level, label)
            for level, label in BotLevel.choices
        ),
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
    # A game's board: a variant's, or Coinche's (rated apart from classic Belote).
    engine_variant = GAME_SLUGS.get(variant)
    if engine_variant is None:
        raise Http404
    board = ratings.leaderboard(engine_variant)
    mine = ratings.standing(request.user, engine_variant) if request.user.is_authenticated else None
    context = {
        "variant": engine_variant,
        "variant_slug": variant,
        "variant_label": Game(engine_variant).label,
        # The bots' own ladder is kept per engine variant.
        "bot_slug": slug_of(variant_of_game(engine_variant)),
        "board": board,
        "mine": mine,
        "variants": [(game_slug_of(g), label) for g, label in Game.choices],
        "min_matches": ratings.LEADERBOARD_MIN_MATCHES,
        "active_days": ratings.LEADERBOARD_ACTIVE_DAYS,
        "rows": _rows(board, engine_variant),
        "new_rating": label(round(MU0), is_provisional(0)),
        "provisional_matches": PROVISIONAL_MATCHES,
    }
    return render(request, "games/leaderboard.html", context)
