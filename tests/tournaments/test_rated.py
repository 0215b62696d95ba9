"""A rated tournament: its matches between people are rated, those with bots not."""

from __future__ import annotations

from games.models import Match
from games.services import tournaments as svc


def test_a_rated_tournaments_matches_between_people_are_rated(make_tournament, alice, bob):
    tournament = make_tournament(alice, max_entrants=4, rated=True, fill_with_bots="easy")
    svc.register(tournament.pk, alice)
    svc.register(tournament.pk, bob)
    svc.start(tournament.pk, alice)
    matches = list(Match.objects.filter(tournament=tournament).prefetch_related("participants"))
    assert matches
    for match in matches:
        people_only = all(p.user_id is not None for p in match.participants.all())
        assert match.rated == people_only
        assert match.table.rated == people_only


def test_an_unrated_tournament_rates_nothing(make_tournament, alice, bob):
    tournament = make_tournament(alice, max_entrants=4, fill_with_bots="easy")
    svc.register(tournament.pk, alice)
    svc.register(tournament.pk, bob)
    svc.start(tournament.pk, alice)
    assert Match.objects.filter(tournament=tournament).exists()
    assert not Match.objects.filter(tournament=tournament, rated=True).exists()
