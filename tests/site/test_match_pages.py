"""Match pages (players, format, score table) and deal pages (the record)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from django.urls import reverse

from engine.record import DealRecord, replay
from games.models import Match
from tests.site.conftest import client_for, play_match, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_table, alice):
    table = make_table(alice, "belote", fmt="best_of:3", others=["easy", "normal", "hard"])
    return table.matches.get()


def test_it_shows_a_running_match(client, match):
    response = client.get(match.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert "Best of 3 deals" in html
    assert "alice" in html
    assert "Bot 4 (Hard)" in html
    assert "No deal has finished yet." in html
    assert [p.name for p in response.context["sides"][0]] == ["alice", "Bot 3 (Normal)"]


def test_it_shows_the_score_table_of_a_finished_match(client, match):
    play_match(match, seed=11)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    response = client.get(match.get_absolute_url())
    rows = response.context["rows"]
    assert len(rows) == match.deals.count()
    html = response.content.decode()
    last = rows[-1]
    assert f"{last.totals[0]} \N{EN DASH} {last.totals[1]}" in html
    assert "winner" in html
    for row in rows:
        assert row.deal.get_absolute_url() in html


def test_it_keeps_finished_matches_browsable_from_the_table(client, match):
    play_match(match, seed=5)
    table = match.table
    table.refresh_from_db()
    assert table.status == "finished"
    response = client.get(reverse("table", args=[table.pk]))
    assert match.get_absolute_url() in response.content.decode()


def test_it_hides_the_deck_of_a_running_deal(client, match):
    deal = match.deals.get()
    response = client.get(deal.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert deal.commitment in html
    assert deal.shuffle_salt not in html
    assert "deal-record" not in html
    assert client.get(reverse("deal_record", args=[match.pk, 1])).status_code == 403


def test_it_shows_a_finished_deal_record_that_the_engine_replays(client, match):
    from games.services.matches import finish_deal

    deal = play_out(match.deals.get(), random.Random(2))
    finish_deal(deal)
    deal.refresh_from_db()
    response = client.get(deal.get_absolute_url())
    html = response.content.decode()
    assert deal.shuffle_salt in html
    assert "Copy the deal record" in html
    record = json.loads(response.context["record_json"])
    assert record == deal.export_dict()
    assert record["salt"] == deal.shuffle_salt
    report = replay(DealRecord.from_dict(record))
    assert report.error is None
    assert report.to_dict()["result"] == deal.result


def test_it_downloads_the_deal_record(client, match):
    from games.services.matches import finish_deal

    finish_deal(play_out(match.deals.get(), random.Random(4)))
    response = client.get(reverse("deal_record", args=[match.pk, 1]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert set(data) == {"variant", "dealer", "rules", "deck", "actions", "salt", "commitment"}
    # The engine's own command checks the shuffle commitment of the copied record.
    checked = subprocess.run(
        [sys.executable, "-m", "engine", "verify", "-"],
        input=response.content.decode(), capture_output=True, text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("ok")


@pytest.mark.parametrize("seated", [True, False])
def test_it_hides_a_running_deals_deck_from_staff_too(make_user, make_table, seated):
    # Staff seated in a match once read the whole deck through record.json.
    # Nobody gets a running deal's deck, salt or record through the site.
    staff_user = make_user("staff", is_staff=True)
    creator = staff_user if seated else make_user("someone")
    table = make_table(creator, "belote", others=["easy", "normal", "hard"])
    match = table.matches.get()
    deal = match.deals.get()
    staff = client_for(staff_user)
    assert staff.get(reverse("deal_record", args=[match.pk, 1])).status_code == 403
    page = staff.get(reverse("deal", args=[match.pk, 1])).content.decode()
    assert deal.shuffle_salt not in page
    assert '"deck"' not in page and "&quot;deck&quot;" not in page
    assert deal.commitment in page


def test_it_shows_staff_the_record_once_the_deal_is_over(make_user, match):
    finish = match.deals.get()
    from games.services.matches import finish_deal

    finish_deal(play_out(finish, random.Random(3)))
    staff = client_for(make_user("staff", is_staff=True))
    assert staff.get(reverse("deal_record", args=[match.pk, 1])).status_code == 200


def test_it_404s_an_unknown_match_or_deal(client, match):
    assert client.get(reverse("match", args=[match.pk + 100])).status_code == 404
    assert client.get(reverse("deal", args=[match.pk, 99])).status_code == 404


def test_it_names_dealer_and_taker_and_counts_deals_won_in_a_best_of(client, match):
    """The score table says who dealt and who took by name, and a
    best-of match shows the deals each side won."""
    import re

    play_match(match, seed=11)
    html = client.get(match.get_absolute_url()).content.decode()
    names = {p.index: p.shown_name for p in match.participants.all()}
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    for row in match.score_rows.order_by("number"):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", body.split("<tr>")[row.number], re.S)
        assert cells[1].strip() == names[row.dealer]
        if row.taker is not None:
            assert cells[3].strip() == names[row.taker]
    last = match.score_rows.order_by("-number").first()
    won = f"{last.wins[0]} \N{EN DASH} {last.wins[1]}"
    assert f'<td class="num" data-deals-won>{won}</td>' in html
