"""Ratings: changed only by rated matches, fair play, pages that show them."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, MatchEvent, Presence, Rating, RatingChange, UnratedMatch
from games.services import ServiceError
from games.services.ratings import rate_match, rate_unrated
from tests.site.conftest import client_for, default_rule_set, play_match


def rated_match(make_table, alice, bob, rated=True, present=True):
    from games.services.tables import join_seat

    table = make_table(alice, variant="open_blot", fmt="best_of:1", rated=rated)
    join_seat(table.pk, bob, 1)
    match = table.current_match()
    if present:  # both connected to the table throughout
        for index, user in ((0, alice), (1, bob)):
            Presence.objects.create(
                table=table,
                channel_name=f"c{index}",
                user=user,
                seat_index=index,
                connected_at=timezone.now() - timedelta(minutes=1),
                last_seen=timezone.now(),
            )
    return match


def forget_rating(match):
    """As if ``match`` had never been rated (to rate it again under other facts)."""
    RatingChange.objects.filter(match=match).delete()
    UnratedMatch.objects.filter(match=match).delete()


def winner_and_loser(match, alice, bob):
    match.refresh_from_db()
    users = {0: alice, 1: bob}
    return users[match.winner], users[1 - match.winner]


def test_a_rated_match_moves_both_ratings_once(make_table, alice, bob):
    match = rated_match(make_table, alice, bob)
    play_match(match)
    win, lose = winner_and_loser(match, alice, bob)
    up = RatingChange.objects.get(match=match, user=win)
    down = RatingChange.objects.get(match=match, user=lose)
    assert up.delta > 0 > down.delta and up.won and not down.won
    assert Rating.objects.get(user=win, variant="open_blot").matches == 1
    # Asking again changes nothing.
    assert rate_match(Match.objects.get(pk=match.pk)) == []
    assert rate_unrated() == 0
    assert RatingChange.objects.count() == 2


def test_a_casual_match_changes_no_rating(make_table, alice, bob):
    match = rated_match(make_table, alice, bob, rated=False)
    play_match(match)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_rated_table_has_no_bots(make_table, alice):
    with pytest.raises(ServiceError):
        make_table(alice, variant="open_blot", others=["normal"], rated=True)


def test_resigning_loses_the_rated_match_whatever_the_score(make_table, alice, bob):
    match = rated_match(make_table, alice, bob)
    play_match(match)
    win, lose = winner_and_loser(match, alice, bob)
    forget_rating(match)
    Rating.objects.all().delete()
    # The match's winner had resigned: they lose it.
    index = 0 if win == alice else 1
    MatchEvent.objects.create(match=match, index=index, user=win, kind="resigned")
    rate_match(match)
    change = RatingChange.objects.get(match=match, user=win)
    assert not change.won and change.delta < 0 and change.forfeit == "resigned"
    assert RatingChange.objects.get(match=match, user=lose).won
    page = client_for(alice).get(match.get_absolute_url()).content.decode()
    assert 'data-forfeit="resigned">lost by resigning<' in page


def test_leaving_without_coming_back_loses_but_returning_does_not(make_table, alice, bob):
    match = rated_match(make_table, alice, bob)
    play_match(match)
    win, _lose = winner_and_loser(match, alice, bob)
    index = 0 if win == alice else 1
    forget_rating(match)
    MatchEvent.objects.create(match=match, index=index, user=win, kind="left")
    MatchEvent.objects.create(match=match, index=index, user=win, kind="returned")
    rate_match(match)
    assert RatingChange.objects.get(match=match, user=win).won
    forget_rating(match)
    MatchEvent.objects.create(match=match, index=index, user=win, kind="left")
    rate_match(match)
    assert RatingChange.objects.get(match=match, user=win).forfeit == "left"


def test_leaving_for_a_whole_deal_loses_even_after_coming_back(make_table, alice, bob):
    match = rated_match(make_table, alice, bob)
    play_match(match)
    win, _lose = winner_and_loser(match, alice, bob)
    index = 0 if win == alice else 1
    deal = match.deals.get()
    forget_rating(match)
    MatchEvent.objects.create(
        match=match, index=index, user=win, kind="left", at=deal.started_at - timedelta(seconds=1)
    )
    MatchEvent.objects.create(
        match=match, index=index, user=win, kind="returned", at=deal.finished_at
    )
    rate_match(match)
    assert RatingChange.objects.get(match=match, user=win).forfeit == "left"


def test_away_a_whole_deal_loses_but_a_connection_the_server_lost_does_not(
    make_table, alice, bob
):
    match = rated_match(make_table, alice, bob, present=False)
    play_match(match)
    win, _lose = winner_and_loser(match, alice, bob)
    index = 0 if win == alice else 1
    deal = match.deals.get()
    other = 1 - index
    # The other player was there all along; the winner closed their page before the deal.
    Presence.objects.create(
        table=match.table, channel_name="o", user=bob if other else alice, seat_index=other,
        connected_at=deal.started_at - timedelta(seconds=5), last_seen=deal.finished_at,
    )
    gone = Presence.objects.create(
        table=match.table, channel_name="w", user=win, seat_index=index,
        connected_at=deal.started_at - timedelta(minutes=5),
        last_seen=deal.started_at - timedelta(minutes=4),
        closed_at=deal.started_at - timedelta(minutes=4),
    )
    forget_rating(match)
    rate_match(match)
    assert RatingChange.objects.get(match=match, user=win).forfeit == "away"
    # A connection that never said it closed (a crashed server): present.
    gone.closed_at = None
    gone.save()
    forget_rating(match)
    rate_match(match)
    assert RatingChange.objects.get(match=match, user=win).won


def test_the_pass_rates_a_match_finished_another_way_and_redraws_its_table(
    make_table, alice, bob, django_capture_on_commit_callbacks
):
    from games.services.changes import table_changed

    match = rated_match(make_table, alice, bob)
    play_match(match)
    forget_rating(match)
    told = []

    def receive(sender, table_id, version, **kwargs):
        told.append((table_id, version))

    table_changed.connect(receive)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert rate_unrated() == 1
    finally:
        table_changed.disconnect(receive)
    assert RatingChange.objects.filter(match=match).count() == 2
    match.table.refresh_from_db()
    assert told == [(match.table_id, match.table.version)]


def test_the_table_and_the_match_page_show_each_change(make_table, alice, bob):
    match = rated_match(make_table, alice, bob)
    play_match(match)
    win, _lose = winner_and_loser(match, alice, bob)
    change = RatingChange.objects.get(match=match, user=win)
    client = client_for(alice)
    table_page = client.get(match.table.get_absolute_url()).content.decode()
    assert 'data-rated="1"' in table_page
    for page in (table_page, client.get(match.get_absolute_url()).content.decode()):
        assert f'data-rating-change data-player="{win.username}">+{change.delta}<' in page


def test_the_player_page_shows_each_variants_rating_with_its_graph(make_table, alice, bob):
    page = client_for(alice).get("/players/alice/").content.decode()
    assert 'data-rating data-variant="belote"' in page and ">1500?<" in page
    match = rated_match(make_table, alice, bob)
    play_match(match)
    rating = Rating.objects.get(user=alice, variant="open_blot")
    page = client_for(bob).get("/players/alice/").content.decode()
    assert 'data-variant="open_blot" data-provisional' in page
    assert f">{rating.shown}?<" in page
    assert 'data-rating-graph="open_blot"' in page
    assert 'id="stat-lost"' in page


def test_the_leaderboard_lists_established_active_players_and_your_rank(alice, bob, carol):
    now = timezone.now()
    Rating.objects.create(user=alice, variant="belote", shown=1600, matches=12, last_played=now)
    Rating.objects.create(user=bob, variant="belote", shown=1700, matches=30, last_played=now)
    Rating.objects.create(user=carol, variant="belote", shown=1900, matches=3, last_played=now)
    page = client_for(alice).get("/leaderboard/belote/").content.decode()
    assert 'data-leader data-rank="1" data-player="bob"' in page
    assert 'data-leader data-rank="2" data-player="alice"' in page
    assert 'data-player="carol"' not in page  # still provisional
    assert 'data-own-rank="2"' in page
    assert 'data-nav="leaderboard"' in page
    # The bots on the same scale, placed among the people by rating.
    rows = re.findall(r'<tr (?:class="bot-row" )?data-(leader|bot-rating)[^>]*?(?:data-player|'
                      r'data-level)="(\w+)"', page)
    # Belote's bots: Hard 1585, Normal 1500, Easy 1319 (engine.ratings.BOT_RATINGS).
    assert rows == [("leader", "bob"), ("leader", "alice"), ("bot-rating", "hard"),
                    ("bot-rating", "normal"), ("bot-rating", "easy")]
    assert 'data-bot-rating="normal" data-level="normal"' in page
    assert "a new player starts at 1500?, level with the Normal bot" in page
    stale = now - timedelta(days=31)
    Rating.objects.filter(user=bob).update(last_played=stale)
    page = client_for(alice).get("/leaderboard/belote/").content.decode()
    assert 'data-rank="1" data-player="alice"' in page
    assert client_for(alice).get("/leaderboard/chess/").status_code == 404


def test_a_rated_table_is_made_by_hand_from_the_create_form(alice):
    from games.models import Table

    client = client_for(alice)
    response = client.post(
        "/tables/new/?variant=open_blot",
        {
            "variant": "open_blot",
            "format": "best_of:1",
            "rule_set": default_rule_set("open_blot").pk,
            "seat_1": "open",
            "rated": "on",
        },
    )
    assert response.status_code == 302
    assert Table.objects.get().rated
    response = client.post(
        "/tables/new/?variant=open_blot",
        {
            "variant": "open_blot",
            "format": "best_of:1",
            "rule_set": default_rule_set("open_blot").pk,
            "seat_1": "normal",
            "rated": "on",
        },
    )
    assert "A rated table is for people only" in response.content.decode()
    assert Table.objects.count() == 1


def test_the_lobby_marks_rated_tables(make_table, alice, bob):
    rated = make_table(alice, variant="open_blot", rated=True)
    make_table(bob, variant="open_blot")
    page = client_for(alice).get("/lobby/tables/").content.decode()
    assert page.count("data-rated-badge") == 1
    assert f'data-table="{rated.pk}"' in page


def test_staff_see_ratings_and_the_pools_in_the_admin(make_user, make_table, alice, bob):
    from games.services import pools

    staff = make_user("root", is_staff=True, is_superuser=True)
    match = rated_match(make_table, alice, bob)
    play_match(match)
    pools.join(alice, variant="belote", fmt="best_of:1", rated=False)
    client = client_for(staff)
    for path in ("rating", "ratingchange", "poolentry"):
        response = client.get(f"/admin/games/{path}/")
        assert response.status_code == 200
        assert "alice" in response.content.decode()
    assert client.get("/admin/games/rating/add/").status_code == 403


def test_a_new_players_number_agrees_on_every_page(make_table, alice, bob):
    """The leaderboard's sentence, the player page, the table (seats, for
    players and spectators), the lobby's list and the match page all show a new
    player as 1500?, level with the Normal bot."""
    from games.services.tables import join_seat

    table = make_table(alice, variant="open_blot", fmt="best_of:1", rated=True)
    waiting = client_for(bob).get(table.get_absolute_url()).content.decode()
    assert 'data-seat-rating="1500?"' in waiting  # the waiting room
    join_seat(table.pk, bob, 1)
    match = table.current_match()
    Rating.objects.create(user=bob, variant="open_blot", mu=1612.4, shown=1612, matches=14)
    leaderboard = client_for(alice).get("/leaderboard/open-blot/").content.decode()
    assert "a new player starts at 1500?, level with the Normal bot" in leaderboard
    profile = client_for(bob).get("/players/alice/").content.decode()
    assert 'data-variant="open_blot" data-provisional' in profile and ">1500?<" in profile
    for viewer in (alice, bob, None):  # both players and a spectator
        client = client_for(viewer) if viewer else type(client_for(alice))()
        page = client.get(table.get_absolute_url()).content.decode()
        seats = dict(re.findall(r'data-seat-place="(\d)".*?data-seat-rating="([^"]+)"', page, re.S))
        assert seats == {"0": "1500?", "1": "1612"}
    lobby = client_for(bob).get("/lobby/tables/").content.decode()
    assert 'data-seat-rating="1500?">1500?<' in lobby and 'data-seat-rating="1612">1612<' in lobby
    running = client_for(bob).get(match.get_absolute_url()).content.decode()
    assert 'data-player-rating="alice"' in running and ">1500?<" in running
    for index, user in ((0, alice), (1, bob)):  # both at the table throughout
        Presence.objects.create(
            table=table, channel_name=f"c{index}", user=user, seat_index=index,
            connected_at=match.started_at, last_seen=timezone.now(),
        )
    play_match(match)
    match_page = client_for(bob).get(match.get_absolute_url()).content.decode()
    change = RatingChange.objects.get(match=match, user=alice)
    assert f"(now {change.shown_after}?)" in match_page  # still provisional: the "?" too
    table_page = client_for(alice).get(table.get_absolute_url()).content.decode()
    assert f"now {change.shown_after}?" in table_page
    # The seat shows the rating the match's end has just moved, "?" and all.
    assert f'data-seat-rating="{change.label_after}"' in table_page
