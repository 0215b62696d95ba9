"""Coinche and Belote with announcements on the site: the built-in rule sets on
the create form, Coinche as its own game (quick play, Play now, challenges, its
own rating and leaderboard), the rules page in every language, and the replay of
a coinche deal."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from engine.actions import Action, bid
from games.models import Deal, Presence, Rating, RatingChange, RuleSetConfig, Table
from games.services import pools, social
from games.services.matches import deal_next, finish_deal
from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db

COINCHE_SWITCHES = {"announcements": True, "coinche": True, "all_trump": True, "no_trump": True}


def test_the_two_built_in_rule_sets_are_offered_by_name_on_the_create_form(alice) -> None:
    assert RuleSetConfig.objects.get(name="Coinche").overrides == COINCHE_SWITCHES
    assert RuleSetConfig.objects.get(name="Belote with announcements").overrides == {
        "announcements": True
    }
    page = client_for(alice).get("/tables/new/?variant=belote").content.decode()
    select = re.search(r'<select name="rule_set".*?</select>', page, re.S).group(0)
    assert ">Coinche</option>" in select and ">Belote with announcements</option>" in select
    assert 'href="/rules/coinche/"' in page


def test_a_table_made_with_the_coinche_rule_set_deals_an_auction(alice) -> None:
    from tests.site.test_create_table import _post

    coinche = RuleSetConfig.objects.get(name="Coinche")
    response = _post(client_for(alice), rule_set=coinche.pk, seat_1="easy", seat_2="easy",
                     seat_3="easy")
    table = Table.objects.get()
    assert response.status_code == 302, response.content.decode()[:2000]
    assert table.rules_snapshot == COINCHE_SWITCHES and table.game == "coinche"
    assert table.current_match().rule_set().coinche


@pytest.mark.parametrize(
    ("language", "title", "word"),
    [
        ("en", "How to play Coinche and Belote with announcements", "Surcoinche"),
        ("fr", "Comment jouer à la coinche et à la belote avec annonces", "Surcoinche"),
        ("ru", "Как играть в контру (коинш) и белот с объявлениями", "Реконтра"),  # noqa: RUF001
        ("hy", "Ինչպես խաղալ կուանշ և բելոտ հայտարարություններով", "Սյուրկուանշ"),
        ("ka", "როგორ ვითამაშოთ კუანში და ბელოტი გამოცხადებებით", "სიურკუანში"),
    ],
)
def test_the_coinche_rules_page_is_written_out_in_each_language(
    client, language, title, word
) -> None:
    client.cookies["django_language"] = language
    page = client.get("/rules/coinche/").content.decode()
    assert f"<h1>{title}</h1>" in page
    assert word in page
    # The worked example: 110 made with the belote, then coinched (560) or failed (270).
    for total in ("223", "69", "560", "270"):
        assert f"<b>{total}</b>" in page


def test_quick_play_against_bots_seats_a_coinche_table(alice) -> None:
    response = client_for(alice).post("/play/bots/coinche/", {"bot_level": "easy"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.variant == "belote" and table.rule_set_name == "Coinche"
    assert table.status == Table.Status.PLAYING


def _present(users) -> None:
    for user in users:
        Presence.objects.create(
            channel_name=f"p{user.pk}",
            user=user,
            connected_at=timezone.now() - timedelta(minutes=1),
            last_seen=timezone.now(),
        )


def test_play_now_keeps_a_coinche_pool_apart_from_belote(make_user) -> None:
    coinche = [make_user(f"c{i}") for i in range(4)]
    belote = [make_user(f"b{i}") for i in range(3)]
    _present(coinche + belote)
    for user in coinche:
        pools.join(user, variant="coinche", fmt="first_to:1000", rated=True)
    for user in belote:
        pools.join(user, variant="belote", fmt="first_to:1000", rated=True)
    assert pools.pair_waiting() == 1  # four in Coinche's pool; three in Belote's wait on
    table = Table.objects.get()
    assert table.rule_set_name == "Coinche" and table.rated and table.game == "coinche"
    assert {s.user_id for s in table.seats.all()} == {u.pk for u in coinche}


def _play_out_match(match, seed: int = 5) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        deal = match.deals.filter(status=Deal.Status.PLAYING).first()
        if deal is None:
            return
        engine = deal.rebuild()
        while not engine.is_over:
            engine.apply(rng.choice(engine.legal_actions()))
        deal.actions = [a.to_dict() for a in engine.history]
        deal.save(update_fields=["actions"])
        finish_deal(deal)
        deal_next(match.pk)
    raise AssertionError("match did not finish")


def test_a_rated_coinche_match_moves_the_coinche_rating_only(make_table, make_user) -> None:
    from games.services.tables import join_seat

    people = [make_user(f"p{i}") for i in range(4)]
    coinche = RuleSetConfig.objects.get(name="Coinche")
    table = make_table(people[0], "belote", fmt="best_of:1", rule_set=coinche, rated=True)
    for index in (1, 2, 3):
        join_seat(table.pk, people[index], index)
    for index, user in enumerate(people):
        Presence.objects.create(
            table=table,
            channel_name=f"c{index}",
            user=user,
            seat_index=index,
            connected_at=timezone.now() - timedelta(minutes=1),
            last_seen=timezone.now(),
        )
    match = table.current_match()
    _play_out_match(match)
    assert {c.variant for c in RatingChange.objects.filter(match=match)} == {"coinche"}
    assert Rating.objects.filter(variant="coinche", matches=1).count() == 4
    assert not Rating.objects.filter(variant="belote").exists()
    page = client_for(people[0]).get(f"/players/{people[0].username}/").content.decode()
    assert 'data-variant="coinche"' in page
    board = client_for(people[0]).get("/leaderboard/coinche/")
    assert board.status_code == 200 and 'data-leaderboard="coinche"' in board.content.decode()


def test_a_coinche_challenge_opens_a_coinche_table(alice, bob) -> None:
    challenge = social.create_challenge(alice, bob, variant="coinche", fmt="first_to:1000")
    social.accept(challenge.pk, bob)
    table = Table.objects.get()
    assert table.rule_set_name == "Coinche" and table.variant == "belote"


def test_the_replay_shows_the_auction_and_the_contract(make_table, alice) -> None:
    coinche = RuleSetConfig.objects.get(name="Coinche")
    table = make_table(alice, "belote", rule_set=coinche, others=["easy"] * 3)
    match = table.current_match()
    deal = match.deals.get()
    engine = deal.rebuild()
    first = engine.to_act
    engine.apply(bid(first, 90, 2))
    engine.apply(Action((first + 1) % 4, "coinche"))
    engine.apply(Action((first + 2) % 4, "pass"))
    rng = random.Random(1)
    while not engine.is_over:
        engine.apply(rng.choice(engine.legal_actions()))
    deal.actions = [a.to_dict() for a in engine.history]
    deal.save(update_fields=["actions"])
    finish_deal(deal)
    page = client_for(alice).get(f"/matches/{match.pk}/deals/{deal.number}/replay/?step=3")
    html = page.content.decode()
    assert "data-auction" in html and html.count("data-call=") == 3
    assert 'data-multiplier="2"' in html and "90 ♥ coinched" in html


def test_the_analysis_names_coinche_calls_as_the_table_does() -> None:
    from games.views.analysis import choice_label

    assert choice_label("bid:90:H") == "90 ♥"
    assert choice_label("bid:250:AT") == "Capot All trump"
    assert [choice_label(k) for k in ("coinche", "surcoinche")] == ["Coinche", "Surcoinche"]


def test_quick_play_offers_belote_with_announcements_and_refuses_a_foreign_rule_set(
    alice,
) -> None:
    client = client_for(alice)
    lobby = client.get("/").content.decode()
    announcements = RuleSetConfig.objects.get(name="Belote with announcements")
    assert f'data-play-bots="belote-announcements" name="rule_set" value="{announcements.pk}"' in (
        lobby
    )
    open_blot = RuleSetConfig.objects.get(name="Open Blot (standard)")
    client.post("/play/bots/belote/", {"bot_level": "easy", "rule_set": open_blot.pk})
    assert not Table.objects.exists()  # refused: an Open Blot rule set for Belote
    client.post("/play/bots/belote/", {"bot_level": "easy", "rule_set": announcements.pk})
    table = Table.objects.get()
    assert table.rules_snapshot == {"announcements": True} and table.game == "belote"


@pytest.mark.parametrize(
    ("language", "words"), [("ru", ["контра", "реконтра"]), ("fr", ["coinche", "surcoinche"])]
)
def test_the_score_table_names_a_coinched_deal_in_the_readers_language(language, words) -> None:
    from django.utils import translation

    from games.labels import marker_label

    with translation.override(language):
        assert [marker_label(m) for m in ("coinche", "surcoinche")] == words
