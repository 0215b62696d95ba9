"""The periodic runner (games/periodic/runner.py): the jobs beside the live
tables — tournaments, matchmaking, chat purging — each run when its time comes,
in a database thread of their own; a failing job waits a while and the others
go on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.models import Tournament
from games.periodic import runner
from games.periodic.runner import JOBS, Job, Periodic
from games.services import tournaments as svc


class Counting:
    def __init__(self, fails: bool = False) -> None:
        self.runs = 0
        self.fails = fails

    def __call__(self) -> None:
        self.runs += 1
        if self.fails:
            raise RuntimeError("the job failed")


def test_the_jobs_beside_the_live_tables_are_tournaments_matchmaking_and_chat():
    assert [job.name for job in JOBS] == ["tournaments", "matchmaking", "chat purge"]
    assert [job.every_s for job in JOBS] == [None, None, runner.CHAT_PURGE_EVERY_S]


@pytest.mark.asyncio
async def test_each_job_runs_every_pass_unless_it_has_an_interval_of_its_own():
    often, seldom = Counting(), Counting()
    periodic = Periodic((Job("often", often), Job("seldom", seldom, 600)), poll_s=1)
    for _ in range(3):
        await periodic.run_due()
    assert (often.runs, seldom.runs) == (3, 1)


@pytest.mark.asyncio
async def test_a_failing_job_waits_its_back_off_and_the_others_go_on(caplog):
    broken, fine = Counting(fails=True), Counting()
    periodic = Periodic((Job("broken", broken), Job("fine", fine)), poll_s=1)
    await periodic.run_due()
    await periodic.run_due()  # at once: the broken job's back-off is not over
    assert (broken.runs, fine.runs) == (1, 2)
    assert "The broken job" in caplog.text


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_tournament_starts_at_its_start_time_by_the_runners_pass(
    make_tournament, alice, bob
):
    starts = timezone.now() + timedelta(minutes=5)
    tournament = await sync_to_async(make_tournament)(alice, starts_at=starts)
    await sync_to_async(svc.register)(tournament.pk, bob)
    past = timezone.now() - timedelta(seconds=1)
    await Tournament.objects.filter(pk=tournament.pk).aupdate(starts_at=past, wakeup_at=past)
    periodic = Periodic(poll_s=1)
    try:
        await periodic.run_due()
    finally:
        periodic.db.shutdown(wait=True)
    tournament = await Tournament.objects.aget(pk=tournament.pk)
    assert tournament.status == Tournament.Status.RUNNING
