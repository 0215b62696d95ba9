"""Analyses of finished deals (issue 26): asking for one, and computing one.

:func:`request_analysis` queues a deal's analysis for a signed-in person;
:func:`run_next` is called only by the analyst process
(``manage.py analyse``, lowered to the lowest priority and one core before it
runs anything; see games.live.conduct.analyst), never by a web request or the
conductor. It stores, for every decision with a choice, each legal action's
honest value (engine.analysis, sampled as the Hard bot samples), for every card
played each legal card's exact value with all cards known (engine.solver), the
loss and mark of the chosen action, and each seat's accuracy; plus the bidding's
par table. A deal still being played is refused for everybody, staff included.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import Action
from engine.actions import DECLARE, PLAY
from engine.analysis import SAMPLES, accuracy, action_key, honest_values, mark
from engine.cards import CODES, LAST_TRICK_BONUS, POINTS
from engine.deal import PLAYING
from engine.record import deal_from
from engine.solver.solve import card_values, par_table, solver_for
from games.models import Deal, DealAnalysis
from games.services.errors import ServiceError

logger = logging.getLogger(__name__)

#: Analyses one person may have queued or running at once.
MAX_PENDING = 3

PENDING = (DealAnalysis.Status.QUEUED, DealAnalysis.Status.RUNNING)


def request_analysis(user: Any, deal: Deal) -> DealAnalysis:
    """Queue ``deal``'s analysis for ``user``; the existing one if it is already
    queued, running or done (a deal is never analysed twice)."""
    if not deal.is_finished:
        raise ServiceError(
            _("This deal is still being played. It can be analysed once it is over.")
        )
    if user is None or not user.is_authenticated:
        raise ServiceError(_("Sign in to ask for an analysis."))
    with transaction.atomic():
        existing = DealAnalysis.objects.select_for_update().filter(deal=deal).first()
        if existing is not None and existing.status != DealAnalysis.Status.FAILED:
            return existing
        pending = DealAnalysis.objects.filter(requested_by=user, status__in=PENDING).count()
        if pending >= MAX_PENDING:
            raise ServiceError(
                _(
                    "You already have as many analyses waiting as one person may "
                    "(%(count)d). Please ask again when one of them is done."
                )
                % {"count": pending}
            )
        if existing is not None:  # a failed one is asked for again
            existing.status = DealAnalysis.Status.QUEUED
            existing.requested_by = user
            existing.requested_at = timezone.now()
            existing.done_steps = 0
            existing.save()
            return existing
        return DealAnalysis.objects.create(
            deal=deal, requested_by=user, total_steps=len(deal.actions)
        )


def claim_next() -> DealAnalysis | None:
    """Take the oldest queued analysis (running from now on), or ``None``. A
    conditional update, so two analysts never take the same one."""
    for candidate in DealAnalysis.objects.filter(status=DealAnalysis.Status.QUEUED)[:5]:
        taken = DealAnalysis.objects.filter(
            pk=candidate.pk, status=DealAnalysis.Status.QUEUED
        ).update(status=DealAnalysis.Status.RUNNING, done_steps=0)
        if taken:
            candidate.refresh_from_db()
            return candidate
    return None


def run_next(
    samples: int = SAMPLES,
    exact_tricks: int | None = None,
    par: bool | list[tuple[int, int]] = True,
) -> DealAnalysis | None:
    """Compute the oldest queued analysis and store it; ``None`` when none waits."""
    analysis = claim_next()
    if analysis is None:
        return None
    try:
        analysis.result = analyse(analysis, samples, exact_tricks, par)
    except Exception:  # a failed analysis is shown as failed and may be asked again
        logger.exception("analysis of deal %s failed", analysis.deal_id)
        analysis.status = DealAnalysis.Status.FAILED
        analysis.save(update_fields=["status"])
        return analysis
    analysis.status = DealAnalysis.Status.DONE
    analysis.done_steps = analysis.total_steps
    analysis.finished_at = timezone.now()
    analysis.save(update_fields=["result", "status", "done_steps", "finished_at"])
    return analysis


def analyse(
    analysis: DealAnalysis,
    samples: int = SAMPLES,
    exact_tricks: int | None = None,
    par: bool | list[tuple[int, int]] = True,
) -> dict[str, Any]:
    """The stored result. ``exact_tricks`` limits exact values to the last tricks
    (``None``: every card); ``par`` adds the bidding's par table (a list: only
    those ``(trump, taker)`` contracts)."""
    deal_row = analysis.deal
    record = deal_row.record()
    deal = deal_from(record)
    rng = random.Random(deal_row.pk)
    actions = list(deal_row.actions)
    DealAnalysis.objects.filter(pk=analysis.pk).update(total_steps=len(actions))
    analysis.total_steps = len(actions)
    steps: list[dict[str, Any]] = []
    graph: list[list[float]] = []
    losses: dict[int, list[float]] = {}
    solver = None
    for index, raw in enumerate(actions):
        action = Action.from_dict(raw)
        choices = [a for a in deal.legal_actions() if a.type != DECLARE]
        entry: dict[str, Any] = {"step": index, "seat": action.seat}
        if action.type != DECLARE and len(choices) > 1:
            values = honest_values(deal, rng, samples)
            chosen = action_key(action)
            loss = max(values.values()) - values[chosen]
            entry.update(
                chosen=chosen,
                honest={k: round(v, 1) for k, v in values.items()},
                loss=round(loss, 1),
                mark=mark(loss),
            )
            losses.setdefault(action.seat, []).append(loss)
        if action.type == PLAY and deal.phase == PLAYING:
            left = 32 // deal.seats - len(deal.tricks)
            if exact_tricks is None or left <= exact_tricks:
                solver = solver or solver_for(deal)
                exact = card_values(deal, solver)
                entry["chosen"] = CODES[action.card]  # type: ignore[index]
                entry["exact"] = {CODES[c]: v for c, v in sorted(exact.items())}
                entry["exact_loss"] = max(exact.values()) - exact[action.card]  # type: ignore[index]
                best = max(exact.values())
                assert deal.trump is not None
                total = sum(int(p) for p in POINTS[deal.trump]) + LAST_TRICK_BONUS
                graph.append([index, best if action.seat % 2 == 0 else total - best])
        if len(entry) > 2:
            steps.append(entry)
        deal.apply(action)
        DealAnalysis.objects.filter(pk=analysis.pk).update(done_steps=index + 1)
    result: dict[str, Any] = {
        "samples": samples,
        "steps": steps,
        "graph": graph,
        "accuracy": {str(seat): round(accuracy(ls) or 0.0, 1) for seat, ls in losses.items()},
    }
    if par:
        contracts = None if par is True else par
        table = par_table(record, contracts)
        result["par"] = [[t, s, v] for (t, s), v in sorted(table.items())]
    return result
