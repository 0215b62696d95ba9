"""The bot ladder: bots' own ratings (people's move only from people's matches
unless a setting says otherwise), the worker's scheduled matches between
willing bots, and the bot leaderboard with the built-in levels as anchors."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from engine.ratings import BOT_RATINGS
from games.models import (
    BotAccount,
    BotRating,
    BotRatingChange,
    Match,
    Presence,
    Rating,
    RatingChange,
    Table,
)
from games.periodic import ladder
from games.periodic.matchmaking import matchmaking_pass
from games.services import botladder, bots, ratings, seating, social
from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db


def _online(*users) -> None:
    now = timezone.now()
    for user in users:
        Presence.objects.create(
            channel_name=f"api.test-{user.pk}", user=user, connected_at=now, last_seen=now
        )


def _willing(user, *variants: str) -> None:
    BotAccount.objects.filter(user=user).update(ladder_variants=list(variants))


def _finish_by_resigning(table: Table, loser) -> Match:
    match = table.matches.get()
    seating.resign(table.pk, loser)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_a_rated_match_between_bots_moves_only_their_ladder_ratings(make_bot) -> None:
    a, _ = make_bot("ada")
    b, _ = make_bot("bea")
    _online(a, b)
    _willing(a, "open_blot")
    _willing(b, "open_blot")
    [table] = botladder.pair_willing(random.Random(1))
    assert table.rated and table.status == Table.Status.PLAYING
    match = _finish_by_resigning(table, b)
    winner_seat = next(p.index for p in match.participants.all() if p.user_id == a.pk)
    assert match.winner == winner_seat % 2
    assert ratings.rate_match(match) == []  # not on the people's line
    assert botladder.rate_unrated() == 1
    assert botladder.rate_unrated() == 0  # once
    after = {r.user_id: r for r in BotRating.objects.filter(variant="open_blot")}
    assert after[a.pk].mu > 1500 > after[b.pk].mu
    assert after[a.pk].matches == after[b.pk].matches == 1
    assert BotRatingChange.objects.filter(match=match).count() == 2
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.parametrize("people_move", [False, True])
def test_a_rated_challenge_from_a_person_moves_the_bot_and_by_setting_the_person(
    make_bot, alice, settings, people_move
) -> None:
    settings.BLOT_BOT_MATCHES_RATE_PEOPLE = people_move
    bot, _ = make_bot("ada")
    challenge = social.create_challenge(
        alice, bot, variant="open_blot", fmt="best_of:1", rated=True
    )
    social.accept(challenge.pk, bot)
    table = Table.objects.get(pk=social.Challenge.objects.get(pk=challenge.pk).table_id)
    match = _finish_by_resigning(table, alice)
    ratings.rate_unrated()  # the people's pass leaves it alone
    assert not RatingChange.objects.exists()
    botladder.rate_unrated()
    assert BotRating.objects.get(user=bot, variant="open_blot").mu > 1500
    moved = RatingChange.objects.filter(match=match, user=alice)
    assert moved.exists() is people_move
    if people_move:
        assert Rating.objects.get(user=alice, variant="open_blot").mu < 1500


def test_a_built_in_partner_counts_at_its_fixed_rating(make_bot) -> None:
    a, _ = make_bot("ada")
    b, _ = make_bot("bea")
    _online(a, b)
    _willing(a, "belote")
    _willing(b, "belote")
    [table] = botladder.pair_willing(random.Random(2))
    seats = {s.index: s for s in table.seats.all()}
    assert {seats[0].user_id, seats[1].user_id} == {a.pk, b.pk}
    assert seats[2].bot_level == seats[3].bot_level == "normal"
    loser = seats[1].user
    _finish_by_resigning(table, loser)
    assert botladder.rate_unrated() == 1
    assert BotRating.objects.filter(variant="belote").count() == 2  # the anchors have none
    assert BotRating.objects.get(user=loser, variant="belote").mu < 1500


def test_only_willing_online_free_bots_are_paired(make_bot) -> None:
    a, _ = make_bot("ada")
    b, _ = make_bot("bea")
    c, _ = make_bot("cal")
    _willing(a, "open_blot")
    _willing(b, "open_blot")
    _online(a)  # b is not online, c is not willing
    _online(c)
    assert botladder.pair_willing() == []
    _online(b)
    [table] = botladder.pair_willing()
    # Seated in a rated match: not paired again until it is over.
    _willing(c, "open_blot")
    assert botladder.willing("open_blot") == [c.pk]
    assert botladder.pair_willing() == []
    assert table.matches.get().participants.filter(bot_account=True).count() == 2


def test_the_worker_pairs_on_its_schedule_only(make_bot, settings) -> None:
    a, _ = make_bot("ada")
    b, _ = make_bot("bea")
    _online(a, b)
    _willing(a, "open_blot")
    _willing(b, "open_blot")
    settings.BLOT_BOT_LADDER_EVERY_S = 0
    assert matchmaking_pass() == 0
    settings.BLOT_BOT_LADDER_EVERY_S = 3600
    assert ladder.due() is True
    assert ladder.due() is False  # one pass per interval, across workers
    settings.BLOT_BOT_LADDER_EVERY_S = 1800  # another interval: due again
    assert matchmaking_pass() == 1
    assert Table.objects.filter(rated=True).count() == 1


def test_the_bot_leaderboard_ranks_bots_among_the_fixed_levels(make_bot, client) -> None:
    a, _ = make_bot("ada")
    b, _ = make_bot("bea")
    make_bot("newcomer")  # no ladder match yet: not listed
    BotRating.objects.create(user=a, variant="belote", mu=1800, sigma=50, shown=1700, matches=9)
    BotRating.objects.create(user=b, variant="belote", mu=1300, sigma=80, shown=1140, matches=3)
    board = botladder.leaderboard("belote")
    # ada 1700 above Hard (1585), bea 1140 below Easy (1319).
    assert BOT_RATINGS["belote"]["easy"] > 1140 and BOT_RATINGS["belote"]["hard"] < 1700
    assert [(row.rank, row.username or row.level) for row in board] == [
        (1, "ada"),
        (None, "hard"),
        (None, "normal"),
        (None, "easy"),
        (2, "bea"),
    ]
    assert board[1].rating == BOT_RATINGS["belote"]["hard"]
    page = client.get("/bots/leaderboard/").content.decode()
    assert page.count("data-bot-leader data-rank") == 2 and page.count("data-bot-anchor") == 3
    assert 'data-rank="1" data-player="ada"' in page
    assert page.count("data-bot-badge") == 2
    assert client.get("/bots/leaderboard/chess/").status_code == 404
    people = client.get("/leaderboard/open-blot/").content.decode()
    assert 'href="/bots/leaderboard/open-blot/" data-bot-leaderboard-link' in people


def test_a_bot_s_page_shows_its_ladder_ratings(make_bot, alice) -> None:
    bot, _ = make_bot("ada")
    BotRating.objects.create(
        user=bot, variant="open_blot", mu=1700, sigma=60, shown=1580, matches=12
    )
    page = client_for(alice).get("/players/ada/").content.decode()
    assert "data-bot-ratings" in page and "1580" in page
    assert bots.is_bot(bot)
