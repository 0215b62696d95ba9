"""What a seated person may do about the match itself, beside playing it: leave
(and come back), and at the end a rematch or a new table like this one.

``view`` decides what the table shows; the actions are POSTs to
``games.views.seating`` (each also answers GET with a small confirm page, so
they work without JavaScript). Spectators get nothing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from django.urls import get_script_prefix
from django.urls import reverse as django_reverse

from games.live.draw.viewing import MatchState
from games.models import Match, Participant, Rematch, Seat, Table
from games.services.seating import prefill_new_table


@lru_cache(maxsize=4096)
def _reverse(name: str, args: tuple[int, ...], prefix: str) -> str:
    return django_reverse(name, args=args)


def reverse(name: str, args: list[int] | tuple[int, ...] = ()) -> str:
    """A table's action URL, reversed once per process: every viewpoint of every
    move draws them, and reversing was a twentieth of drawing a frame."""
    return _reverse(name, tuple(args), get_script_prefix())


def match_actions_context(table: Table, seat: int | None, state: MatchState) -> dict[str, Any]:
    """What the viewer may do about the match (:func:`view`), and the way back to
    its tournament's page."""
    match = state.match
    context: dict[str, Any] = {
        "match_actions": view(
            table,
            match,
            seat,
            seats=state.seat_rows,
            participants=state.participants,
            resigned=state.resigned,
        )
    }
    if match.tournament_id is not None:
        context["tournament_url"] = reverse("tournament", args=[match.tournament_id])
    return context


def view(
    table: Table,
    match: Match | None,
    seat: int | None,
    user: Any = None,
    seats: dict[int, Seat] | None = None,
    participants: list[Participant] | None = None,
    resigned: set[int] | None = None,
) -> dict | None:
    """What to offer the viewer in ``seat`` (None: a spectator; nothing).
    ``seats`` (the table's seats by index) and ``participants`` (the match's):
    when the caller has them already; ``resigned``: the seats whose person resigned."""
    if seat is None or match is None:
        return None
    if seats is None:
        seats = {row.index: row for row in table.seats.order_by("index")}
    mine = seats.get(seat)
    if mine is None or mine.user_id is None:
        return None
    if user is not None and getattr(user, "pk", None) != mine.user_id:
        return None
    if match.status == Match.Status.PLAYING:
        if mine.left_at is not None or mine.stand_in_since is not None:
            if resigned is not None and seat in resigned:
                return {"kind": "resigned"}
            return {
                "kind": "return",
                "url": reverse("match_return", args=[table.pk]),
                "timed_out": mine.left_at is None,
            }
        return {
            "kind": "leave",
            "url": reverse("match_leave", args=[table.pk]),
            "resign_url": reverse("match_resign", args=[table.pk]),
        }
    if match.tournament_id is not None:
        # A tournament's table plays its pairing once: no rematch (it would be a
        # match outside the tournament), the way back is the tournament's page.
        return {"kind": "tournament"}
    offer = Rematch.objects.filter(match=match).first()
    if offer is not None and offer.new_match_id is not None:
        return None  # the rematch is on: the table shows it
    accepted = set(offer.accepted) if offer else set()
    if participants is None:
        participants = list(Participant.objects.filter(match=match))
    names = {p.index: p.name for p in participants}
    waiting = [
        names.get(s.index, "?")
        for s in sorted(seats.values(), key=lambda s: s.index)
        if s.index not in accepted and s.bot_level is None and s.left_at is None
    ]
    like_this = urlencode(prefill_new_table(table, seats.values()))
    return {
        "kind": "rematch",
        "url": reverse("match_rematch", args=[table.pk, match.pk]),
        "offered": offer is not None,
        "accepted": seat in accepted,
        "waiting_for": ", ".join(n for n in waiting if n != names.get(seat)),
        "new_table_url": f"{reverse('table_create')}?{like_this}",
    }
