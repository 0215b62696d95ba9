"""Rated means people decided it, and a second account cannot farm a rating
(docs/DECISIONS.md P-20, P-21): matches stand-ins decided, matches ended before
half a deal and opponents past the day's meetings move no rating; staff see
shared addresses and browsers."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import (
    AccessMark,
    FairPlaySignal,
    Presence,
    Rating,
    RatingChange,
    UnratedMatch,
)
from games.services import fairplay, ratings, seating, social
from games.services.matches import deal_next, finish_deal
from tests.site.conftest import PASSWORD, client_for, play_out

# The match is best of 1 (one deal): the farm's matches stay short.
FMT = "best_of:1"


def connect(table, index, user, start, end=None):
    """The seat's person had the table open from ``start`` (to ``end``)."""
    return Presence.objects.create(
        table=table,
        channel_name=f"t{table.pk}-{index}-{Presence.objects.count()}",
        user=user,
        seat_index=index,
        connected_at=start,
        last_seen=end or timezone.now(),
        closed_at=end,
    )


def rated_open_blot(make_table, alice, bob, present=True):
    from games.services.tables import join_seat

    table = make_table(alice, variant="open_blot", fmt=FMT, rated=True)
    join_seat(table.pk, bob, 1)
    if present:
        for index, user in ((0, alice), (1, bob)):
            connect(table, index, user, timezone.now() - timedelta(minutes=1))
    return table.current_match()


def play_to_the_end(match, seed=1):
    rng = random.Random(seed)
    while (deal := match.deals.filter(status="playing").first()) is not None:
        finish_deal(play_out(deal, rng))
        deal_next(match.pk)


def play_cards(match, cards, seed=1):
    """Play legal actions of the open deal until ``cards`` cards have been played
    (someone takes at the first chance, so the deal is not thrown in), and store
    them; returns the cards played."""
    deal = match.deals.get(status="playing")
    engine = deal.rebuild()
    rng = random.Random(seed)
    played = 0
    while played < cards and not engine.is_over:
        legal = engine.legal_actions()
        bids = [a for a in legal if a.type in ("take", "choose")]
        action = bids[0] if bids else rng.choice(legal)
        engine.apply(action)
        played += action.type == "play"
    deal.actions = [a.to_dict() for a in engine.history]
    deal.save(update_fields=["actions"])
    return played


def test_a_match_both_sides_abandoned_to_stand_ins_moves_no_rating(make_table, alice, bob):
    match = rated_open_blot(make_table, alice, bob)
    play_cards(match, 20)
    # Both leave mid-deal: stand-ins would finish it; the match ends (P-12).
    seating.leave(match.table_id, alice)
    seating.leave(match.table_id, bob)
    match.refresh_from_db()
    assert match.status == "finished"
    assert not RatingChange.objects.exists()
    assert UnratedMatch.objects.get(match=match).reason == "stand-ins"
    assert not Rating.objects.filter(matches__gt=0).exists()
    page = client_for(alice).get(match.get_absolute_url()).content.decode()
    assert "data-unrated=\"stand-ins\"" in page
    assert "This match was not rated: both sides left it to stand-ins." in page
    # Asking again (the conductor's pass) changes nothing.
    assert ratings.rate_unrated() == 0 and not RatingChange.objects.exists()


def test_both_sides_away_for_deals_is_unrated_and_one_side_away_forfeits(
    make_table, alice, bob
):
    match = rated_open_blot(make_table, alice, bob, present=False)
    play_to_the_end(match)
    # Nobody had the table open: stand-ins played it all.
    assert UnratedMatch.objects.get(match=match).reason == "stand-ins"
    assert not RatingChange.objects.exists()


def test_a_side_away_for_most_of_the_match_forfeits_it(make_table, alice, bob):
    match = rated_open_blot(make_table, alice, bob, present=False)
    start = match.started_at
    connect(match.table, 1, bob, start - timedelta(seconds=5))  # there throughout
    play_to_the_end(match)
    match.refresh_from_db()
    RatingChange.objects.all().delete()
    UnratedMatch.objects.all().delete()
    # Alice was there at the start of the (only) deal, then closed her page for
    # good: never away for a whole deal, but away for most of the match.
    duration = match.finished_at - start
    connect(match.table, 0, alice, start - timedelta(seconds=5), start + duration * 0.3)
    ratings.rate_match(match)
    assert RatingChange.objects.get(match=match, user=alice).forfeit == "away"
    assert RatingChange.objects.get(match=match, user=bob).won
    # Away for less than half: the score decides.
    RatingChange.objects.all().delete()
    connect(match.table, 0, alice, start + duration * 0.6, None)
    ratings.rate_match(match)
    assert RatingChange.objects.get(match=match, user=alice).forfeit == ""


def test_a_match_resigned_after_half_a_deal_is_rated_for_the_resigner_to_lose(
    make_table, alice, bob
):
    match = rated_open_blot(make_table, alice, bob)
    assert play_cards(match, 20) == 20 >= fairplay.MIN_CARDS
    seating.resign(match.table_id, bob)
    change = RatingChange.objects.get(match=match, user=bob)
    assert not change.won and change.forfeit == "resigned"


def farm(farmer, alt, make_table, matches, cards=0):
    """``matches`` rated challenges from ``farmer`` that ``alt`` accepts and
    resigns after ``cards`` actions."""
    for i in range(matches):
        challenge = social.create_challenge(
            farmer, alt, variant="open_blot", fmt=FMT, rated=True
        )
        social.accept(challenge.pk, alt)
        challenge.refresh_from_db()
        match = challenge.table.current_match()
        for index, user in enumerate(p.user for p in match.participants.order_by("index")):
            connect(match.table, index, user, timezone.now() - timedelta(seconds=1))
        if cards:
            play_cards(match, cards, seed=i)
        seating.resign(match.table_id, alt)


def test_a_farm_of_instant_resignations_moves_no_rating_and_staff_see_it(
    make_user, make_table
):
    farmer, alt = make_user("farmer"), make_user("alt")
    others = [make_user(f"regular{i}") for i in range(2)]
    now = timezone.now()
    for i, user in enumerate(others):  # an honest leaderboard to climb
        Rating.objects.create(
            user=user, variant="open_blot", mu=1550 + i, shown=1550 + i, matches=12,
            last_played=now,
        )
    farm(farmer, alt, make_table, 12)
    assert not RatingChange.objects.filter(user__in=[farmer, alt]).exists()
    assert UnratedMatch.objects.filter(reason="early").count() == 12
    board = ratings.leaderboard("open_blot")
    assert [row.username for row in board] == ["regular1", "regular0"]
    assert ratings.standing(farmer, "open_blot").rank is None
    early = FairPlaySignal.objects.filter(kind="early")
    assert early.count() == 12
    assert set(early.first().people.values_list("username", flat=True)) == {"farmer", "alt"}


def test_a_farm_that_plays_half_a_deal_first_counts_three_times_a_day(
    make_user, make_table
):
    farmer, alt = make_user("farmer"), make_user("alt")
    farm(farmer, alt, make_table, 12, cards=20)
    won = RatingChange.objects.filter(user=farmer)
    assert won.count() == fairplay.DAILY_MEETINGS == 3
    assert all(c.won for c in won)
    assert UnratedMatch.objects.filter(reason="repeated").count() == 9
    assert FairPlaySignal.objects.filter(kind="repeated").count() == 9
    rating = Rating.objects.get(user=farmer, variant="open_blot")
    assert rating.matches == 3 and rating.provisional  # far from the leaderboard
    assert ratings.standing(farmer, "open_blot").rank is None
    # A day later they count again (three more).
    RatingChange.objects.update(at=timezone.now() - timedelta(hours=25))
    farm(farmer, alt, make_table, 4, cards=20)
    assert RatingChange.objects.filter(user=farmer).count() == 6


def test_opponents_who_logged_in_from_one_address_are_shown_to_staff(
    make_user, make_table, client
):
    farmer, alt = make_user("farmer"), make_user("alt")
    for user in (farmer, alt):
        browser = type(client)(REMOTE_ADDR="203.0.113.7")
        response = browser.post(
            "/accounts/login/", {"username": user.username, "password": PASSWORD}
        )
        assert response.status_code == 302
        # A browser without one is given its id cookie at login.
        assert fairplay.DEVICE_COOKIE in response.cookies
    marks = AccessMark.objects.filter(kind="address")
    assert marks.count() == 2 and len({m.digest for m in marks}) == 1
    assert "203.0.113.7" not in {m.digest for m in marks}  # a keyed digest, not the address
    farm(farmer, alt, make_table, 1, cards=20)
    shared = FairPlaySignal.objects.get(kind="shared-address")
    assert set(shared.people.values_list("username", flat=True)) == {"farmer", "alt"}
    assert not FairPlaySignal.objects.filter(kind="shared-device").exists()


def test_one_browser_for_two_accounts_is_shown_to_staff(make_user, make_table, client):
    farmer, alt = make_user("farmer"), make_user("alt")
    for user in (farmer, alt):
        client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
        client.post("/accounts/logout/")
    assert len(set(AccessMark.objects.filter(kind="device").values_list("digest", flat=True))) == 1
    farm(farmer, alt, make_table, 1, cards=20)
    assert FairPlaySignal.objects.filter(kind="shared-device").exists()


def test_staff_list_the_signals_in_the_admin(make_user, make_table):
    farmer, alt = make_user("farmer"), make_user("alt")
    farm(farmer, alt, make_table, 1)
    staff = make_user("staff", is_staff=True, is_superuser=True)
    page = client_for(staff).get("/admin/games/fairplaysignal/").content.decode()
    assert "rated match ended before enough cards were played" in page
    assert client_for(staff).get("/admin/games/unratedmatch/").status_code == 200


@pytest.mark.parametrize("resigned_at_once", [True, False])
def test_the_table_says_why_a_rated_match_was_not_rated(make_table, alice, bob, resigned_at_once):
    match = rated_open_blot(make_table, alice, bob)
    if not resigned_at_once:
        play_cards(match, 20)
    seating.resign(match.table_id, bob)
    page = client_for(alice).get(match.table.get_absolute_url()).content.decode()
    if resigned_at_once:
        assert "This match was not rated: it ended before half a deal was played." in page
    else:
        assert 'data-rating-change data-player="alice"' in page
