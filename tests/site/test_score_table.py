"""Models: deals rebuilt from their stored actions, and the score table folded
from them through engine.match."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalAction
from engine.match import Match as EngineMatch
from engine.match import MatchFormat
from engine.record import DealRecord
from games.models import Deal, Match, ScoreRow
from games.services import ServiceError
from games.services.matches import deal_next, finish_deal, fold_match
from tests.site.conftest import play_match, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def belote_match(make_table, alice):
    table = make_table(alice, "belote", fmt="first_to:501", others=["easy", "easy", "easy"])
    return table.matches.get()


@pytest.fixture
def blot_match(make_table, alice):
    return make_table(alice, "open_blot", fmt="best_of:5", others=["hard"]).matches.get()


def test_it_rebuilds_a_deal_from_its_stored_actions(belote_match):
    deal = belote_match.deals.get()
    rng = random.Random(7)
    engine_deal = deal.rebuild()
    for _ in range(12):
        engine_deal.apply(rng.choice(engine_deal.legal_actions()))
    deal.actions = [a.to_dict() for a in engine_deal.history]
    deal.save()
    rebuilt = Deal.objects.get(pk=deal.pk).rebuild()
    assert rebuilt.history == engine_deal.history
    assert rebuilt.to_act == engine_deal.to_act
    assert rebuilt.legal_actions() == engine_deal.legal_actions()


def test_it_refuses_to_rebuild_a_bad_action_log(belote_match):
    deal = belote_match.deals.get()
    wrong_seat = (deal.dealer + 2) % 4
    deal.actions = [{"seat": wrong_seat, "type": "pass"}]
    with pytest.raises(IllegalAction):
        deal.rebuild()


def test_it_stores_the_record_format(belote_match):
    deal = belote_match.deals.get()
    record = deal.record()
    assert isinstance(record, DealRecord)
    assert record.to_dict() == deal.record_dict()


@pytest.mark.parametrize("fixture", ["belote_match", "blot_match"])
def test_it_folds_the_deals_into_the_stored_score_table(request, fixture):
    match = request.getfixturevalue(fixture)
    play_match(match, seed=21)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    stored = list(ScoreRow.objects.filter(match=match).order_by("number"))

    # Fold again independently from the stored action logs only.
    folded = EngineMatch(match.variant, MatchFormat.parse(match.format), match.first_dealer)
    for deal in match.deals.order_by("number"):
        folded.add_deal(Deal.objects.get(pk=deal.pk).rebuild().result())

    assert len(stored) == len(folded.rows) == match.deals.count()
    for row, expected in zip(stored, folded.rows, strict=True):
        assert row.number == expected.number
        assert row.dealer == expected.dealer
        assert row.trump == expected.trump
        assert row.taker == expected.taker
        assert row.deal_points == list(expected.deal_points)
        assert row.totals == list(expected.totals)
        assert row.markers == list(expected.markers)
        assert row.deal.dealer == expected.dealer
    assert match.winner == folded.winner
    assert fold_match(match).totals == folded.totals


def test_it_passes_the_deal_to_the_next_seat(belote_match):
    play_match(belote_match, seed=4)
    dealers = list(belote_match.deals.order_by("number").values_list("dealer", flat=True))
    first = belote_match.first_dealer
    assert dealers == [(first + i) % 4 for i in range(len(dealers))]


def test_it_deals_the_next_deal_with_a_fresh_commitment(belote_match):
    first = belote_match.deals.get()
    finish_deal(play_out(first, random.Random(1)))
    belote_match.refresh_from_db()
    if belote_match.status == Match.Status.PLAYING:
        # The finished deal stays on the table until the next one is dealt.
        assert not belote_match.deals.filter(status=Deal.Status.PLAYING).exists()
        second = deal_next(belote_match.pk)
        assert second == belote_match.deals.get(number=2)
        assert deal_next(belote_match.pk) is None  # dealt once only
        assert second.commitment != first.commitment
        assert second.status == Deal.Status.PLAYING


def test_it_refuses_to_finish_a_deal_that_is_not_over(belote_match):
    with pytest.raises(ServiceError):
        finish_deal(belote_match.deals.get())
    assert not ScoreRow.objects.exists()


def test_it_refuses_to_finish_a_deal_twice(belote_match):
    deal = play_out(belote_match.deals.get(), random.Random(3))
    finish_deal(deal)
    with pytest.raises(ServiceError):
        finish_deal(deal)
    assert ScoreRow.objects.count() == 1


def test_it_keeps_void_deals_in_the_score_table(belote_match):
    deal = belote_match.deals.get()
    engine_deal = deal.rebuild()
    while not engine_deal.is_over:
        passes = [a for a in engine_deal.legal_actions() if a.type == "pass"]
        engine_deal.apply(passes[0])
    deal.actions = [a.to_dict() for a in engine_deal.history]
    deal.save()
    row = finish_deal(deal)
    assert row.markers == ["void"]
    assert row.deal_points == [0, 0]
    assert deal_next(belote_match.pk).dealer == (deal.dealer + 1) % 4
