"""Quick play's bot level (picked beside the buttons, remembered) and the lobby's
"Your tables" rows, which tell one running table from another."""

from __future__ import annotations

import re

from django.urls import reverse

from games.models import Seat, Table


def test_quick_play_uses_the_picked_bot_level_and_remembers_it(alice_client, alice):
    page = alice_client.get(reverse("lobby")).content.decode()
    form = re.search(r'<form[^>]*class="quick-play-form".*?</form>', page, re.S).group(0)
    assert 'select name="bot_level"' in form and 'data-play-bots="belote"' in form
    assert 'data-play-bots="open_blot"' in form
    assert re.search(r'<option value="normal" selected>', form)  # the default

    alice_client.post(reverse("play_bots", args=["open_blot"]), {"bot_level": "hard"})
    table = Table.objects.get(created_by=alice)
    assert [s.bot_level for s in table.seats.order_by("index")] == [None, "hard"]
    page = alice_client.get(reverse("lobby")).content.decode()
    assert re.search(r'<option value="hard" selected>', page), "the level is remembered"


def test_quick_play_refuses_an_unknown_level(alice_client, alice):
    response = alice_client.post(
        reverse("play_bots", args=["belote"]), {"bot_level": "godlike"}, follow=True
    )
    assert not Table.objects.filter(created_by=alice).exists()
    assert "Unknown bot level." in response.content.decode()


def test_your_tables_rows_show_opponents_score_and_when(alice_client, alice, make_table, bob):
    make_table(alice, "open_blot", others=["easy"])
    make_table(alice, "belote", others=["hard", "easy", "hard"])
    page = alice_client.get(reverse("lobby")).content.decode()
    rows = re.findall(r'<li class="my-table".*?</li>', page, re.S)
    assert len(rows) == 2
    assert len(set(rows)) == 2
    belote = next(r for r in rows if "Belote" in r and "Open Blot" not in r)
    assert "Opponents:" in belote and "Bot (Hard)" in belote and "Bot (Easy)" not in belote
    assert all("Last move:" in r and "ago" in r for r in rows)
    assert Seat.objects.filter(user=alice).count() == 2
