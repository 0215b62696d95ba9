"""Creating a table, the table page (waiting room), joining and leaving seats."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from games import access
from games.forms import TableCreateForm, VariantForm
from games.live.draw.chat import table_panel
from games.live.draw.render import live_socket_url, render_table
from games.models import Table, Variant
from games.ratelimit import client_address
from games.services import ServiceError, ratings, seating
from games.services import tables as table_services
from games.views.requests import HtmxRequest, SignedInRequest


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def table_create(request: SignedInRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    variant_form = VariantForm(source or None, initial={"variant": Variant.BELOTE})
    variant = variant_form.cleaned_data["variant"] if variant_form.is_valid() else Variant.BELOTE
    # "New table" at a finished match links here with that table's settings.
    prefill = {k: v for k, v in request.GET.items() if k != "variant"}
    form = TableCreateForm(variant, request.POST or None, initial=prefill)
    if request.method == "POST" and form.is_valid():
        try:
            table = table_services.create_table(
                user=request.user,
                variant=variant,
                fmt=form.cleaned_data["format"],
                rule_set=form.cleaned_data["rule_set"],
                others=form.others(),
                is_private=form.cleaned_data["is_private"],
                rated=form.cleaned_data["rated"],
                address=client_address(request),
                **form.timing(),
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(table.get_absolute_url())
    context = {"variant_form": variant_form, "form": form, "variant": variant}
    if request.htmx and request.method == "GET" and not request.htmx.history_restore_request:
        return render(request, "games/_table_form.html", context)
    return render(request, "games/table_create.html", context)


def _table_page(request: HtmxRequest, table: Table, token: str | None) -> HttpResponse:
    seats = list(table.seats.select_related("user__player").order_by("index"))
    user = request.user
    my_seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    match = table.current_match()
    if match is None:  # the waiting room: each person's rating beside their name
        people = [s.user_id for s in seats if s.user_id is not None]
        shown = ratings.labels((user, table.game) for user in people)
        for s in seats:
            label = None if s.user_id is None else shown[(s.user_id, table.game)]
            s.rating_label = label  # type: ignore[attr-defined]
    context = {
        "table": table,
        "seats": seats,
        "my_seat": my_seat,
        "token": token,
        "is_creator": user.is_authenticated and table.created_by_id == user.pk,
        "match": match,
        "invite_link": request.build_absolute_uri(table.invite_url()),
    }
    if match is not None:
        # The live table: the same rendering the WebSocket sends on every change.
        context["live_html"] = render_table(table, my_seat.index if my_seat else None)
        context["ws_url"] = live_socket_url(table, token)
        if my_seat is not None and user.is_authenticated:
            context["resign_text"] = seating.resign_consequence(table, user)
            context["leave_text"] = seating.leave_consequence(table, user)
        seat = my_seat.index if my_seat else None
        context["chat_html"] = table_panel(table.pk, user, seat, request.get_full_path())
    return render(request, "games/table.html", context)


def table_detail(request: HtmxRequest, pk: int) -> HttpResponse:
    return _table_page(request, access.get_table(request, pk), None)


def table_invite(request: HtmxRequest, token: str) -> HttpResponse:
    table = access.get_table_by_invite(token)
    return _table_page(request, table, token)


def _after_change(table: Table, token: str | None) -> HttpResponse:
    if token:
        return redirect(table.invite_url())
    return redirect("table", pk=table.pk)


@login_required
@require_POST
def seat_join(request: SignedInRequest, pk: int, index: int) -> HttpResponse:
    token = request.POST.get("invite") or None
    table = access.get_table(request, pk, token)
    try:
        table_services.join_seat(table.pk, request.user, index)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return _after_change(table, token)


@login_required
@require_POST
def seat_leave(request: SignedInRequest, pk: int, index: int) -> HttpResponse:
    token = request.POST.get("invite") or None
    table = access.get_table(request, pk, token)
    access.get_own_seat(request, table, index)
    try:
        still_there = table_services.leave_seat(table.pk, request.user, index)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _after_change(table, token)
    if not still_there:
        return redirect("lobby")
    return _after_change(table, token if table.is_private else None)


@login_required
@require_POST
def table_cancel(request: SignedInRequest, pk: int) -> HttpResponse:
    table = access.get_created_table(request, pk)
    try:
        table_services.cancel_table(table.pk, request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _after_change(table, None)
    return redirect("lobby")
