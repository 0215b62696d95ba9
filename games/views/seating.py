"""Leaving a running match, returning to it, and rematches (games.services.seating).

Each address answers GET with a small confirm page (a plain form: it works
without JavaScript) and POST by acting. A POST from htmx gets 204: the table
page updates itself over its WebSocket; a plain POST is redirected to the table.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from games import access
from games.models import Table
from games.services import ServiceError, matches, seating
from games.views.requests import SignedInRequest


def _act(
    request: SignedInRequest,
    table: Table,
    action: Callable[[], object],
    confirm: dict[str, object],
) -> HttpResponse:
    if request.method == "GET":
        return render(request, "games/match_action_confirm.html", {"table": table, **confirm})
    try:
        action()
    except ServiceError as exc:
        messages.error(request, exc.message)
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"  # the page shows the message
            return response
    else:
        if request.htmx:
            return HttpResponse(status=204)
    return redirect(table.get_absolute_url())


@login_required
@require_http_methods(["GET", "POST"])
def leave(request: SignedInRequest, pk: int) -> HttpResponse:
    table = access.get_table(request, pk)
    return _act(
        request,
        table,
        lambda: seating.leave(table.pk, request.user),
        {
            "title": _("Leave the table?"),
            "text": seating.leave_consequence(table, request.user),
            "button": _("Leave the table"),
            "action": "leave-confirm",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def come_back(request: SignedInRequest, pk: int) -> HttpResponse:
    table = access.get_table(request, pk)
    return _act(
        request,
        table,
        lambda: seating.return_to_seat(table.pk, request.user),
        {
            "title": _("Return to your seat?"),
            "text": _("The bot playing for you stops and you play your own cards again."),
            "button": _("Return to my seat"),
            "action": "return",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def rematch(request: SignedInRequest, pk: int, match_pk: int) -> HttpResponse:
    table = access.get_table(request, pk)
    return _act(
        request,
        table,
        lambda: seating.rematch(table.pk, request.user, match_pk),
        {
            "title": _("Play a rematch?"),
            "text": _(
                "The same seats and settings, a new match at this table. It starts when "
                "every player has accepted; bots accept at once."
            ),
            "button": _("Rematch"),
            "action": "rematch",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def resign(request: SignedInRequest, pk: int) -> HttpResponse:
    table = access.get_table(request, pk)
    return _act(
        request,
        table,
        lambda: seating.resign(table.pk, request.user),
        {
            "title": _("Resign the match?"),
            "text": seating.resign_consequence(table, request.user),
            "button": _("Resign"),
            "action": "resign-confirm",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def next_deal(request: SignedInRequest, pk: int) -> HttpResponse:
    table = access.get_table(request, pk)
    return _act(
        request,
        table,
        lambda: matches.deal_next_for(table.pk, request.user),
        {
            "title": _("Deal the next deal?"),
            "text": _("The previous deal's result leaves the table and the next deal is dealt."),
            "button": _("Next deal"),
            "action": "next-deal",
        },
    )
