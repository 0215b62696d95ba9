"""Play now: join a pairing pool from the lobby, see the wait, leave it.

The pairing itself happens in the periodic runner's matchmaking job
(``games.periodic``, calling ``games.services.pools``); when it seats someone,
their open pages are told over their socket and go to the table. The status
fragment below also sends them there (``HX-Redirect``) the next time it
refreshes, so a page without that socket is not left waiting.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games.forms.pools import PlayNowForm
from games.models import Table
from games.services import ServiceError, pools

PLAYING = Table.Status.PLAYING
#: How often the waiting status refreshes (seconds).
STATUS_POLL_SECONDS = 2
#: Where the lobby remembers the last Play-now choices (a refusal's too).
CHOICES_KEY = "play_now_choices"


def status_context(request: HttpRequest) -> dict:
    """The lobby's Play-now part: the form, or the wait, or the table ready."""
    state = pools.status(request.user)
    context: dict = {"status_poll_seconds": STATUS_POLL_SECONDS}
    if isinstance(state, pools.Waiting):
        context["queue"] = state
    elif state is not None and state.table is not None and state.table.status == PLAYING:
        context["ready_table"] = state.table
    else:
        remembered = request.session.get(CHOICES_KEY)
        context["play_now_form"] = PlayNowForm(initial=remembered or {})
    return context


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("lobby"))
    form = PlayNowForm(request.POST)
    # Kept whatever happens, so the form comes back as it was sent.
    request.session[CHOICES_KEY] = PlayNowForm.remembered(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
        return redirect("lobby")
    data = form.cleaned_data
    try:
        pools.join(
            request.user,
            variant=data["variant"],
            fmt=data["format"],
            rated=data["rated"],
            bots_ok=data["bots"],
            partner=data["partner"],
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("lobby")


@require_POST
def leave_queue(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        pools.leave(request.user)
    return redirect("lobby")


@require_GET
def queue_status(request: HttpRequest) -> HttpResponse:
    """The fragment the waiting status refreshes itself with."""
    context = status_context(request)
    response = render(request, "games/_play_now.html", context)
    ready = context.get("ready_table")
    if ready is not None and request.headers.get("HX-Request"):
        response["HX-Redirect"] = ready.get_absolute_url()
    return response
