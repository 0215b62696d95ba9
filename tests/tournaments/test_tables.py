"""A tournament's tables: a bot entrant has one name on its table, the
bracket and the standings; a finished tournament table links back and offers no
rematch; best-of-N matches show deals won."""

from __future__ import annotations

import re

from django.urls import reverse

from games.live.draw.render import render_table
from games.models import Entrant, Pairing, Participant
from games.services import seating
from games.services import tournaments as svc
from tests.live.conftest import live_of
from tests.site.conftest import play_match


def bobs_pairing(make_tournament, alice, bob, **kw) -> Pairing:
    tournament = make_tournament(alice, **kw)
    svc.register(tournament.pk, bob)
    svc.start(tournament.pk, alice)
    return Pairing.objects.get(entrant_a__user=bob)


def test_a_bot_entrant_has_the_same_name_on_its_table_and_the_bracket(
    make_tournament, alice, bob, bob_client
):
    pairing = bobs_pairing(make_tournament, alice, bob)
    opponent = pairing.entrant_b
    assert opponent.is_bot
    bot = Participant.objects.get(match=pairing.match, index=1)
    assert bot.shown_name == opponent.shown_name
    table = render_table(pairing.table, 0)
    assert opponent.shown_name in table
    # No other "Bot <n>" on the table than the entrant's own number.
    assert set(re.findall(r"Bot \d+", table)) == {opponent.shown_name.split(" (")[0]}
    page = bob_client.get(pairing.tournament.get_absolute_url()).content.decode()
    assert opponent.shown_name in page


def test_belote_partner_bots_are_not_numbered_like_entrants(make_tournament, alice, bob):
    pairing = bobs_pairing(make_tournament, alice, bob, variant="belote")
    names = dict(
        Participant.objects.filter(match=pairing.match).values_list("index", "name")
    )
    assert names[2] == "Partner bot (Easy)"  # bob's partner
    assert names[1] == pairing.entrant_b.shown_name  # the bot entrant itself
    assert names[3] == "Partner bot (Easy)"


def test_a_finished_tournament_table_links_back_and_offers_no_rematch(
    make_tournament, alice, bob, bob_client
):
    pairing = bobs_pairing(make_tournament, alice, bob)
    playing = render_table(pairing.table, 0)
    assert "data-tournament-link" in playing and 'data-action="resign"' in playing
    play_match(pairing.match)
    pairing.table.refresh_from_db()
    html = bob_client.get(pairing.table.get_absolute_url()).content.decode()
    assert 'data-action="rematch"' not in html
    link = reverse("tournament", args=[pairing.tournament_id])
    assert f'href="{link}" data-tournament-link' in html
    # Asking anyway is refused: a rematch would be a match outside the tournament.
    bob_client.post(reverse("match_rematch", args=[pairing.table_id, pairing.match_id]))
    assert pairing.table.matches.count() == 1
    match_page = bob_client.get(pairing.match.get_absolute_url()).content.decode()
    assert "data-tournament-link" in match_page


def test_best_of_three_shows_deals_won_not_summed_points(make_tournament, alice, bob, bob_client):
    pairing = bobs_pairing(make_tournament, alice, bob, fmt="best_of:3")
    play_match(pairing.match, seed=5)
    svc.advance(pairing.tournament_id)
    pairing.refresh_from_db()
    assert pairing.is_finished
    wins = pairing.match.score_rows.order_by("-number").first().wins
    assert max(wins) == 2
    page = bob_client.get(pairing.tournament.get_absolute_url()).content.decode()
    cell = re.search(
        rf'data-bracket-match="1-{pairing.index}".*?</div>\s*</div>\s*</div>', page, re.S
    ).group(0)
    assert re.findall(r'<span class="pts">(\d+)</span>', cell) == [str(wins[0]), str(wins[1])]


def test_resigning_a_tournament_match_against_a_bot_loses_it(make_tournament, alice, bob):
    pairing = bobs_pairing(make_tournament, alice, bob)
    assert live_of(pairing.table) is not None
    seating.resign(pairing.table.pk, bob)
    svc.advance(pairing.tournament_id)
    pairing.refresh_from_db()
    assert pairing.is_finished and pairing.winner == pairing.entrant_b


def test_entrants_are_numbered_once(make_tournament, alice, bob, bob_client):
    pairing = bobs_pairing(make_tournament, alice, bob)
    page = bob_client.get(pairing.tournament.get_absolute_url()).content.decode()
    assert '<ol class="entrants">' in page
    row = re.search(r'<li data-entrant-row="[^"]*">(.*?)</li>', page, re.S).group(1)
    assert re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", row)).strip().startswith("1 bob")
    assert Entrant.objects.filter(tournament=pairing.tournament, seed=1).count() == 1
