"""The lobby: tables being played now (with their score) and open tables,
filterable by variant, refreshed by a light poll of its list; one-click tables
against bots."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, JSONField, OuterRef, Prefetch, Q, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from games.forms import LobbyFilterForm
from games.models import BotLevel, Match, RuleSetConfig, ScoreRow, Seat, Table
from games.services import ServiceError, pools, ratings
from games.services import tables as table_services
from games.views import play_now
from games.views.requests import HtmxRequest

_OPEN_SEAT = Q(seats__user__isnull=True, seats__bot_level__isnull=True)
_SEATS = Seat.objects.select_related("user__player").order_by("index")
#: How often the lobby's list asks for a fresh copy (seconds).
POLL_SECONDS = 5


def _score() -> Subquery:
    """The running totals of the table's match being played (its last score row)."""
    rows = ScoreRow.objects.filter(
        match__table=OuterRef("pk"), match__status=Match.Status.PLAYING
    ).order_by("-number")
    return Subquery(rows.values("totals")[:1], output_field=JSONField())


def _tables(variant: str | None):
    tables = (
        Table.objects.filter(is_private=False)
        .exclude(status=Table.Status.FINISHED)
        .annotate(free_seats=Count("seats", filter=_OPEN_SEAT), score=_score())
        .prefetch_related(Prefetch("seats", queryset=_SEATS))
        .order_by("-created_at")
    )
    if variant:
        tables = tables.filter(variant=variant)
    return tables


def _with_ratings(tables: list[Any]) -> None:
    """Each seated person's rating in the table's variant beside their name
    (``seat.rating_label``): one query for every table listed."""
    seats = [(t, s) for t in tables for s in t.seats.all() if s.user_id is not None]
    shown = ratings.labels((s.user_id, t.game) for t, s in seats)
    for t, s in seats:
        s.rating_label = shown[(s.user_id, t.game)]


def _list_context(request: HttpRequest) -> dict:
    form = LobbyFilterForm(request.GET or None)
    variant = form.cleaned_data["variant"] if form.is_valid() else None
    tables = list(_tables(variant)[:100])
    _with_ratings(tables)
    return {
        "form": form,
        "tables": tables,
        "playing": [t for t in tables if t.status == Table.Status.PLAYING],
        "waiting": [t for t in tables if t.status == Table.Status.WAITING],
        "poll_seconds": POLL_SECONDS,
    }


@vary_on_headers("HX-Request")
def lobby(request: HtmxRequest) -> HttpResponse:
    context = _list_context(request)
    context["bot_levels"] = BotLevel.choices
    context["bot_level"] = request.session.get(BOT_LEVEL_KEY, table_services.QUICK_BOT_LEVEL)
    # Belote with announcements is one more quick button (classic bidding: rated as Belote).
    context["announcements_rule_set"] = RuleSetConfig.objects.filter(
        variant="belote", name=ANNOUNCEMENTS_RULE_SET
    ).first()
    if request.user.is_authenticated:
        context["my_tables"] = _my_tables(request.user)
    if request.htmx and not (request.htmx.boosted or request.htmx.history_restore_request):
        return render(request, "games/_table_list.html", context)
    context.update(play_now.status_context(request))
    return render(request, "games/lobby.html", context)


#: The built-in rule set of the lobby's "Belote with announcements" quick button
#: (games/migrations/0001_initial.py).
ANNOUNCEMENTS_RULE_SET = "Belote with announcements"

#: Where the lobby remembers the bot level last picked for quick play.
BOT_LEVEL_KEY = "quick_bot_level"


def _my_tables(user) -> list[Any]:
    """The viewer's running tables, each told apart by its opponents, its score
    and when it last moved."""
    tables: list[Any] = list(
        Table.objects.filter(seats__user=user)
        .exclude(status=Table.Status.FINISHED)
        .annotate(score=_score())
        .prefetch_related(Prefetch("seats", queryset=_SEATS))
        .distinct()
        .order_by("-created_at")[:20]
    )
    for table in tables:
        seats = list(table.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        table.opponents = [
            s for s in seats if mine is not None and s.side != mine.side
        ]
        table.my_side = mine.side if mine is not None else 0
        table.last_activity = table.turn_started_at or table.created_at
    return tables


@require_GET
def table_list(request: HttpRequest) -> HttpResponse:
    """Just the lists (what the lobby's poll fetches)."""
    return render(request, "games/_table_list.html", _list_context(request))


@require_POST
def play_bots(request: HttpRequest, variant: str) -> HttpResponse:
    """One click: a table against bots of the level picked beside the buttons
    (remembered in the session), the match running, the player in it."""
    if not request.user.is_authenticated:
        # After logging in they come back to the lobby and its buttons.
        return redirect_to_login(reverse("lobby"))
    level = request.POST.get("bot_level") or table_services.QUICK_BOT_LEVEL
    if level in BotLevel.values:
        request.session[BOT_LEVEL_KEY] = level  # remembered for the next quick game
    # A quick button may name a rule set of the variant (Belote with announcements).
    rule_set = None
    chosen = request.POST.get("rule_set") or ""
    if chosen.isascii() and chosen.isdigit() and len(chosen) < 10:
        rule_set = RuleSetConfig.objects.filter(pk=int(chosen)).first()
        if rule_set is None:
            messages.error(request, _("That rule set does not exist."))
            return redirect("lobby")
    try:
        table = table_services.create_quick_bot_table(
            request.user, variant, level, rule_set=rule_set
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby")
    # Playing now: no longer looking for a game (the pools skip a seated person).
    pools.leave(request.user)
    return redirect(table.get_absolute_url())
