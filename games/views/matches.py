"""Match pages (players, format, score table) and deal pages (the deal record)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games import access
from games.labels import unrated_label
from games.live.draw.chat import match_chat_html
from games.models import Deal, Match, MatchEvent
from games.services import fairplay, ratings
from games.services.analysis import match_analysis
from games.views.analysis import match_accuracies


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = access.get_match(request, pk)
    participants = list(match.participants.select_related("user").order_by("index"))
    names = {p.index: p.shown_name for p in participants}
    rows = list(match.score_rows.select_related("deal").order_by("number"))
    for row in rows:  # dealer and taker by name, not by seat number
        setattr(row, "dealer_name", names.get(row.dealer, "?"))  # noqa: B010 - for the page only
        setattr(row, "taker_name", None if row.taker is None else names.get(row.taker, "?"))  # noqa: B010
    changes = {c.index: c for c in match.rating_changes.all()}
    people = {p.index: p.user_id for p in participants if p.user_id is not None}
    shown = ratings.labels((user, match.game) for user in people.values())
    for p in participants:  # a rated match's change beside each person, else their rating
        p.rating_change = changes.get(p.index)  # type: ignore[attr-defined]
        user = people.get(p.index)
        label = None if user is None else shown[(user, match.game)]
        p.rating_label = label  # type: ignore[attr-defined]
    events = _events(match, participants)
    unrated = ratings.unrated_of(match)
    context = {
        "match": match,
        "participants": participants,
        "sides": _sides(participants),
        "rows": rows,
        "best_of": match.format.startswith("best_of"),
        "deals": list(match.deals.order_by("number")),
        "events": events,
        "resigned": [e["name"] for e in events if e["kind"] == MatchEvent.Kind.RESIGNED],
        "accuracies": match_accuracies(match, {p.index: p.shown_name for p in participants}),
        "analysis": match_analysis(match),
        "unrated": unrated,
        "unrated_sentence": unrated and unrated_label(unrated.reason, fairplay.DAILY_MEETINGS),
    }
    if match.status == Match.Status.FINISHED:
        # The players' room is part of the match record.
        context["chat_html"] = match_chat_html(match.pk, request.user)
    return render(request, "games/match.html", context)


def _events(match, participants) -> list[dict]:
    """Who left the table and who came back, and when (games.services.seating)."""
    names = {p.index: p.shown_name for p in participants}
    return [
        {"name": names.get(e.index, "?"), "kind": e.kind, "at": e.at, "deal": e.deal_number}
        for e in match.events.all()
    ]


def _sides(participants) -> list[list]:
    sides: list[list] = [[], []]
    for p in participants:
        sides[p.side].append(p)
    return sides


def _record_visible(deal: Deal) -> bool:
    # The deck (and with it every hand) stays secret until the deal is over;
    # only the commitment is public meanwhile. Staff are no exception: a staff
    # member may be seated in the match, and the site cannot tell a
    # curious onlooker from a player's friend, so nobody reads a running deal's deck.
    return deal.is_finished


def deal_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deal = access.get_deal(request, pk, number)
    visible = _record_visible(deal)
    record = deal.export_dict() if visible else None
    context = {
        "deal": deal,
        "match": deal.match,
        "visible": visible,
        "record_json": json.dumps(record, indent=2) if record else "",
        "result_json": json.dumps(deal.result, indent=2) if deal.result else "",
    }
    return render(request, "games/deal.html", context)


def deal_record(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The deal record as a JSON download (the input format of docs/deal-record.md)."""
    deal = access.get_deal(request, pk, number)
    if not _record_visible(deal):
        return JsonResponse({"error": "the deal is not over yet"}, status=403)
    response = JsonResponse(deal.export_dict(), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = (
        f'attachment; filename="blot-match{deal.match_id}-deal{deal.number}.json"'
    )
    return response
