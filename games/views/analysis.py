"""Deal analyses on the site: asking for one deal's or a whole match's,
their progress (polled by htmx every 2 s while queued or running, or done but
for its par table), and what the replay and match pages show of them. Nothing
of a deal still being played, for anybody (the replay's rule)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from engine.cards import TRUMP_CODES
from games import access
from games.labels import bid_label, call_label, trump_label
from games.live.conduct import analyst
from games.models import Deal, DealAnalysis, Match
from games.services import ServiceError
from games.services.analysis import (
    match_analysis,
    request_analysis,
    request_match_analysis,
    waits_for_analyst,
)


@require_POST
def analyse(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deal = access.get_deal(request, pk, number)
    try:
        request_analysis(request.user, deal)
    except ServiceError as exc:
        if not deal.is_finished:  # nothing of a running deal, for anybody
            return HttpResponse(exc.message, status=403)
        messages.error(request, exc.message)
    else:
        analyst.wake()
    return redirect(reverse("deal_replay", args=[pk, number]) + "?" + request.GET.urlencode())


def analysis_status(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deal = access.get_deal(request, pk, number)
    if not deal.is_finished:
        return HttpResponse(status=403)
    analysis = DealAnalysis.objects.filter(deal=deal).first()
    if waits_for_analyst(analysis):  # e.g. the embedded analyst died: start one
        analyst.wake()
    response = render(request, "games/_analysis_status.html", {"analysis": analysis, "deal": deal})
    # The page asking shows the values already, only its par table pending (P-47).
    shown = request.GET.get("shown") == "values"
    if (
        analysis is not None
        and analysis.status == DealAnalysis.Status.DONE
        and not (shown and analysis.par_pending)
    ):
        response["HX-Refresh"] = "true"  # the values, or the par table, appear with the page
    return response


@require_POST
def match_analyse(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue every finished deal of the match not yet analysed (one request)."""
    match = access.get_match(request, pk)
    try:
        queued = request_match_analysis(request.user, match)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if queued:
            analyst.wake()
    return redirect(reverse("match", args=[pk]) + "#analysis")


def match_analysis_status(request: HttpRequest, pk: int) -> HttpResponse:
    match = access.get_match(request, pk)
    state = match_analysis(match)
    if state.waits_for_analyst:  # e.g. the embedded analyst died: start one
        analyst.wake()
    response = render(
        request, "games/_match_analysis_status.html", {"match": match, "state": state}
    )
    if not state.pending:
        response["HX-Refresh"] = "true"  # the accuracies appear with the page
    return response


#: The value graph's drawing box (SVG units) and its plot area inside the axes.
GRAPH_W, GRAPH_H = 360, 170
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 34, 352, 10, 140

#: How a marked decision is written beside the card, as annotators write it.
MARK_SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def _graph(
    result: dict[str, Any], steps: int, step: int, marks: dict[int, str], labels: dict[int, str]
) -> dict[str, Any] | None:
    """The value graph: the first side's card points with perfect play after each
    card, with axes (steps across, card points up); every point a link to its
    step (``?step=N``), the current step marked."""
    points = result.get("graph") or []
    if not points or not steps:
        return None
    top = max(162, *(v for _, v in points))
    width, height = PLOT_RIGHT - PLOT_LEFT, PLOT_BOTTOM - PLOT_TOP

    def x(s: float) -> float:
        return round(PLOT_LEFT + width * s / steps, 1)

    def y(v: float) -> float:
        return round(PLOT_BOTTOM - height * v / top, 1)

    column = width / steps
    dots = []
    for s, v in points:
        s = int(s)
        dots.append(
            {
                "step": s,
                "x": x(s),
                "y": y(v),
                "value": v,
                "current": s == step,
                "mark": marks.get(s, ""),
                "label": labels.get(s, ""),
                # A tall, invisible target per step: easy to hit on a phone.
                "hit_x": round(x(s) - column / 2, 1),
                "hit_w": round(column, 1),
            }
        )
    return {
        "w": GRAPH_W,
        "h": GRAPH_H,
        "left": PLOT_LEFT,
        "right": PLOT_RIGHT,
        "top": PLOT_TOP,
        "bottom": PLOT_BOTTOM,
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
        "y_ticks": [{"value": v, "y": y(v)} for v in (0, top // 2, top)],
        "x_ticks": [
            {"value": s, "x": x(s)} for s in range(0, steps + 1, _tick_every(steps))
        ],
        "hit_h": height,
        "now": x(step),
        "label_x": PLOT_LEFT - 4,
        "label_y": PLOT_BOTTOM + 14,
    }


def _tick_every(steps: int) -> int:
    return next(n for n in (5, 10, 20, 50) if steps / n <= 8)


def _choice_text(step: dict[str, Any]) -> str:
    chosen = step.get("chosen")
    return choice_label(chosen) if chosen else ""


def replay_context(
    deal: Deal, step: int, names: dict[int, str], actions: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """What the replay page shows of the deal's analysis at ``step`` (the
    decision taken from the position shown: the action at index ``step``)."""
    analysis = DealAnalysis.objects.filter(deal=deal).first()
    context: dict[str, Any] = {"analysis": analysis}
    if analysis is None or analysis.status != DealAnalysis.Status.DONE or not analysis.result:
        return context
    result = analysis.result
    # Analyses made before a card's two values shared a unit hold deal points
    # as a card's honest value: said so on the page rather than mixed silently.
    context["units_shared"] = result.get("play_unit") == "card"
    here = next((s for s in result["steps"] if s["step"] == step), None)
    if here is not None:
        honest = here.get("honest", {})
        exact = here.get("exact", {})
        keys = sorted(set(honest) | set(exact), key=lambda k: -honest.get(k, exact.get(k, 0)))
        context["evals"] = [
            {
                "key": k,
                "label": choice_label(k),
                "honest": honest.get(k),
                "exact": exact.get(k),
                "chosen": k == here.get("chosen"),
            }
            for k in keys
        ]
        context["eval_step"] = here
        context["eval_name"] = names.get(here["seat"], "?")
        context["eval_is_card"] = bool(exact) or (
            actions is not None and actions[step].get("type") == "play"
        )
        context["eval_loss"] = round(here.get("loss", 0))
        context["eval_exact_loss"] = (
            round(here["exact_loss"]) if here.get("exact_loss") is not None else None
        )
        context["eval_symbol"] = MARK_SYMBOLS.get(here.get("mark") or "", "")
    context["accuracies"] = [
        {"name": names.get(int(seat), "?"), "value": value}
        for seat, value in sorted(result.get("accuracy", {}).items())
    ]
    marked = [s for s in result["steps"] if s.get("mark")]
    context["marks"] = [
        {
            "step": s["step"],
            "mark": s["mark"],
            "symbol": MARK_SYMBOLS[s["mark"]],
            "name": names.get(s["seat"], "?"),
            "choice": _choice_text(s),
            # Best with all cards known as well: the loss came from the unseen cards.
            "best_exact": s.get("exact_loss") == 0,
            "current": s["step"] == step,
        }
        for s in marked
    ]
    labels = {s["step"]: _choice_text(s) for s in result["steps"] if "exact" in s}
    context["graph"] = _graph(
        result, len(deal.actions), step, {s["step"]: s["mark"] for s in marked}, labels
    )
    context["par"] = _par_rows(result, names)
    context["par_pending"] = analysis.par_pending
    return context


def _par_rows(result: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    """The bidding's par table: rows by trump, columns by taker (card points of
    the taker's side with all cards known)."""
    par = result.get("par")
    if not par:
        return None
    takers = sorted({taker for _, taker, _ in par})
    by_trump: dict[int, dict[int, int]] = {}
    for trump, taker, value in par:
        by_trump.setdefault(trump, {})[taker] = value
    return {
        "takers": [names.get(t, "?") for t in takers],
        "rows": [
            (trump_label(TRUMP_CODES[t]), [by_trump[t].get(k) for k in takers])
            for t in sorted(by_trump)
        ],
    }


def choice_label(key: str) -> str:
    """A choice as a player reads it: ``10♥``, "Pass", "Take", "Choose ♠", a
    coinche bid "90 ♥" (key ``bid:90:H``), "Coinche", "Surcoinche", "Announce"."""
    if key in ("pass", "take"):
        return bid_label(key)
    if key in ("coinche", "surcoinche"):
        return call_label(key)
    if key.startswith("bid:"):
        _kind, value, trump = [*key.split(":"), "", ""][:3]
        return call_label("bid", int(value), trump) if value.isdigit() else key
    if key == "declare":
        return gettext("Announce")
    if key.startswith("choose:"):
        code = key.split(":", 1)[1]
        return bid_label("choose", TRUMP_CODES.index(code) if code in TRUMP_CODES else None)
    return ("10" if key[0] == "T" else key[0]) + trump_label(key[1])


def match_accuracies(match: Match, names: dict[int, str]) -> list[dict[str, Any]]:
    """Each player's accuracy over the match's analysed deals (the mean of their
    per-deal figures), and how many deals that covers."""
    per_seat: dict[int, list[float]] = {}
    done = DealAnalysis.objects.filter(deal__match=match, status=DealAnalysis.Status.DONE)
    for analysis in done:
        for seat, value in (analysis.result or {}).get("accuracy", {}).items():
            per_seat.setdefault(int(seat), []).append(value)
    return [
        {"name": names.get(seat, "?"), "value": round(sum(vs) / len(vs), 1), "deals": len(vs)}
        for seat, vs in sorted(per_seat.items())
    ]
