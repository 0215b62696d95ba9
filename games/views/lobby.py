"""The lobby: public tables that are waiting or playing, filterable by variant."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.vary import vary_on_headers

from games.forms import LobbyFilterForm
from games.models import Seat, Table

_OPEN_SEAT = Q(seats__user__isnull=True, seats__bot_level__isnull=True)
_SEATS = Seat.objects.select_related("user__player").order_by("index")


def _tables(variant: str | None):
    tables = (
        Table.objects.filter(is_private=False)
        .exclude(status=Table.Status.FINISHED)
        .annotate(free_seats=Count("seats", filter=_OPEN_SEAT))
        .prefetch_related(Prefetch("seats", queryset=_SEATS))
        .order_by("-status", "-created_at")  # waiting (open seats) first
    )
    if variant:
        tables = tables.filter(variant=variant)
    return tables


@vary_on_headers("HX-Request")
def lobby(request: HttpRequest) -> HttpResponse:
    form = LobbyFilterForm(request.GET or None)
    variant = form.cleaned_data["variant"] if form.is_valid() else None
    context = {"form": form, "tables": _tables(variant)[:100]}
    if request.user.is_authenticated:
        context["my_tables"] = (
            Table.objects.filter(seats__user=request.user)
            .exclude(status=Table.Status.FINISHED)
            .distinct()
        )
    if request.htmx and not (request.htmx.boosted or request.htmx.history_restore_request):
        return render(request, "games/_table_list.html", context)
    return render(request, "games/lobby.html", context)
