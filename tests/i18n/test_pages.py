"""Every main page and the live table, in every language, with no English left.

To cover a new page, add a line to PAGES (a name, how to build its URL from the
scenario, and who looks at it) or a state to LIVE_STATES.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pprint import pformat

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games.labels import table_tip
from games.live.draw.render import render_table
from games.models import Deal, DealAnalysis, Match, Player, Table, Tournament
from games.services import social
from games.services import tournaments as tournament_services
from games.services.matches import deal_next, finish_deal
from games.services.tables import join_seat
from tests.i18n.catalogues import TRANSLATED
from tests.i18n.walker import english_left, visible_texts
from tests.site.conftest import default_rule_set, play_match, play_out

pytestmark = pytest.mark.django_db


@dataclass
class Scenario:
    """One of everything a page can show."""

    waiting: Table  # alice's Belote table, seats open: invite link, seat buttons
    belote: Table  # alice and three bots, deal 2 in play, deal 1 scored
    duel: Table  # Open Blot, alice against bob, deal 2 in play, deal 1 scored
    finished: Match  # a whole Belote match, best of one deal: rematch controls
    between: Table  # alice and three bots, deal 1 scored, deal 2 not dealt yet
    knockout: Tournament  # Open Blot, alice and three bots, bracket in play
    swiss: Tournament  # Open Blot, alice and four bots, standings in play


def _advance(table: Table, plays: int) -> None:
    """Bid until someone takes (never a void deal), then play ``plays`` cards."""
    deal = table.matches.get().deals.get(status=Deal.Status.PLAYING)
    engine = deal.rebuild()
    while engine.phase == "bidding":
        legal = engine.legal_actions()
        engine.apply(next((a for a in legal if a.type != "pass"), legal[0]))
    for _ in range(plays):
        engine.apply(engine.legal_actions()[0])
    deal.actions = [a.to_dict() for a in engine.history]
    deal.save(update_fields=["actions"])


def _second_deal(table: Table, plays: int) -> Table:
    match = table.matches.get()
    first = match.deals.get(number=1)
    finish_deal(play_out(first, random.Random(7)))
    deal_next(match.pk)  # the conductor's job after the pause, at once here
    _advance(table, plays)
    table.refresh_from_db()
    return table


@pytest.fixture
def scenario(make_table, alice, bob) -> Scenario:
    waiting = make_table(alice, "belote")
    belote = _second_deal(make_table(alice, "belote", others=["easy", "normal", "hard"]), 3)
    duel_table = make_table(alice, "open_blot")
    join_seat(duel_table.pk, bob, 1)
    duel = _second_deal(duel_table, 1)
    done = make_table(alice, "belote", fmt="best_of:1", others=["easy", "easy", "easy"])
    finished = done.matches.get()
    play_match(finished, seed=3)
    finished.refresh_from_db()
    between = make_table(alice, "belote", others=["easy", "normal", "hard"])
    finish_deal(play_out(between.matches.get().deals.get(number=1), random.Random(7)))
    between.refresh_from_db()
    # Alice follows bob, who challenges her: the notices show on her every page.
    social.follow(alice, bob)
    social.create_challenge(bob, alice, variant="belote", fmt="first_to:1001", rated=True)
    _analysed(finished.deals.get(number=1))
    return Scenario(
        waiting,
        belote,
        duel,
        finished,
        between,
        _tournament(alice, "knockout", 4),
        _tournament(alice, "swiss", 5, rounds=2),
    )


def _analysed(deal: Deal) -> None:
    """A done analysis of ``deal`` with one of each mark (a card that was also
    best with all cards known, one that was not) and a bid's mark."""
    plays = [i for i, a in enumerate(deal.actions) if a["type"] == "play"]
    bids = [i for i, a in enumerate(deal.actions) if a["type"] != "play"]
    first, second = plays[:2]
    card, other = deal.actions[first]["card"], deal.actions[second]["card"]
    steps = [
        {"step": first, "seat": deal.actions[first]["seat"], "chosen": card,
         "honest": {card: 60.0, "XX": 72.0}, "loss": 12.0, "mark": "inaccuracy",
         "exact": {card: 94, "XX": 94}, "exact_loss": 0},
        {"step": second, "seat": deal.actions[second]["seat"], "chosen": other,
         "honest": {other: 20.0, "YY": 80.0}, "loss": 60.0, "mark": "blunder",
         "exact": {other: 40, "YY": 90}, "exact_loss": 50},
    ]
    if bids:
        b = bids[0]
        steps.append({"step": b, "seat": deal.actions[b]["seat"], "chosen": "pass",
                      "honest": {"pass": 10.0, "take": 40.0}, "loss": 30.0, "mark": "mistake"})
    DealAnalysis.objects.create(
        deal=deal, status="done", total_steps=len(deal.actions), done_steps=len(deal.actions),
        result={"play_unit": "card", "steps": steps, "graph": [[i, 81] for i in plays],
                "accuracy": {"0": 91.5}, "samples": 3},
    )


def _tournament(alice, kind: str, entrants: int, **kw) -> Tournament:
    """A running Open Blot tournament of alice and Easy bots."""
    tournament = tournament_services.create_tournament(
        user=alice,
        name="Cup",
        variant="open_blot",
        kind=kind,
        fmt="best_of:1",
        rule_set=default_rule_set("open_blot"),
        max_entrants=entrants,
        fill_with_bots="easy",
        **kw,
    )
    tournament_services.register(tournament.pk, alice)
    return tournament_services.start(tournament.pk, alice)


Url = Callable[[Scenario], str]
# (name, url, signed in as alice?)
PAGES: list[tuple[str, Url, bool]] = [
    ("lobby", lambda s: reverse("lobby"), False),
    ("lobby signed in", lambda s: reverse("lobby"), True),
    ("sign up", lambda s: reverse("signup"), False),
    ("log in", lambda s: reverse("login"), False),
    ("profile", lambda s: reverse("profile", args=["alice"]), True),
    ("profile edit", lambda s: reverse("profile_edit"), True),
    ("password change", lambda s: reverse("password_change"), True),
    ("create Belote table", lambda s: reverse("table_create") + "?variant=belote", True),
    ("create Open Blot table", lambda s: reverse("table_create") + "?variant=open_blot", True),
    ("table before the start", lambda s: s.waiting.get_absolute_url(), True),
    ("table before the start, visitor", lambda s: s.waiting.get_absolute_url(), False),
    ("Belote table in play", lambda s: s.belote.get_absolute_url(), True),
    ("Open Blot table in play", lambda s: s.duel.get_absolute_url(), True),
    ("match in play", lambda s: s.duel.matches.get().get_absolute_url(), True),
    ("finished match", lambda s: s.finished.get_absolute_url(), True),
    ("finished deal", lambda s: s.finished.deals.first().get_absolute_url(), True),
    ("deal in play", lambda s: s.duel.matches.get().deals.last().get_absolute_url(), False),
    ("how to play Belote", lambda s: reverse("how_to_play", args=["belote"]), False),
    ("how to play Open Blot", lambda s: reverse("how_to_play", args=["open-blot"]), False),
    ("lobby's live tables", lambda s: reverse("lobby_tables"), True),
    ("table between deals", lambda s: s.between.get_absolute_url(), True),
    ("table at match end", lambda s: s.finished.table.get_absolute_url(), True),
    ("leave the match", lambda s: reverse("match_leave", args=[s.belote.pk]), True),
    (
        "rematch",
        lambda s: reverse("match_rematch", args=[s.finished.table_id, s.finished.pk]),
        True,
    ),
    ("tournaments", lambda s: reverse("tournament_list"), False),
    ("tournaments signed in", lambda s: reverse("tournament_list"), True),
    ("create a tournament", lambda s: reverse("tournament_create"), True),
    ("knockout bracket", lambda s: s.knockout.get_absolute_url(), True),
    ("Swiss standings", lambda s: s.swiss.get_absolute_url(), False),
    ("another player's page (follow, challenge)", lambda s: reverse("profile", args=["bob"]), True),
    ("another player's page, signed out", lambda s: reverse("profile", args=["bob"]), False),
    ("people you follow", lambda s: reverse("following"), True),
    ("leaderboard", lambda s: reverse("leaderboard"), True),
    (
        "replay of an analysed deal, at a marked card",
        lambda s: _replay_url(s.finished, "first play"),
        False,
    ),
    (
        "replay of an analysed deal, at a blunder",
        lambda s: _replay_url(s.finished, "second play"),
        True,
    ),
]


def _replay_url(match: Match, which: str) -> str:
    deal = match.deals.get(number=1)
    plays = [i for i, a in enumerate(deal.actions) if a["type"] == "play"]
    step = plays[0] if which == "first play" else plays[1]
    return reverse("deal_replay", args=[match.pk, 1]) + f"?step={step}"

# (name, table, seat: 0 a player, None a spectator)
LIVE_STATES: list[tuple[str, Callable[[Scenario], Table], int | None]] = [
    ("Belote, a player", lambda s: s.belote, 0),
    ("Belote, a spectator", lambda s: s.belote, None),
    ("Open Blot, a player", lambda s: s.duel, 0),
    ("Open Blot, the other player", lambda s: s.duel, 1),
    ("Open Blot, a spectator", lambda s: s.duel, None),
    ("Belote between deals, a player", lambda s: s.between, 0),
    ("Belote between deals, a spectator", lambda s: s.between, None),
    ("Belote at match end, a player", lambda s: s.finished.table, 0),
]


def _client(language: str, signed_in: bool, alice) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if signed_in:
        Player.objects.filter(user=alice).update(language=language)
        client.force_login(alice)
    return client


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_leaves_no_english_on_the_main_pages(language, scenario, alice) -> None:
    left = {}
    for name, url, signed_in in PAGES:
        response = _client(language, signed_in, alice).get(url(scenario))
        assert response.status_code == 200, name
        assert response["Content-Language"] == language, name
        found = english_left(response.content.decode(), language)
        if found:
            left[name] = found
    assert not left, pformat(left)


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_leaves_no_english_on_the_live_table(language, scenario) -> None:
    left = {}
    for name, table, seat in LIVE_STATES:
        with translation.override(language):
            html = render_table(table(scenario), seat)
        found = english_left(html, language)
        if found:
            left[name] = found
    assert not left, pformat(left)


def test_it_finds_english_when_a_page_is_not_translated(scenario) -> None:
    """The walker itself: the same pages in English are full of catalogue texts."""
    with translation.override("en"):
        html = render_table(scenario.belote, 0)
    assert "Score table" in visible_texts(html)
    left = english_left(html, "ru")
    assert "Score table" in left
    assert "Deal 2" in left  # "Deal %(n)s" with its placeholder filled in


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_explains_the_stacks_and_the_proposed_card_in_tooltips(
    language, scenario, make_table, alice
) -> None:
    bidding = make_table(alice, "belote", others=["easy", "easy", "easy"])  # deal 1, bidding
    with translation.override(language):
        stacks = render_table(scenario.duel, 0)
        proposed = render_table(bidding, 0)
        tips = {name: escape(table_tip(name)) for name in ("stacks", "proposed")}
    assert f'title="{tips["stacks"]}"' in stacks
    assert f'title="{tips["proposed"]}"' in proposed


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_leaves_no_english_on_play_now_and_fair_play(
    language, make_table, make_user, alice, bob
) -> None:
    """The waiting status (its reasons and the alternatives), the leaderboard's
    own rank line and an unrated match's page."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import PoolEntry, PoolWait, Rating
    from games.services import pools, seating

    Rating.objects.create(user=alice, variant="open_blot", mu=815, shown=815, matches=3)
    Rating.objects.create(user=bob, variant="open_blot", mu=1900, shown=1900)
    pools.join(alice, variant="open_blot", fmt="first_to:501", rated=True)
    pools.join(bob, variant="open_blot", fmt="first_to:501", rated=True)
    pools.join(make_user("carol"), variant="open_blot", fmt="best_of:3", rated=True)
    PoolEntry.objects.filter(user=alice).update(joined_at=timezone.now() - timedelta(seconds=60))
    PoolWait.objects.create(variant="open_blot", format="first_to:501", rated=True, waited_s=12,
                            at=timezone.now())
    client = _client(language, True, alice)
    with translation.override(language):
        offered = translation.gettext(
            "Nobody suitable has been found yet. You could also play one of these now:"
        )
    assert offered in client.get(reverse("queue_status")).content.decode()
    left = {}
    for name, url in (
        ("lobby, waiting", reverse("lobby")),
        ("waiting status", reverse("queue_status")),
        ("leaderboard, not ranked", reverse("leaderboard_variant", args=["open-blot"])),
    ):
        found = english_left(client.get(url).content.decode(), language)
        if found:
            left[name] = found
    dave, erin = make_user("dave"), make_user("erin")
    table = make_table(dave, "open_blot", fmt="best_of:1", rated=True)
    join_seat(table.pk, erin, 1)
    _advance(table, 20)
    seating.leave(table.pk, dave)
    seating.leave(table.pk, erin)
    match = table.matches.get()
    found = english_left(client.get(match.get_absolute_url()).content.decode(), language)
    if found:
        left["unrated match"] = found
    with translation.override(language):
        found = english_left(render_table(table, None), language)
    if found:
        left["unrated match's table"] = found
    assert "data-unrated" in client.get(match.get_absolute_url()).content.decode()
    assert not left, pformat(left)
