"""Stepping through a finished deal's replay in Chromium: the buttons,
the arrow keys and ``?step=N`` move one action at a time, every card on the page
is face up, and the page fits a 390 px phone. A deal still being played has none."""

from __future__ import annotations

import re

from tests.browser.servers import manage

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}

#: A Belote table (a person and three bots) whose first deal is played out and finished, and
#: whose second deal is left running; prints "<match id> <actions in deal 1>".
FINISH_ONE_DEAL = """
import random
from django.contrib.auth import get_user_model
from games.models import RuleSetConfig
from games.services import tables
from games.services.matches import deal_next, finish_deal
# The browser tests share one server: another test may have made this player.
User = get_user_model()
user = User.objects.filter(username="replayer").first() or User.objects.create_user(
    "replayer", password="a-long-enough-Passw0rd"
)
table = tables.create_table(
    user=user, variant="belote", fmt="first_to:1001",
    rule_set=RuleSetConfig.objects.get(variant="belote", is_default=True),
    others=["normal", "normal", "normal"],
)
match = table.matches.get()
table.is_private = False
table.save()
rng = random.Random(26)
deal = match.deals.get()
played = deal.rebuild()
while not played.is_over:
    legal = played.legal_actions()
    takes = [a for a in legal if a.type == "take"]  # the first bid takes: never void
    played.apply(takes[0] if takes else rng.choice(legal))
deal.actions = [a.to_dict() for a in played.history]
deal.save(update_fields=["actions"])
finish_deal(deal)
deal_next(match.pk)
print(match.pk, deal.number, len(deal.actions))
"""


def step_of(page) -> int:
    return int(page.locator("[data-replay]").get_attribute("data-step"))


def test_a_replay_steps_with_buttons_keys_and_links(new_page, blot_server):
    out = manage(blot_server.env, "shell", "-c", FINISH_ONE_DEAL).split()
    match_id, number, total = (int(x) for x in out[-3:])
    replay = f"/matches/{match_id}/deals/{number}/replay/"
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(viewport)
        page.goto(f"{replay}?step=0")
        root = page.locator("[data-replay]")
        assert root.get_attribute("data-steps") == str(total)
        assert step_of(page) == 0
        assert page.locator("[data-card]").count() == 21  # four hands of five, the proposed card
        page.locator('[data-action="next"]').click()
        page.wait_for_url(re.compile(r"step=1$"))
        assert step_of(page) == 1
        page.keyboard.press("ArrowRight")
        page.wait_for_url(re.compile(r"step=2$"))
        page.keyboard.press("ArrowLeft")
        page.wait_for_url(re.compile(r"step=1$"))
        page.locator('[data-action="last"]').click()
        page.wait_for_url(re.compile(rf"step={total}$"))
        assert page.locator("[data-replay-result]").count() == 1
        page.locator('[data-action="prev"]').click()
        page.wait_for_url(re.compile(rf"step={total - 1}$"))
        # One card is left in one hand before the last card: it is drawn face up.
        assert page.locator(".replay-hand [data-card]").count() == 1
        page.locator('[data-action="first"]').click()
        page.wait_for_url(re.compile(r"step=0$"))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{size}: the page is {width} px wide"
        page.screenshot(path=f"/tmp/blot-replay-{size}.png", full_page=True)
    # The next deal is still being played: no replay, not even its first step.
    page.goto(f"/matches/{match_id}/deals/{number + 1}/replay/?step=0")
    assert page.locator("[data-replay-refused]").count() == 1
    assert page.locator("[data-card]").count() == 0
