"""Deal analyses: asked for on a finished deal only (players,
spectators and staff alike get nothing of a running one), at most three pending
per person, never queued twice; computed by the analyst process at the lowest
priority, taken up again when its analyst died, and shown in the replay and on
the match page."""

from __future__ import annotations

import ast
import os
import random
import re
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine import deal_analysis
from engine.solver.solve import par_table
from games.live.conduct import analyst
from games.models import DealAnalysis
from games.services import ServiceError
from games.services.analysis import (
    MAX_PENDING,
    STALE_AFTER,
    Heartbeat,
    LostClaim,
    analyse,
    claim_next,
    request_analysis,
    run_next,
    waits_for_analyst,
)
from games.services.matches import finish_deal
from tests.site.conftest import client_for, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_analyst_process(settings):
    settings.BLOT_ANALYST = "off"


@pytest.fixture
def belote_match(make_table, alice):
    table = make_table(alice, "belote", fmt="best_of:3", others=["easy", "normal", "hard"])
    return table.matches.get()


def finished(match, seed: int = 3):
    deal = play_out(match.deals.get(), random.Random(seed))
    finish_deal(deal)
    deal.refresh_from_db()
    return deal


def replay(deal, step: int | None = None) -> str:
    base = reverse("deal_replay", args=[deal.match_id, deal.number])
    return base if step is None else f"{base}?step={step}"


def analyse_url(deal) -> str:
    return reverse("deal_analyse", args=[deal.match_id, deal.number])


def fast_run():
    # Few samples and exact values on the last two tricks only: the same code as
    # the analyst's full run, in a fraction of the time.
    return run_next(samples=3, exact_tricks=2, par=False)


def test_a_running_deal_is_never_analysed_nor_shown(belote_match, alice, make_user, client):
    deal = belote_match.deals.get()
    staff = make_user("root", is_staff=True, is_superuser=True)
    for user in (alice, staff):
        with pytest.raises(ServiceError):
            request_analysis(user, deal)
    for viewer in (client_for(alice), client, client_for(staff)):  # player, spectator, staff
        assert viewer.post(analyse_url(deal)).status_code == 403
        status = reverse("deal_analysis_status", args=[deal.match_id, deal.number])
        assert viewer.get(status).status_code == 403
        html = viewer.get(replay(deal)).content.decode()
        assert "data-eval" not in html and 'data-action="analyse"' not in html
    assert not DealAnalysis.objects.exists()


def test_asking_twice_queues_one_analysis(belote_match, alice, make_user):
    deal = finished(belote_match)
    first = request_analysis(alice, deal)
    again = request_analysis(make_user("bob"), deal)
    assert again.pk == first.pk and DealAnalysis.objects.count() == 1
    assert first.status == "queued"


def test_a_fourth_pending_request_is_refused_politely(make_table, alice):
    deals = []
    for _ in range(MAX_PENDING + 1):
        match = make_table(alice, "belote", fmt="best_of:3", others=["easy"] * 3).matches.get()
        deals.append(finished(match))
    for deal in deals[:MAX_PENDING]:
        request_analysis(alice, deal)
    with pytest.raises(ServiceError, match="already have 3 analysis requests waiting"):
        request_analysis(alice, deals[-1])
    assert not DealAnalysis.objects.filter(deal=deals[-1]).exists()
    # Once one is done, the next may be asked for.
    fast_run()
    assert request_analysis(alice, deals[-1]).status == "queued"


def test_anonymous_visitors_cannot_queue(belote_match, client):
    deal = finished(belote_match)
    client.post(analyse_url(deal))
    assert not DealAnalysis.objects.exists()
    assert 'data-action="analyse"' not in client.get(replay(deal)).content.decode()


def test_the_runner_stores_values_marks_and_accuracy(belote_match, alice):
    deal = finished(belote_match)
    request_analysis(alice, deal)
    done = fast_run()
    assert done is not None and done.status == "done" and done.percent == 100
    result = done.result
    seats = {a["seat"] for a in deal.actions}
    assert {int(s) for s in result["accuracy"]} <= seats and result["accuracy"]
    for step in result["steps"]:
        action = deal.actions[step["step"]]
        assert action["seat"] == step["seat"]
        if "honest" in step:
            assert step["chosen"] in step["honest"] and len(step["honest"]) >= 2
            best = max(step["honest"].values())
            assert step["loss"] == pytest.approx(best - step["honest"][step["chosen"]], abs=0.11)
        if "exact" in step:
            assert step["chosen"] == action["card"] and step["exact_loss"] >= 0
    # Exact values on the last two tricks: 8 cards, each in the graph.
    assert sum("exact" in s for s in result["steps"]) == 8 == len(result["graph"])
    # Stored once: nothing more is queued.
    assert fast_run() is None


def test_the_replay_shows_the_analysis_at_each_step(belote_match, alice):
    deal = finished(belote_match)
    viewer = client_for(alice)
    page = viewer.get(replay(deal)).content.decode()
    assert 'data-action="analyse"' in page
    response = viewer.post(analyse_url(deal))
    assert response.status_code == 302
    assert 'data-analysis-status="queued"' in viewer.get(replay(deal)).content.decode()
    assert 'hx-trigger="every 2s"' in viewer.get(replay(deal)).content.decode()
    fast_run()
    result = DealAnalysis.objects.get(deal=deal).result
    card_step = next(s for s in result["steps"] if "exact" in s and "honest" in s)
    html = viewer.get(replay(deal, card_step["step"])).content.decode()
    assert 'data-analysis-status="done"' in html and "<svg" in html
    for key, value in card_step["exact"].items():
        row = re.search(rf'<tr data-eval data-action-value="{key}"[^>]*>', html)
        assert row is not None
        assert f'data-exact="{value}"' in row.group(0)
        assert f'data-honest="{card_step["honest"][key]}"' in row.group(0)
    chosen = re.findall(r'data-action-value="([^"]+)"[^>]*data-chosen', html)
    assert chosen == [card_step["chosen"]]
    names = {p.index: p.shown_name for p in deal.match.participants.all()}
    for seat, value in result["accuracy"].items():
        assert f'data-accuracy data-player="{names[int(seat)]}"' in html
        assert f"{value}%" in html
    marked = [s for s in result["steps"] if s.get("mark")]
    if marked:
        assert f'data-mark="{marked[0]["mark"]}"' in html
    match_page = viewer.get(reverse("match", args=[deal.match_id])).content.decode()
    assert "data-match-analysis" in match_page and "data-accuracy" in match_page


def test_numbers_in_the_hooks_and_the_graph_are_never_localized(belote_match, alice):
    deal = finished(belote_match)
    request_analysis(alice, deal)
    fast_run()
    result = DealAnalysis.objects.get(deal=deal).result
    step = next(s for s in result["steps"] if "honest" in s)
    viewer = Client()  # a visitor reading in French
    viewer.cookies["django_language"] = "fr"
    html = viewer.get(replay(deal, step["step"])).content.decode()
    assert "Analyse" in html and 'lang="fr"' in html
    for value in re.findall(r'data-honest="([^"]*)"', html):
        assert "," not in value and float(value) in step["honest"].values()
    svg = re.search(r"<svg.*?</svg>", html, re.S)
    assert svg is not None
    coordinates = re.findall(
        r'\s(?:x|y|x1|y1|x2|y2|cx|cy|r|width|height)="([^"]*)"', svg.group(0)
    )
    assert len(coordinates) > 20
    for c in coordinates:
        if c != "100%":  # the drawing's own width
            float(c)  # a plain number: no decimal comma, no spaces
    assert re.search(r'viewBox="0 0 \d+ \d+"', svg.group(0))


def test_the_par_table_is_stored_and_shown(belote_match, alice):
    deal = finished(belote_match)
    request_analysis(alice, deal)
    # One contract of the table (each is a full exact solve; all 16 are the default).
    run_next(samples=2, exact_tricks=1, par=[(0, 0)])
    par = DealAnalysis.objects.get(deal=deal).result["par"]
    assert par == [[0, 0, par_table(deal.record(), [(0, 0)])[(0, 0)]]]
    html = client_for(alice).get(replay(deal)).content.decode()
    assert "data-par-table" in html and f">{par[0][2]}<" in html


def test_asking_starts_the_analyst_process_only_in_the_embedded_mode(
    belote_match, alice, settings, monkeypatch
):
    started = []

    class FakePopen:
        def __init__(self, args, **kwargs):
            started.append(args)

        def poll(self):
            return None

    monkeypatch.setattr(analyst.subprocess, "Popen", FakePopen)
    monkeypatch.setattr(analyst, "_child", None)
    settings.BLOT_ANALYST = "on"
    settings.BLOT_CONDUCTOR = "inprocess"
    deal = finished(belote_match)
    client_for(alice).post(analyse_url(deal))
    client_for(alice).post(analyse_url(deal))  # the live one is reused
    assert started == [[sys.executable, "-m", "django", "analyse"]]
    settings.BLOT_CONDUCTOR = "external"  # the worker's own analyst polls the queue
    monkeypatch.setattr(analyst, "_child", None)
    analyst.wake()
    assert len(started) == 1


def test_the_analyst_lowers_its_priority_before_any_work(belote_match, alice, monkeypatch):
    order = []
    monkeypatch.setattr(analyst, "lower_priority", lambda: order.append("nice"))
    import games.management.commands.analyse as command

    monkeypatch.setattr(command, "run_next", lambda **kw: order.append("run"))
    call_command("analyse")
    assert order == ["nice", "run"]


def test_lower_priority_means_nice_19_on_one_core():
    code = (
        "import os; from games.live.conduct.analyst import lower_priority; "
        "lower_priority(); print(os.nice(0), len(os.sched_getaffinity(0)))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "blotsite.settings"},
    ).stdout.split()
    assert out == ["19", "1"]


def test_the_bots_decision_path_never_touches_analyses():
    # The conductor and its decisions never import the analysis service or the
    # engine's analysis, so a bot's move can never wait on one.
    root = Path(__file__).resolve().parents[2] / "games" / "live"
    for path in root.rglob("*.py"):
        if path.name == "analyst.py":
            continue
        tree = ast.parse(path.read_text())
        names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
        }
        assert not any("analysis" in name or "analyst" in name for name in names), path


def left_running(deal, user, beat_age: timedelta) -> DealAnalysis:
    """An analysis an analyst claimed and last beat for ``beat_age`` ago (its
    analyst killed then, if that is older than STALE_AFTER)."""
    request_analysis(user, deal)
    taken = claim_next()
    assert taken is not None and taken.status == "running"
    DealAnalysis.objects.filter(pk=taken.pk).update(beat_at=timezone.now() - beat_age)
    taken.refresh_from_db()
    return taken


def test_an_analysis_whose_analyst_died_is_taken_again_and_completes(belote_match, alice):
    deal = finished(belote_match)
    dead = left_running(deal, alice, STALE_AFTER + timedelta(seconds=1))
    done = fast_run()
    assert done is not None and done.pk == dead.pk
    stored = DealAnalysis.objects.get(pk=dead.pk)
    assert stored.status == "done" and stored.result and stored.claim == dead.claim + 1
    assert stored.done_steps == stored.total_steps


def test_a_running_analysis_with_a_fresh_heartbeat_is_not_taken(belote_match, alice):
    deal = finished(belote_match)
    alive = left_running(deal, alice, STALE_AFTER - timedelta(seconds=30))
    assert fast_run() is None
    stored = DealAnalysis.objects.get(pk=alive.pk)
    assert stored.status == "running" and stored.claim == alive.claim and stored.result is None


def test_a_row_left_running_without_any_heartbeat_is_taken_again(belote_match, alice):
    # Rows running before heartbeats existed have none: their analyst is gone.
    deal = finished(belote_match)
    request_analysis(alice, deal)
    DealAnalysis.objects.update(status="running", beat_at=None)
    assert fast_run() is not None
    assert DealAnalysis.objects.get().status == "done"


def test_an_analyst_taken_for_dead_stops_and_writes_nothing(belote_match, alice):
    deal = finished(belote_match)
    slow = left_running(deal, alice, STALE_AFTER + timedelta(seconds=1))
    successor = claim_next()  # queued again, then taken under a new claim
    assert successor is not None and successor.claim == slow.claim + 1
    with pytest.raises(LostClaim):
        analyse(slow, samples=2, exact_tricks=1, par=False)
    stored = DealAnalysis.objects.get(pk=slow.pk)
    assert stored.claim == successor.claim and stored.done_steps == 0
    # The successor's work is its own to finish.
    result = analyse(successor, samples=2, exact_tricks=1, par=False)
    assert result["steps"] and DealAnalysis.objects.get(pk=slow.pk).done_steps == len(deal.actions)


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_thread_keeps_a_long_step_alive(belote_match, alice):
    # A single step may take minutes at nice 19: the thread beats meanwhile.
    deal = finished(belote_match)
    held = left_running(deal, alice, STALE_AFTER + timedelta(minutes=1))
    with Heartbeat(held, every=0.01):
        for _ in range(1000):  # until the first beat lands (a wait, not a timing)
            held.refresh_from_db()
            if held.beat_at > timezone.now() - STALE_AFTER:
                break
            time.sleep(0.01)
    assert held.beat_at > timezone.now() - STALE_AFTER
    assert fast_run() is None  # not stale: nobody takes it


def test_a_status_poll_starts_an_analyst_for_a_dead_ones_work(
    belote_match, alice, settings, monkeypatch
):
    started = []
    monkeypatch.setattr(analyst, "wake", lambda: started.append("wake"))
    deal = finished(belote_match)
    status = reverse("deal_analysis_status", args=[deal.match_id, deal.number])
    analysis = left_running(deal, alice, STALE_AFTER - timedelta(seconds=30))
    client_for(alice).get(status)
    assert started == []  # alive: its analyst is at work
    DealAnalysis.objects.filter(pk=analysis.pk).update(
        beat_at=timezone.now() - STALE_AFTER - timedelta(seconds=1)
    )
    client_for(alice).get(status)
    assert started == ["wake"]


def test_the_workers_analyst_is_started_again_when_it_dies(settings, monkeypatch):
    settings.BLOT_ANALYST = "on"
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    monkeypatch.setattr(analyst, "command", lambda forever: sleeper)
    monkeypatch.setattr(analyst, "_child", None)
    keeper = analyst.Keeper(every_s=0.05).start()
    try:
        first = analyst._child
        assert first is not None and first.poll() is None
        first.kill()
        first.wait()
        deadline = time.monotonic() + 10
        while analyst._child is first and time.monotonic() < deadline:
            time.sleep(0.05)
        assert analyst._child is not first and analyst._child.poll() is None
    finally:
        keeper.stop()
    assert analyst._child.wait(timeout=10) is not None  # stopped with the worker


def stored(deal, steps, graph, play_unit="card"):
    """A finished analysis with the given result (what the analyst would store)."""
    result = {"steps": steps, "graph": graph, "accuracy": {"0": 90.0}, "samples": 3}
    if play_unit:
        result["play_unit"] = play_unit
    return DealAnalysis.objects.create(
        deal=deal, status="done", result=result, total_steps=len(deal.actions),
        done_steps=len(deal.actions),
    )


def card_steps(deal):
    return [i for i, a in enumerate(deal.actions) if a["type"] == "play"]


def test_a_mark_says_when_the_card_was_best_with_all_cards_known(belote_match, alice):
    deal = finished(belote_match)
    first, second = card_steps(deal)[:2]
    chosen = deal.actions[first]["card"]
    other = deal.actions[second]["card"]
    # The report's case: honest 12 points behind, exact tied for best (94 vs 94).
    steps = [
        {"step": first, "seat": deal.actions[first]["seat"], "chosen": chosen,
         "honest": {chosen: 70.0, "XX": 82.0}, "loss": 12.0, "mark": "inaccuracy",
         "exact": {chosen: 94, "XX": 94}, "exact_loss": 0},
        {"step": second, "seat": deal.actions[second]["seat"], "chosen": other,
         "honest": {other: 50.0, "YY": 80.0}, "loss": 30.0, "mark": "mistake",
         "exact": {other: 60, "YY": 90}, "exact_loss": 30},
    ]
    stored(deal, steps, [[first, 94], [second, 60]])
    html = Client().get(replay(deal, first)).content.decode()
    mark = re.search(
        r'<p class="analysis-mark inaccuracy" data-mark="inaccuracy">(.*?)</p>', html, re.S
    )
    line = " ".join(mark.group(1).split())
    assert line.startswith("An inaccuracy (?!). From what ")
    assert "it cost 12 card points against the best choice." in line
    assert "With all cards known it was one of the best cards all the same" in line
    assert "Both values in card points." in html
    # The marked decisions beside the felt, by the card played.
    names = {p.index: p.shown_name for p in deal.match.participants.all()}
    listed = re.findall(r'<a href="\?step=(\d+)" data-mark="(\w+)"[^>]*>(.*?)</a>', html)
    label = ("10" if chosen[0] == "T" else chosen[0])
    assert listed[0][:2] == (str(first), "inaccuracy")
    assert listed[0][2].startswith(label) and "?! by " + names[steps[0]["seat"]] in listed[0][2]
    assert "the best card all the same with all cards known" in listed[0][2]
    assert listed[1][:2] == (str(second), "mistake") and "? by" in listed[1][2]
    html = Client().get(replay(deal, second)).content.decode()
    assert "With all cards known it cost 30 card points." in html


def test_the_graph_has_axes_and_every_step_is_a_link(belote_match, alice):
    deal = finished(belote_match)
    plays = card_steps(deal)
    stored(deal, [], [[s, 81] for s in plays])
    html = Client().get(replay(deal, plays[3])).content.decode()
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    linked = re.findall(r'<a href="\?step=(\d+)" data-graph-step="(\d+)"', svg)
    assert [int(a) for a, b in linked] == plays and all(a == b for a, b in linked)
    assert re.findall(r'data-graph-step="(\d+)" aria-current="step"', svg) == [str(plays[3])]
    assert svg.count('class="axis"') == 2
    assert ">0</text>" in svg and ">162</text>" in svg  # card points up the side
    assert '"tick x">0</text>' in svg  # steps across


def test_an_analysis_stored_before_the_units_were_shared_says_so(belote_match, alice):
    deal = finished(belote_match)
    first = card_steps(deal)[0]
    card = deal.actions[first]["card"]
    stored(deal, [{"step": first, "seat": 0, "chosen": card, "honest": {card: 40.0, "XX": 41.0},
                   "loss": 1.0, "mark": None, "exact": {card: 90, "XX": 80}, "exact_loss": 0}],
           [[first, 90]], play_unit=None)
    html = Client().get(replay(deal, first)).content.decode()
    assert 'data-analysis-units="mixed"' in html
    assert "Honest value in deal points; with all cards known in card points." in html


def status_url(deal, shown: bool = False) -> str:
    url = reverse("deal_analysis_status", args=[deal.match_id, deal.number])
    return url + "?shown=values" if shown else url


def test_the_analysis_is_readable_while_its_par_table_is_computed(
    belote_match, alice, monkeypatch
):
    deal = finished(belote_match)
    request_analysis(alice, deal)
    seen: dict[str, object] = {}
    real_par_table = deal_analysis.par_table

    def par_table_watched(*args, **kwargs):
        # What a player sees while the analyst computes the par table.
        reader = client_for(alice)
        seen["stored"] = DealAnalysis.objects.get(deal=deal)
        seen["page"] = reader.get(replay(deal)).content.decode()
        seen["poll_of_a_page_with_values"] = reader.get(status_url(deal, shown=True))
        seen["poll_of_a_waiting_page"] = reader.get(status_url(deal))
        return real_par_table(*args, **kwargs)

    monkeypatch.setattr(deal_analysis, "par_table", par_table_watched)
    run_next(samples=2, exact_tricks=1, par=[(0, 0)])

    stored = seen["stored"]
    assert stored.status == "done" and stored.par_pending and stored.percent == 100
    page = seen["page"]
    assert "data-accuracy" in page and "data-analysis-graph" in page
    assert "data-par-pending" in page and "data-par-table" not in page
    assert 'data-analysis-status="done"' in page and "shown=values" in page  # it polls
    assert "HX-Refresh" not in seen["poll_of_a_page_with_values"]
    assert seen["poll_of_a_waiting_page"]["HX-Refresh"] == "true"  # values to show

    final = DealAnalysis.objects.get(deal=deal)
    assert not final.par_pending and "par_pending" not in final.result
    # The values shown first are the values kept: the par table is only added.
    first = {k: v for k, v in stored.result.items() if k != "par_pending"}
    assert {k: v for k, v in final.result.items() if k != "par"} == first
    assert final.result["par"] == [[0, 0, par_table(deal.record(), [(0, 0)])[(0, 0)]]]
    reader = client_for(alice)
    assert reader.get(status_url(deal, shown=True))["HX-Refresh"] == "true"
    page = reader.get(replay(deal)).content.decode()
    assert "data-par-table" in page and "data-par-pending" not in page
    assert "shown=values" not in page  # nothing more to wait for


def test_a_failed_par_table_leaves_the_analysis_shown_without_one(
    belote_match, alice, monkeypatch
):
    deal = finished(belote_match)
    request_analysis(alice, deal)

    def par_table_failing(*args, **kwargs):
        raise RuntimeError("par table failed")

    monkeypatch.setattr(deal_analysis, "par_table", par_table_failing)
    run_next(samples=2, exact_tricks=1, par=[(0, 0)])
    stored = DealAnalysis.objects.get(deal=deal)
    assert stored.status == "done" and not stored.par_pending and "par" not in stored.result
    page = client_for(alice).get(replay(deal)).content.decode()
    assert "data-accuracy" in page and "data-par-pending" not in page


def test_a_par_table_whose_analyst_died_is_done_again(belote_match, alice):
    deal = finished(belote_match)
    request_analysis(alice, deal)
    fast_run()
    shown = DealAnalysis.objects.get(deal=deal)
    DealAnalysis.objects.filter(pk=shown.pk).update(
        result={**shown.result, "par_pending": True},
        beat_at=timezone.now() - STALE_AFTER - timedelta(seconds=1),
    )
    shown.refresh_from_db()
    assert shown.par_pending and waits_for_analyst(shown)
    again = fast_run()
    assert again is not None and again.pk == shown.pk and again.claim == shown.claim + 1
    stored = DealAnalysis.objects.get(pk=shown.pk)
    assert stored.status == "done" and not stored.par_pending
    assert stored.result["steps"] == shown.result["steps"]


def test_a_par_table_being_computed_is_not_taken_from_its_analyst(belote_match, alice):
    deal = finished(belote_match)
    request_analysis(alice, deal)
    fast_run()
    shown = DealAnalysis.objects.get(deal=deal)
    DealAnalysis.objects.filter(pk=shown.pk).update(
        result={**shown.result, "par_pending": True}, beat_at=timezone.now()
    )
    assert fast_run() is None
    assert DealAnalysis.objects.get(pk=shown.pk).par_pending
