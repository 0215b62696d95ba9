"""A deal's analysis in Chromium (issue 26): values per choice, marks, accuracy
and the graph under the replay, on a desktop and within a 390 px phone."""

from __future__ import annotations

from tests.browser.servers import manage
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
        page.locator("[data-analysis]").screenshot(path=f"/tmp/h26a-analysis-{size}.png")
    page.goto(f"/matches/{match_id}/")
    assert page.locator("[data-match-analysis] [data-accuracy]").count() >= 1
