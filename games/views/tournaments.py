"""Tournament pages: the list, creating one, its page (kept current by polling a
versioned fragment), the organiser's and entrants' buttons. "Your match is
ready" on every page is pushed over the person's socket (games/live/draw/notices.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from engine.tournament import BracketMatch
from games.forms import RegisterForm, TournamentCreateForm, TournamentFilterForm
from games.live.draw.chat import tournament_panel
from games.models import Entrant, Kind, Pairing, ScoreRow, Tournament
from games.services import ServiceError
from games.services import tournaments as svc
from games.views.requests import HtmxRequest, SignedInRequest

Status = Tournament.Status


@vary_on_headers("HX-Request")
def tournament_list(request: HtmxRequest) -> HttpResponse:
    form = TournamentFilterForm(request.GET or None)
    variant = form.cleaned_data["variant"] if form.is_valid() else None
    tournaments = Tournament.objects.annotate(entrant_count=Count("entrants")).exclude(
        status=Status.DRAFT
    )
    if variant:
        tournaments = tournaments.filter(variant=variant)
    entered: set[int] = set()
    if request.user.is_authenticated:
        entered = set(
            Entrant.objects.filter(user=request.user).values_list("tournament_id", flat=True)
        )
    context = {
        "form": form,
        "upcoming": tournaments.filter(status=Status.REGISTRATION)[:100],
        "running": tournaments.filter(status=Status.RUNNING)[:100],
        "finished": tournaments.filter(status=Status.FINISHED).order_by("-finished_at")[:50],
        "drafts": (
            Tournament.objects.filter(status=Status.DRAFT, created_by=request.user)
            if request.user.is_authenticated
            else []
        ),
        "entered": entered,
    }
    if request.htmx and not (request.htmx.boosted or request.htmx.history_restore_request):
        return render(request, "tournaments/_list.html", context)
    return render(request, "tournaments/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: SignedInRequest) -> HttpResponse:
    form = TournamentCreateForm(request.POST or None, is_staff=request.user.is_staff)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = svc.create_tournament(
                user=request.user,
                name=data["name"],
                variant=data["variant"],
                kind=data["kind"],
                fmt=data["match_format"],
                rule_set=data["rule_set"],
                max_entrants=data["max_entrants"],
                rounds=data["rounds"],
                fill_with_bots=data["fill_with_bots"],
                third_place=data["third_place"],
                rated=data["rated"],
                featured=data.get("featured", False),
                starts_at=data["starts_at"],
                open_registration=True,
                **form.timing(),
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(tournament.get_absolute_url())
    return render(request, "tournaments/create.html", {"form": form})


@dataclass(frozen=True)
class BracketCell:
    """A bracket match as the page shows it."""

    spot: BracketMatch
    a: Entrant | None
    b: Entrant | None
    pairing: Pairing | None


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    entrants = list(
        tournament.entrants.select_related("user__player", "partner__player").order_by(
            "seed", "created_at", "id"
        )
    )
    by_id: dict[int | None, Entrant] = {e.pk: e for e in entrants}
    pairings = list(tournament.pairings.select_related("table", "match").order_by("round", "index"))
    user = request.user
    mine = None
    invite = None
    if user.is_authenticated:
        mine = next((e for e in entrants if user.pk in e.players() or e.user_id == user.pk), None)
        invite = next(
            (
                e
                for e in entrants
                if e.partner_id == user.pk and e.partner_status == Entrant.PartnerStatus.INVITED
            ),
            None,
        )
    your_match = None
    if mine is not None:
        your_match = next(
            (
                p
                for p in pairings
                if p.status == Pairing.Status.PLAYING
                and mine.pk in (p.entrant_a_id, p.entrant_b_id)
                and p.table_id
            ),
            None,
        )
    context: dict[str, Any] = {
        "tournament": tournament,
        "entrants": entrants,
        "mine": mine,
        "invite": invite,
        "your_match": your_match,
        "is_organiser": user.is_authenticated
        and (tournament.created_by_id == user.pk or user.is_staff),
        "register_form": RegisterForm(),
        "rounds": [],
        "bracket": [],
        "standings": [],
    }
    started = tournament.status in (Status.RUNNING, Status.FINISHED) or any(
        e.seed for e in entrants
    )
    if not started:
        return context
    _show_scores(tournament, pairings)
    if tournament.kind == Kind.KNOCKOUT:
        stored = {(p.round, p.index): p for p in pairings}
        context["bracket"] = [
            [
                BracketCell(m, by_id.get(m.a), by_id.get(m.b), stored.get(m.key))
                for m in round_
            ]
            for round_ in svc.knockout_bracket(tournament)
        ]
        context["bracket_rounds"] = [_paired(round_) for round_ in context["bracket"]]
    else:
        context["standings"] = [
            (s, by_id[s.entrant]) for s in svc.standings(tournament) if s.entrant in by_id
        ]
        numbers = sorted({p.round for p in pairings})
        context["rounds"] = [
            (
                n,
                [
                    (p, by_id.get(p.entrant_a_id), by_id.get(p.entrant_b_id))
                    for p in pairings
                    if p.round == n
                ],
            )
            for n in numbers
        ]
    return context


def visible_tournament(request: HttpRequest, pk: int) -> Tournament:
    """The tournament, or 404: a draft is its organiser's and staff's alone, on
    its page, its live fragment and its buttons alike."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if tournament.status == Status.DRAFT and not (
        request.user.is_authenticated
        and (tournament.created_by_id == request.user.pk or request.user.is_staff)
    ):
        raise Http404
    return tournament


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    context = _context(request, tournament)
    # The page's room, kept current over its own small socket.
    user = request.user
    organiser = user.is_authenticated and (user.is_staff or tournament.created_by_id == user.pk)
    context["chat_html"] = tournament_panel(tournament.pk, user, organiser, request.get_full_path())
    return render(request, "tournaments/detail.html", context)


def tournament_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of the page; 204 (htmx swaps nothing) while the version the
    page shows is still current."""
    tournament = visible_tournament(request, pk)
    if request.GET.get("v") == str(tournament.version):
        return HttpResponse(status=204)
    return render(request, "tournaments/_live.html", _context(request, tournament))


ACTIONS = ("register", "withdraw", "accept", "decline", "open", "start", "cancel")


@login_required
@require_POST
def tournament_action(request: SignedInRequest, pk: int, action: str) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    try:
        if action == "register":
            form = RegisterForm(request.POST)
            partner = form.cleaned_data["partner"] if form.is_valid() else ""
            svc.register(tournament.pk, request.user, partner)
        elif action == "withdraw":
            svc.withdraw(tournament.pk, request.user)
        elif action in ("accept", "decline"):
            svc.answer_invite(tournament.pk, request.user, accept=action == "accept")
        elif action == "open":
            svc.open_registration(tournament.pk, request.user)
        elif action == "start":
            svc.start(tournament.pk, request.user)
        elif action == "cancel":
            svc.cancel(tournament.pk, request.user)
        else:
            return HttpResponse(status=404)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect(tournament.get_absolute_url())


def _paired(cells: list[BracketCell]) -> dict[str, Any]:
    """A bracket round in pairs: the two matches of a pair feed one match of the
    next round (the page draws the lines joining them); the third-place match
    apart, below the bracket."""
    main = [c for c in cells if not c.spot.third_place]
    return {
        "pairs": [main[i : i + 2] for i in range(0, len(main), 2)],
        "third": [c for c in cells if c.spot.third_place],
    }


def _show_scores(tournament: Tournament, pairings: list[Pairing]) -> None:
    """What a finished pairing's score shows: deals won in a best-of-N match
    (summed points say little there), the match points otherwise."""
    shown: list[Any] = pairings  # each gets its score as the page shows it
    for p in shown:
        p.shown_a, p.shown_b = p.points_a, p.points_b
    if not tournament.format.startswith("best_of"):
        return
    match_ids = [p.match_id for p in pairings if p.match_id]
    wins: dict[int, list[int]] = {}
    rows = ScoreRow.objects.filter(match_id__in=match_ids).order_by("match_id", "-number")
    for match_id, won in rows.values_list("match_id", "wins"):
        wins.setdefault(match_id, won)
    for p in shown:
        if p.match_id in wins:
            p.shown_a, p.shown_b = wins[p.match_id][0], wins[p.match_id][1]

