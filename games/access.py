"""Access helpers: fetch an object for the current viewer or raise 404.

A private table (and its matches and deals) does not exist for someone who has
neither its invite token nor a seat at it: they get the same 404 as for a table
that was never created.
"""

from __future__ import annotations

import hmac

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from games.models import Deal, Match, Seat, Table


def _is_member(request: HttpRequest, table: Table) -> bool:
    user = request.user
    if not user.is_authenticated:
        return False
    if user.is_staff or table.created_by_id == user.pk:
        return True
    return (
        table.seats.filter(user=user).exists()
        or table.matches.filter(participants__user=user).exists()
    )


def token_matches(table: Table, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(str(token), table.invite_token)


def can_view_table(request: HttpRequest, table: Table, token: str | None = None) -> bool:
    return not table.is_private or token_matches(table, token) or _is_member(request, table)


def get_table(request: HttpRequest, pk: int, token: str | None = None) -> Table:
    """The table ``pk`` if the viewer may see it (``token``: an invite token they
    presented, e.g. a hidden form field on the invite page)."""
    table = get_object_or_404(Table, pk=pk)
    if not can_view_table(request, table, token):
        raise Http404("No such table")
    return table


def get_table_by_invite(token: str) -> Table:
    return get_object_or_404(Table, invite_token=token)


def get_created_table(request: HttpRequest, pk: int) -> Table:
    """A table the viewer created; anyone else's is a 404."""
    return get_object_or_404(Table, pk=pk, created_by=request.user)


def get_own_seat(request: HttpRequest, table: Table, index: int) -> Seat:
    """The viewer's own seat ``index`` at ``table``; anyone else's seat is a 404."""
    return get_object_or_404(Seat, table=table, index=index, user=request.user)


def get_match(request: HttpRequest, pk: int) -> Match:
    match = get_object_or_404(Match.objects.select_related("table"), pk=pk)
    if not can_view_table(request, match.table):
        raise Http404("No such match")
    return match


def get_deal(request: HttpRequest, match_pk: int, number: int) -> Deal:
    match = get_match(request, match_pk)
    return get_object_or_404(Deal.objects.select_related("match"), match=match, number=number)
