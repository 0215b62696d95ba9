"""Analyses in Chromium: a deal's values per choice, marks, accuracy
and the graph under the replay; a whole match's "Analyse", its live progress and
then each player's accuracy and each deal's status on the match page; on a
desktop and within a 390 px phone."""

from __future__ import annotations

from tests.browser.pages import sign_up
from tests.browser.servers import manage
from tests.browser.test_languages import switch_language
from tests.browser.test_replay import DESKTOP, FINISH_ONE_DEAL, PHONE

#: The deal of FINISH_ONE_DEAL, analysed by the runner the analyst runs (few
#: samples, exact values on the last two tricks, one par contract: quick).
ANALYSE = """
from games.models import Deal
from django.contrib.auth import get_user_model
from games.services.analysis import request_analysis, run_next
deal = Deal.objects.filter(status="finished").latest("pk")
request_analysis(get_user_model().objects.get(username="replayer"), deal)
done = run_next(samples=3, exact_tricks=2, par=[(0, 0)])
step = next(s for s in done.result["steps"] if "exact" in s and "honest" in s)
print(done.status, step["step"], len(step["exact"]))
"""


def test_the_analysis_reads_on_desktop_and_phone(new_page, blot_server):
    out = manage(blot_server.env, "shell", "-c", FINISH_ONE_DEAL).split()
    match_id, number = int(out[-3]), int(out[-2])
    status, step, choices = manage(blot_server.env, "shell", "-c", ANALYSE).split()[-3:]
    assert status == "done"
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(viewport)
        page.goto(f"/matches/{match_id}/deals/{number}/replay/?step={step}")
        assert page.locator('[data-analysis-status="done"]').count() == 1
        assert page.locator("[data-eval]").count() == int(choices)
        assert page.locator("[data-eval][data-chosen]").count() == 1
        assert page.locator("[data-accuracy]").count() >= 1
        assert page.locator("svg[data-analysis-graph]").is_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{size}: the page is {width} px wide"
        page.locator("[data-analysis]").screenshot(path=f"/tmp/blot-analysis-{size}.png")
    page.goto(f"/matches/{match_id}/")
    assert page.locator("[data-match-analysis] [data-accuracy]").count() >= 1


#: Every queued analysis, computed by the runner the analyst runs (quickly).
ANALYSE_QUEUED = """
from games.services.analysis import run_next
while (done := run_next(samples=3, exact_tricks=2, par=False)) is not None:
    print(done.deal.number, done.status)
"""


def fits(page, viewport, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"{what}: the page is {width} px wide"
    box = page.locator("[data-match-analysis]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]


def test_a_whole_match_is_analysed_from_its_page_on_desktop_and_phone(new_page, blot_server):
    out = manage(blot_server.env, "shell", "-c", FINISH_ONE_DEAL).split()
    match_id, running = int(out[-3]), int(out[-2]) + 1  # deal 1 finished, deal 2 being played
    desktop, phone = new_page(DESKTOP), new_page(PHONE)
    sign_up(desktop, "Analyst")
    # The button's longest label (Armenian) on a phone, then English on a desktop.
    for language, viewport, size in (("hy", PHONE, "phone-hy"), ("en", DESKTOP, "desktop")):
        desktop.set_viewport_size(viewport)
        desktop.goto(f"/matches/{match_id}/")
        switch_language(desktop, language)
        assert desktop.locator('[data-match-analysis] [data-action="analyse"]').is_visible()
        fits(desktop, viewport, f"{size}, before asking")
        desktop.locator("[data-match-analysis]").screenshot(
            path=f"/tmp/blot-match-analysis-{size}-ask.png"
        )
    desktop.locator('[data-match-analysis] [data-action="analyse"]').click()
    desktop.wait_for_url(f"**/matches/{match_id}/#analysis")
    assert desktop.locator('[data-analysis-status="queued"]').count() == 1
    phone.goto(f"/matches/{match_id}/")  # a visitor watches the same progress
    for page, viewport, size in ((desktop, DESKTOP, "desktop"), (phone, PHONE, "phone")):
        status = page.locator('[data-match-analysis] [data-analysis-status="queued"]')
        assert status.get_attribute("hx-trigger") == "every 2s"
        # Only finished deals, for anybody: the running one is not listed.
        assert page.locator("[data-deal-analysis]").count() == 1
        assert page.locator(f'[data-deal-analysis="{running}"]').count() == 0
        fits(page, viewport, f"{size}, queued")
        page.locator("[data-match-analysis]").screenshot(
            path=f"/tmp/blot-match-analysis-{size}-queued.png"
        )
    assert phone.locator('[data-action="analyse"]').count() == 0  # signed out: nothing to press

    assert manage(blot_server.env, "shell", "-c", ANALYSE_QUEUED).split()[-2:] == ["1", "done"]
    for page, viewport, size in ((desktop, DESKTOP, "desktop"), (phone, PHONE, "phone")):
        # The 2 s poll sees it done and reloads the page with the accuracies.
        page.locator('[data-match-analysis] [data-analysis-status="done"]').wait_for()
        assert page.locator("[data-match-analysis] [data-accuracy][data-player]").count() == 4
        done = page.locator('[data-deal-analysis="1"][data-deal-status="done"] a[data-replay-link]')
        assert done.get_attribute("href") == f"/matches/{match_id}/deals/1/replay/"
        fits(page, viewport, f"{size}, done")
        page.locator("[data-match-analysis]").screenshot(
            path=f"/tmp/blot-match-analysis-{size}-done.png"
        )
    desktop.locator('[data-deal-analysis="1"] a[data-replay-link]').click()
    desktop.locator('[data-analysis] [data-analysis-status="done"]').wait_for()


#: The analysis of ANALYSE as it stands while its par table is computed.
PAR_PENDING = """
from games.models import DealAnalysis
analysis = DealAnalysis.objects.latest("pk")
result = {k: v for k, v in analysis.result.items() if k != "par"}
DealAnalysis.objects.filter(pk=analysis.pk).update(result={**result, "par_pending": True})
"""

#: Its par table arrives (as the analyst stores it).
PAR_ARRIVES = """
from games.models import DealAnalysis
from engine.solver.solve import par_table
analysis = DealAnalysis.objects.latest("pk")
table = par_table(analysis.deal.record(), [(0, 0)])
result = {k: v for k, v in analysis.result.items() if k != "par_pending"}
result["par"] = [[t, s, v] for (t, s), v in sorted(table.items())]
DealAnalysis.objects.filter(pk=analysis.pk).update(result=result)
"""


def test_the_par_table_appears_by_itself_once_computed(new_page, blot_server):
    out = manage(blot_server.env, "shell", "-c", FINISH_ONE_DEAL).split()
    match_id, number = int(out[-3]), int(out[-2])
    manage(blot_server.env, "shell", "-c", ANALYSE)
    manage(blot_server.env, "shell", "-c", PAR_PENDING)
    page = new_page(PHONE)
    page.goto(f"/matches/{match_id}/deals/{number}/replay/")
    # Readable already: accuracy and graph, the par table said to be on its way.
    assert page.locator("[data-accuracy]").count() >= 1
    assert page.locator("svg[data-analysis-graph]").is_visible()
    assert page.locator("[data-par-pending]").is_visible()
    assert page.locator("[data-par-table]").count() == 0
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    manage(blot_server.env, "shell", "-c", PAR_ARRIVES)
    # The 2 s poll sees the par table stored and reloads the page with it.
    page.locator("[data-par-table]").wait_for(state="attached")
    assert page.locator("[data-par-pending]").count() == 0
    assert page.locator("[data-accuracy]").count() >= 1
