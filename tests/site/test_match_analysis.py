"""A whole match's analysis (P-19): "Analyse" on the match page queues
every finished deal not yet analysed as one request — never a deal still being
played, for anybody — shows the progress live, then each player's accuracy and
every deal's status with a link to its replay. The queue serves every request's
first deal before any request's second."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games.live.conduct import analyst
from games.models import Deal, DealAnalysis
from games.services import ServiceError
from games.services.analysis import (
    MAX_PENDING,
    claim_next,
    pending_requests,
    request_analysis,
    request_match_analysis,
    run_next,
)
from games.services.matches import deal_next, finish_deal
from tests.site.conftest import client_for, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_analyst_process(settings):
    settings.BLOT_ANALYST = "off"


def match_with_finished_deals(make_table, user, count: int, seed: int = 5):
    """A Belote match (first to 1001: far from over) whose first ``count`` deals
    are finished and whose next deal is being played."""
    table = make_table(user, "belote", fmt="first_to:1001", others=["easy", "normal", "hard"])
    match = table.matches.get()
    rng = random.Random(seed)
    for _ in range(count):
        deal = match.deals.get(status=Deal.Status.PLAYING)
        finish_deal(play_out(deal, rng))
        deal_next(match.pk)
    assert match.deals.filter(status=Deal.Status.PLAYING).count() == 1
    return match


def fast_run():
    return run_next(samples=2, exact_tricks=1, par=False)


def page(client, match) -> str:
    return client.get(reverse("match", args=[match.pk])).content.decode()


def analyse(client, match):
    return client.post(reverse("match_analyse", args=[match.pk]))


def status(client, match):
    return client.get(reverse("match_analysis_status", args=[match.pk]))


def test_analyse_queues_every_finished_deal_as_one_request(make_table, alice):
    match = match_with_finished_deals(make_table, alice, MAX_PENDING + 1)
    response = analyse(client_for(alice), match)
    assert response.status_code == 302 and response["Location"].endswith("#analysis")
    queued = DealAnalysis.objects.filter(deal__match=match).order_by("deal__number")
    assert [(a.deal.number, a.place, a.whole_match) for a in queued] == [
        (n, n - 1, True) for n in range(1, MAX_PENDING + 2)
    ]
    # More deals than the limit, and still one request.
    assert pending_requests(alice) == 1


def test_a_running_deal_is_never_queued_nor_shown_for_anybody(make_table, alice, make_user, client):
    match = match_with_finished_deals(make_table, alice, 2)
    running = match.deals.get(status=Deal.Status.PLAYING)
    staff = make_user("root", is_staff=True, is_superuser=True)
    for viewer in (client_for(alice), client_for(staff), client):  # player, staff, spectator
        analyse(viewer, match)
        for html in (page(viewer, match), status(viewer, match).content.decode()):
            assert f'data-deal-analysis="{running.number}"' not in html
            assert f"/deals/{running.number}/replay/" not in html
    assert not DealAnalysis.objects.filter(deal=running).exists()
    assert DealAnalysis.objects.count() == 2


def test_the_match_page_follows_the_analysis_to_accuracy_and_each_deal(make_table, alice):
    match = match_with_finished_deals(make_table, alice, 2)
    viewer = client_for(alice)
    html = page(viewer, match)
    assert 'data-action="analyse"' in html and "data-analysis-status" not in html
    analyse(viewer, match)
    html = page(viewer, match)
    poll = reverse("match_analysis_status", args=[match.pk])
    assert 'data-analysis-status="queued"' in html
    assert f'hx-get="{poll}" hx-trigger="every 2s"' in html
    assert 'data-action="analyse"' not in html  # nothing left to ask for
    assert html.count('data-deal-status="queued"') == 2

    claim_next()  # the analyst starts on the first deal
    response = status(viewer, match)
    fragment = response.content.decode()
    assert 'data-analysis-status="running"' in fragment and "<progress" in fragment
    assert 'data-deal-status="running"' in fragment and 'data-deal-status="queued"' in fragment
    assert "hx-trigger" in fragment and "HX-Refresh" not in response

    DealAnalysis.objects.update(status="queued")  # taken again from the start
    while fast_run() is not None:
        pass
    response = status(viewer, match)
    assert response["HX-Refresh"] == "true"  # the page reloads with the accuracies
    assert 'data-analysis-status="done"' in response.content.decode()
    html = page(viewer, match)
    assert 'data-analysis-status="done"' in html and "hx-trigger" not in html
    for name in [p.shown_name for p in match.participants.all()]:
        assert re.search(rf'data-accuracy data-player="{re.escape(name)}"', html), name
    for number in (1, 2):
        item = rf'<li data-deal-analysis="{number}" data-deal-status="done">.*?</li>'
        row = re.search(item, html, re.S)
        replay = reverse("deal_replay", args=[match.pk, number])
        assert row is not None and f'href="{replay}" data-replay-link' in row.group(0)


def test_a_whole_match_counts_as_one_request_against_the_limit(make_table, alice):
    others = [match_with_finished_deals(make_table, alice, 1, seed=s) for s in range(MAX_PENDING)]
    for match in others[:-1]:
        request_analysis(alice, match.deals.get(number=1))
    assert request_match_analysis(alice, match_with_finished_deals(make_table, alice, 2)) == 2
    assert pending_requests(alice) == MAX_PENDING
    with pytest.raises(ServiceError, match=f"already have {MAX_PENDING} analysis requests waiting"):
        request_match_analysis(alice, others[-1])
    viewer = client_for(alice)
    analyse(viewer, others[-1])
    html = page(viewer, others[-1])
    assert f"You already have {MAX_PENDING} analysis requests waiting" in html
    assert not DealAnalysis.objects.filter(deal__match=others[-1]).exists()
    # Once a request is done, the next may be made.
    fast_run()
    assert request_match_analysis(alice, others[-1]) == 1


def test_asking_again_queues_only_what_is_not_analysed(make_table, alice, bob):
    match = match_with_finished_deals(make_table, alice, 3)
    done = request_analysis(bob, match.deals.get(number=1))
    fast_run()
    failed = request_analysis(bob, match.deals.get(number=2))
    DealAnalysis.objects.filter(pk=failed.pk).update(status="failed")
    html = page(client_for(alice), match)
    assert 'data-analysis-status="failed"' in html and 'data-deal-status="none"' in html
    assert "Analyse the 2 finished deals not yet analysed" in html
    assert request_match_analysis(alice, match) == 2
    rows = {a.deal.number: a for a in DealAnalysis.objects.filter(deal__match=match)}
    assert rows[1].pk == done.pk and rows[1].status == "done" and rows[1].requested_by == bob
    assert rows[2].status == "queued" and rows[2].requested_by == alice
    assert rows[3].status == "queued" and rows[3].place == 1
    # Everything asked for: nothing more is queued, and nothing is refused.
    assert request_match_analysis(alice, match) == 0


def test_the_queue_serves_each_requests_first_deal_before_a_matchs_second(make_table, alice, bob):
    long_match = match_with_finished_deals(make_table, alice, 3)
    request_match_analysis(alice, long_match)
    other = match_with_finished_deals(make_table, bob, 1)
    single = request_analysis(bob, other.deals.get(number=1))
    order = []
    while (taken := claim_next()) is not None:
        order.append(taken.pk)
        DealAnalysis.objects.filter(pk=taken.pk).update(status="done")
    by_number = {
        a.deal.number: a.pk for a in DealAnalysis.objects.filter(deal__match=long_match)
    }
    assert order == [by_number[1], single.pk, by_number[2], by_number[3]]


def test_a_signed_out_visitor_is_asked_to_sign_in(make_table, alice, client):
    match = match_with_finished_deals(make_table, alice, 1)
    html = page(client, match)
    assert 'data-action="analyse"' not in html
    assert "Sign in to ask for an analysis of this match." in html
    response = client.post(reverse("match_analyse", args=[match.pk]), follow=True)
    assert "Sign in to ask for an analysis." in response.content.decode()
    assert not DealAnalysis.objects.exists()


def test_a_match_with_no_finished_deal_has_nothing_to_analyse(make_table, alice):
    match = match_with_finished_deals(make_table, alice, 0)
    viewer = client_for(alice)
    assert "data-match-analysis" not in page(viewer, match)
    response = viewer.post(reverse("match_analyse", args=[match.pk]), follow=True)
    assert "No deal of this match has finished yet." in response.content.decode()
    assert not DealAnalysis.objects.exists()


def test_the_status_poll_starts_an_analyst_only_when_work_waits(
    make_table, alice, monkeypatch
):
    woken = []
    monkeypatch.setattr(analyst, "wake", lambda: woken.append(1))
    match = match_with_finished_deals(make_table, alice, 1)
    viewer = client_for(alice)
    analyse(viewer, match)
    assert woken == [1]  # the request itself
    status(viewer, match)
    assert woken == [1, 1]  # queued: an analyst is needed (a no-op if one lives)
    claim_next()
    status(viewer, match)
    assert woken == [1, 1]  # running with a fresh heartbeat: its analyst is at work
