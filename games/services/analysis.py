"""Analyses of finished deals: asking for one, and computing one.

:func:`request_analysis` queues a deal's analysis for a signed-in person,
:func:`request_match_analysis` every finished deal of a match not yet analysed
(one request, P-19), and :func:`match_analysis` sums up where a match's
analyses stand. :func:`run_next` is called only by the analyst process
(``manage.py analyse``, lowered to the lowest priority and one core before it
runs anything; see games.live.conduct.analyst), never by a web request or the
conductor. It stores, for every decision with a choice, each legal action's
honest value (engine.analysis, sampled as the Hard bot samples), for every card
played each legal card's exact value with all cards known (engine.solver), the
loss and mark of the chosen action, and each seat's accuracy; plus the bidding's
par table. It stores them in two stages (P-47): the analysis is done, and shown,
as soon as everything but the par table is known (``par_pending`` in its result);
the par table, the longest part of an Open Blot deal's analysis, is stored into
it afterwards. A deal still being played is refused for everybody, staff included.

An analyst may die mid-analysis (killed, its machine restarted). While it holds
one, a thread of its own (:class:`Heartbeat`) writes ``beat_at`` every
``BEAT_S`` seconds, whatever the analysis is busy with: a single step (the first
card's exact values, a par-table contract) can take many seconds of CPU, and
far longer at nice 19 on a busy machine, so progress is no sign of life but the
thread is. Every claim first queues again any running analysis whose heartbeat
is older than ``STALE_AFTER`` (:func:`release_stale`), so the next analyst to
look — the worker's one within ``--poll`` seconds, or the one a status poll
starts in the embedded mode — takes it up. Each claim numbers the analysis
anew (``claim``); its holder writes progress and result only while the number
is still its own, so an analyst that was wrongly thought dead stops at its next
step and never overwrites the one that took over.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import timedelta
from types import TracebackType
from typing import Any

from django.contrib.auth.models import User
from django.db import connections, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.analysis import SAMPLES
from engine.deal_analysis import analyse_record
from games.models import Deal, DealAnalysis, Match
from games.services.errors import ServiceError

logger = logging.getLogger(__name__)

#: Requests one person may have queued or running at once: a deal, or a whole
#: match (all the deals it queued count as one request; P-19).
MAX_PENDING = 3

PENDING = (DealAnalysis.Status.QUEUED, DealAnalysis.Status.RUNNING)

#: In a done analysis' result while its par table is still being computed (P-47).
PAR_PENDING = DealAnalysis.PAR_PENDING

#: Seconds between two heartbeats of a running analysis.
BEAT_S = 15.0
#: A running analysis whose last heartbeat is older than this lost its analyst:
#: eight missed beats, so a busy database or a starved nice-19 process is not
#: taken for a dead one.
STALE_AFTER = timedelta(minutes=2)


class LostClaim(Exception):
    """The analysis was claimed again (its heartbeat had gone stale): the work in
    hand is dropped, and nothing of it is written."""


def pending_requests(user: Any) -> int:
    """How many requests of ``user`` are queued or running: each deal asked for
    alone, and each match asked for whole (however many deals it queued)."""
    pending = DealAnalysis.objects.filter(requested_by=user, status__in=PENDING)
    alone = pending.filter(whole_match=False).count()
    # order_by(): the model's ordering would make DISTINCT count rows, not matches.
    matches = pending.filter(whole_match=True).order_by().values("deal__match").distinct()
    return alone + matches.count()


def _refuse_beyond_the_limit(user: Any) -> None:
    if pending_requests(user) >= MAX_PENDING:
        raise ServiceError(
            ngettext(
                "You already have %(count)d analysis request waiting, as many as one "
                "person may have (a whole match counts as one). Please ask again when "
                "it is done.",
                "You already have %(count)d analysis requests waiting, as many as one "
                "person may have (a whole match counts as one). Please ask again when "
                "one of them is done.",
                MAX_PENDING,
            )
            % {"count": MAX_PENDING}
        )


def _lock_requester_and_deals(user: Any, deals: list[Deal]) -> None:
    """Serialise what a request reads before it writes: the person's requests
    (the limit is counted, then written) and each deal's (a deal has at most
    one analysis). Always the person first, then the deals in key order, so
    two requests never wait on each other in a circle."""
    User.objects.select_for_update().filter(pk=user.pk).first()
    list(Deal.objects.select_for_update().filter(pk__in=[d.pk for d in deals]).order_by("pk"))


def _requeue(analysis: DealAnalysis, user: Any, whole_match: bool, place: int) -> None:
    """A failed analysis asked for again."""
    analysis.status = DealAnalysis.Status.QUEUED
    analysis.requested_by = user
    analysis.requested_at = timezone.now()
    analysis.done_steps = 0
    analysis.whole_match = whole_match
    analysis.place = place
    analysis.save()


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
        _lock_requester_and_deals(user, [deal])
        existing = DealAnalysis.objects.select_for_update().filter(deal=deal).first()
        if existing is not None and existing.status != DealAnalysis.Status.FAILED:
            return existing
        _refuse_beyond_the_limit(user)
        if existing is not None:  # a failed one is asked for again
            _requeue(existing, user, whole_match=False, place=0)
            return existing
        return DealAnalysis.objects.create(
            deal=deal, requested_by=user, total_steps=len(deal.actions)
        )


def request_match_analysis(user: Any, match: Match) -> int:
    """Queue, as one request of ``user``, every finished deal of ``match`` that
    has no analysis yet (or a failed one); how many were queued (0: all were
    already asked for). A deal still being played is never among them."""
    if user is None or not user.is_authenticated:
        raise ServiceError(_("Sign in to ask for an analysis."))
    deals = list(match.deals.filter(status=Deal.Status.FINISHED).order_by("number"))
    if not deals:
        raise ServiceError(
            _("No deal of this match has finished yet. A deal can be analysed once it is over.")
        )
    with transaction.atomic():
        _lock_requester_and_deals(user, deals)
        existing = {
            a.deal_id: a
            for a in DealAnalysis.objects.select_for_update().filter(deal__in=deals)
        }
        wanted = [
            d
            for d in deals
            if d.pk not in existing or existing[d.pk].status == DealAnalysis.Status.FAILED
        ]
        if not wanted:
            return 0
        _refuse_beyond_the_limit(user)
        for place, deal in enumerate(wanted):
            if deal.pk in existing:  # a failed one, asked for again
                _requeue(existing[deal.pk], user, whole_match=True, place=place)
            else:
                DealAnalysis.objects.create(
                    deal=deal,
                    requested_by=user,
                    total_steps=len(deal.actions),
                    whole_match=True,
                    place=place,
                )
        return len(wanted)


@dataclass(frozen=True)
class DealRow:
    """A finished deal of a match and its analysis, if one was asked for."""

    deal: Deal
    analysis: DealAnalysis | None

    @property
    def status(self) -> str:
        return self.analysis.status if self.analysis is not None else "none"


@dataclass(frozen=True)
class MatchAnalysis:
    """Where the analyses of a match's finished deals stand. ``status``: running
    if any runs, else queued if any waits, else failed if any failed, else done;
    ``None`` when none was asked for."""

    rows: list[DealRow]
    status: str | None
    done: int
    percent: int
    to_queue: int
    waits_for_analyst: bool

    @property
    def pending(self) -> bool:
        return self.status in PENDING


def match_analysis(match: Match) -> MatchAnalysis:
    """The analyses of ``match``'s finished deals (only those: nothing of a deal
    still being played), one row per deal in order."""
    deals = list(match.deals.filter(status=Deal.Status.FINISHED).order_by("number"))
    by_deal = {a.deal_id: a for a in DealAnalysis.objects.filter(deal__in=deals)}
    rows = [DealRow(deal, by_deal.get(deal.pk)) for deal in deals]
    asked = [row.analysis for row in rows if row.analysis is not None]
    statuses = {a.status for a in asked}
    status = next(
        (
            s
            for s in (
                DealAnalysis.Status.RUNNING,
                DealAnalysis.Status.QUEUED,
                DealAnalysis.Status.FAILED,
                DealAnalysis.Status.DONE,
            )
            if s in statuses
        ),
        None,
    )
    return MatchAnalysis(
        rows=rows,
        status=None if status is None else str(status),
        done=sum(a.status == DealAnalysis.Status.DONE for a in asked),
        percent=sum(a.percent for a in asked) // len(asked) if asked else 0,
        to_queue=sum(r.status in ("none", DealAnalysis.Status.FAILED) for r in rows),
        waits_for_analyst=any(waits_for_analyst(a) for a in asked),
    )


def release_stale() -> int:
    """Queue again every running analysis whose analyst stopped beating (none
    beats for a row left running before heartbeats existed), and every one done
    but for a par table its analyst died computing (done again whole: the
    values come out the same); how many. Its place in the queue is kept."""
    cutoff = timezone.now() - STALE_AFTER
    return DealAnalysis.objects.filter(
        Q(beat_at__lt=cutoff) | Q(beat_at__isnull=True),
        Q(status=DealAnalysis.Status.RUNNING)
        | Q(status=DealAnalysis.Status.DONE, **{f"result__{PAR_PENDING}": True}),
    ).update(status=DealAnalysis.Status.QUEUED, done_steps=0)


def is_stale(analysis: DealAnalysis) -> bool:
    """Running, or done but for its par table, and its analyst stopped beating:
    the next claim queues it again."""
    held = analysis.status == DealAnalysis.Status.RUNNING or analysis.par_pending
    return held and (
        analysis.beat_at is None or analysis.beat_at < timezone.now() - STALE_AFTER
    )


def waits_for_analyst(analysis: DealAnalysis | None) -> bool:
    """Queued, or abandoned by a dead analyst: an analyst has work to take."""
    return analysis is not None and (
        analysis.status == DealAnalysis.Status.QUEUED or is_stale(analysis)
    )


def claim_next() -> DealAnalysis | None:
    """Take the next queued analysis (running from now on, under a new claim
    number), or ``None``; abandoned ones are queued again first. A conditional
    update, so two analysts never take the same one."""
    release_stale()
    queued = DealAnalysis.objects.filter(status=DealAnalysis.Status.QUEUED)
    # Every request's first deal before any request's second (P-19), then oldest first.
    for candidate in queued.order_by("place", "requested_at", "id")[:5]:
        taken = DealAnalysis.objects.filter(
            pk=candidate.pk, status=DealAnalysis.Status.QUEUED
        ).update(
            status=DealAnalysis.Status.RUNNING,
            done_steps=0,
            beat_at=timezone.now(),
            claim=F("claim") + 1,
        )
        if taken:
            candidate.refresh_from_db()
            return candidate
    return None


def _held(analysis: DealAnalysis) -> Any:
    """The analysis' row while ``analysis``'s claim still holds it: running, or
    done but for its par table (the status its holder last wrote)."""
    return DealAnalysis.objects.filter(
        pk=analysis.pk, claim=analysis.claim, status=analysis.status
    )


def beat(analysis: DealAnalysis) -> bool:
    """Write the heartbeat of a claimed analysis; ``False`` once the claim is lost."""
    return bool(_held(analysis).update(beat_at=timezone.now()))


class Heartbeat:
    """While the block runs, a thread beats for ``analysis`` every ``every``
    seconds (its own database connection, closed when it stops). A failed write
    (the database away for a moment) is logged and tried again at the next beat."""

    def __init__(self, analysis: DealAnalysis, every: float = BEAT_S) -> None:
        self.analysis = analysis
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="analysis-heartbeat", daemon=True)

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.every):
                try:
                    beat(self.analysis)
                except Exception:
                    logger.exception("heartbeat of analysis %s failed", self.analysis.pk)
        finally:
            connections.close_all()  # this thread's connections only

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()


def run_next(
    samples: int = SAMPLES,
    exact_tricks: int | None = None,
    par: bool | list[tuple[int, int]] = True,
) -> DealAnalysis | None:
    """Compute the oldest queued analysis and store it; ``None`` when none waits.
    Stored in two stages (P-47): once its honest and exact values, marks,
    accuracy and graph are known it is stored done, with ``par_pending`` in its
    result, and shown; its par table is computed next and stored into it."""
    analysis = claim_next()
    if analysis is None:
        return None
    try:
        with Heartbeat(analysis):
            result = analyse(analysis, samples, exact_tricks, par, ready=True)
    except LostClaim:
        logger.warning("analysis of deal %s was taken over by another analyst", analysis.deal_id)
        return analysis
    except Exception:  # a failed analysis is shown as failed and may be asked again
        if analysis.status == DealAnalysis.Status.DONE:
            # Only its par table failed: the rest stands, shown without one.
            logger.exception("par table of deal %s failed", analysis.deal_id)
            shown = {k: v for k, v in (analysis.result or {}).items() if k != PAR_PENDING}
            _held(analysis).update(result=shown)
            analysis.result = shown
            return analysis
        logger.exception("analysis of deal %s failed", analysis.deal_id)
        _held(analysis).update(status=DealAnalysis.Status.FAILED)
        analysis.status = DealAnalysis.Status.FAILED
        return analysis
    now = timezone.now()
    if not _held(analysis).update(
        result=result,
        status=DealAnalysis.Status.DONE,
        done_steps=analysis.total_steps,
        finished_at=now,
    ):
        logger.warning("analysis of deal %s was taken over by another analyst", analysis.deal_id)
        return analysis
    analysis.result = result
    analysis.status = DealAnalysis.Status.DONE
    analysis.done_steps = analysis.total_steps
    analysis.finished_at = now
    return analysis


def _store_ready(analysis: DealAnalysis, values: dict[str, Any]) -> None:
    """The first stage (P-47): everything but the par table stored, the analysis
    marked done and shown; its par table still to come. Raises
    :class:`LostClaim` if the analysis is no longer held."""
    now = timezone.now()
    shown = {**values, PAR_PENDING: True}
    if not _held(analysis).update(
        result=shown,
        status=DealAnalysis.Status.DONE,
        done_steps=analysis.total_steps,
        finished_at=now,
        beat_at=now,
    ):
        raise LostClaim(analysis.pk)
    analysis.result = shown
    analysis.status = DealAnalysis.Status.DONE
    analysis.done_steps = analysis.total_steps
    analysis.finished_at = now


def _progress(analysis: DealAnalysis, **fields: int) -> None:
    """Write progress (a heartbeat too), or raise :class:`LostClaim`."""
    if not _held(analysis).update(beat_at=timezone.now(), **fields):
        raise LostClaim(analysis.pk)


def analyse(
    analysis: DealAnalysis,
    samples: int = SAMPLES,
    exact_tricks: int | None = None,
    par: bool | list[tuple[int, int]] = True,
    ready: bool = False,
) -> dict[str, Any]:
    """The stored result. ``exact_tricks`` limits exact values to the last tricks
    (``None``: every card); ``par`` adds the bidding's par table (a list: only
    those ``(trump, taker)`` contracts). Computed by
    :func:`engine.deal_analysis.analyse_record` (what ``python -m engine
    bench-analysis`` times), seeded with the deal's key. ``ready``: store the
    analysis but its par table, done, as soon as it is known (P-47)."""
    deal_row = analysis.deal
    record = deal_row.record()
    total = len(record.actions)
    _progress(analysis, total_steps=total)
    analysis.total_steps = total
    return analyse_record(
        record,
        seed=deal_row.pk,
        samples=samples,
        exact_tricks=exact_tricks,
        par=par,
        progress=lambda done: _progress(analysis, done_steps=done),
        ready=(lambda values: _store_ready(analysis, values)) if ready and par else None,
    )
