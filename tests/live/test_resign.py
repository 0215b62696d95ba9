"""Ending a match: resigning, a match nobody plays any more, the bot-table limit,
and what the table shows of it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.live.conduct.conductor import act_if_due, next_deal_due
from games.live.draw.render import render_table
from games.live.plan.turns import plan
from games.live.store import presence
from games.live.submit.play import submit
from games.models import Deal, Match, MatchEvent, Presence, Seat, Table
from games.services import ServiceError, seating
from games.services.matches import deal_next_for
from games.services.tables import create_quick_bot_table, join_seat, running_bot_tables
from tests.live.conftest import later, live_of, play_as_holder
from tests.site.conftest import play_match


def bot_match(make_table, user, variant: str = "belote") -> Table:
    others = ["easy"] * ({"belote": 4, "open_blot": 2}[variant] - 1)
    return make_table(user, variant, others=others)


def resigned_events(match: Match) -> list[tuple[int, int, str]]:
    return list(
        match.events.filter(kind=MatchEvent.Kind.RESIGNED).values_list("index", "user_id", "kind")
    )


def test_resigning_a_bot_match_ends_it_at_once_as_the_players_loss(make_table, alice) -> None:
    table = bot_match(make_table, alice)
    match = table.current_match()
    assert seating.resign(table.pk, alice) is True
    match.refresh_from_db()
    table.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner == 1  # alice sits in seat 0: side 0 lost
    assert table.status == Table.Status.FINISHED
    assert resigned_events(match) == [(0, alice.pk, "resigned")]
    # The deal being played is closed without a result (its deck stays secret).
    assert list(match.deals.values_list("status", flat=True)) == [Deal.Status.ABANDONED]
    # Nothing is left for the conductor to play.
    assert not act_if_due(table.pk, now=later())
    # The table still shows the way on: rematch and a new table, and says why.
    html = render_table(table, 0)
    assert 'data-action="rematch"' in html and 'data-action="new-table"' in html
    assert "data-resigned" in html


def test_resigning_twice_changes_nothing_and_leaves_one_event(make_table, alice) -> None:
    table = bot_match(make_table, alice, "open_blot")
    seating.resign(table.pk, alice)
    with pytest.raises(ServiceError):
        seating.resign(table.pk, alice)  # the match is over: nothing to resign
    assert len(resigned_events(table.current_match())) == 1


def test_ended_bot_tables_free_the_limit_at_once(make_table, alice, settings) -> None:
    settings.BLOT_BOT_TABLES_PER_USER = 3
    tables = [create_quick_bot_table(alice, "open_blot") for _ in range(3)]
    with pytest.raises(ServiceError):
        create_quick_bot_table(alice, "open_blot")
    seating.resign(tables[0].pk, alice)  # resigning ends one
    seating.leave(tables[1].pk, alice)  # leaving a bot match: nobody plays it any more
    assert running_bot_tables(alice) == 1
    create_quick_bot_table(alice, "belote")
    create_quick_bot_table(alice, "open_blot")


def test_leaving_a_bot_match_ends_it_as_a_loss_not_a_stand_in_win(make_table, alice) -> None:
    table = bot_match(make_table, alice)
    seating.leave(table.pk, alice)
    match = table.current_match()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 1
    kinds = list(match.events.values_list("kind", flat=True))
    assert kinds == [MatchEvent.Kind.LEFT]


def test_resigning_against_a_person_ends_the_match_for_both(duel, alice, bob) -> None:
    seating.resign(duel.pk, bob)
    match = duel.current_match()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 0
    assert resigned_events(match) == [(1, bob.pk, "resigned")]


@pytest.fixture
def partners(make_table, alice, carol) -> Table:
    """Belote: alice (seat 0) and carol (seat 2) against two bots."""
    table = make_table(alice, "belote", others=["easy", "open", "easy"])
    join_seat(table.pk, carol, 2)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table


def test_a_partner_plays_on_and_the_resigning_side_loses_at_the_end(partners, alice, carol):
    seating.resign(partners.pk, alice)
    match = partners.current_match()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING  # carol plays on beside a stand-in
    seat = Seat.objects.get(table=partners, user=alice)
    assert seat.left_at is not None
    with pytest.raises(ServiceError):
        seating.return_to_seat(partners.pk, alice)  # a resignation is not a pause
    html = render_table(partners, 2)
    assert "data-resigned" in html
    assert 'data-seat-place="0" data-stand-in' in html
    play_match(match, seed=3)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner == 1, "the side that resigned lost, whatever the score"


def test_the_partner_leaving_too_ends_the_match(partners, alice, carol) -> None:
    seating.resign(partners.pk, alice)
    seating.leave(partners.pk, carol)
    match = partners.current_match()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 1


def test_the_conductor_ends_a_bot_match_whose_player_went_away(make_table, alice) -> None:
    """Closing the tab: once the grace is over, the stand-in does not play the
    match out for them; the match ends and no longer counts as running."""
    table = bot_match(make_table, alice, "open_blot")
    presence.opened(table.pk, "ch", alice.pk, 0)
    presence.closed(table.pk, "ch")
    gone = timezone.now() - timedelta(seconds=table.disconnect_grace_seconds + 5)
    Presence.objects.filter(table=table).update(last_seen=gone, closed_at=gone)
    Table.objects.filter(pk=table.pk).update(turn_started_at=gone)
    for _ in range(4):  # the bot may have to act first
        if live_of(table).engine.to_act == 0:
            break
        act_if_due(table.pk, now=later())
    act_if_due(table.pk, now=later())
    match = table.current_match()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 1
    assert list(match.events.values_list("kind", flat=True)) == [MatchEvent.Kind.LEFT]
    assert running_bot_tables(alice) == 0


def test_a_stale_heartbeat_does_not_end_the_match(make_table, alice) -> None:
    """After a database outage every heartbeat is stale: a stand-in may play for
    the person, but the match is not ended, as only a closed connection proves
    they went."""
    table = bot_match(make_table, alice, "open_blot")
    presence.opened(table.pk, "ch", alice.pk, 0)
    gone = timezone.now() - timedelta(seconds=table.disconnect_grace_seconds + 5)
    Presence.objects.filter(table=table).update(last_seen=gone)  # open, not heard from
    Table.objects.filter(pk=table.pk).update(turn_started_at=gone)
    for _ in range(4):
        act_if_due(table.pk, now=later())
    match = table.current_match()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert not match.events.exists()


def test_a_timed_out_seat_is_marked_and_played_at_bot_time_until_taken_back(duel, alice, bob):
    presence.opened(duel.pk, "a", alice.pk, 0)
    presence.opened(duel.pk, "b", bob.pk, 1)
    seat = live_of(duel).engine.to_act
    person = (alice, bob)[seat]
    assert act_if_due(duel.pk, now=later(duel.turn_seconds + 1))  # the clock ran out
    marked = Seat.objects.get(table=duel, index=seat)
    assert marked.stand_in_since is not None and marked.left_at is None
    mine, theirs = render_table(duel, seat), render_table(duel, None)
    assert f'data-seat-place="{seat}" data-stand-in' in theirs  # spectators see it too
    assert "Time ran out — a bot played for you" in mine
    assert "Time ran out — a bot is playing" in theirs
    # Taking the seat back (the table's Return button) ends it.
    assert seating.return_to_seat(duel.pk, person) is True
    marked.refresh_from_db()
    assert marked.stand_in_since is None
    assert not MatchEvent.objects.filter(match=duel.current_match()).exists()


def test_a_stand_in_seat_runs_the_stand_ins_clock_not_the_persons(duel) -> None:
    live = live_of(duel)
    seat = live.engine.to_act
    Seat.objects.filter(table=duel, index=seat).update(stand_in_since=timezone.now())
    live = live_of(duel)
    step = plan(live, timezone.now())
    assert step.level == "normal" and step.stand_in
    assert step.at == live.deal.started_at + timedelta(milliseconds=duel.bot_delay_ms)
    assert "data-countdown" not in render_table(duel, None)


def test_a_person_playing_their_own_card_takes_the_seat_back(duel, alice, bob) -> None:
    live = live_of(duel)
    seat = live.engine.to_act
    Seat.objects.filter(table=duel, index=seat).update(stand_in_since=timezone.now())
    play_as_holder(duel.pk, live.engine.legal_actions()[0], live.table.version)
    assert Seat.objects.get(table=duel, index=seat).stand_in_since is None


def _finish_first_deal(table: Table) -> Deal:
    while (live := live_of(table)) is not None:
        submit(table.pk, live.engine.legal_actions()[-1], live.table.version, by_server=True)
    return table.current_match().deals.get(number=1)


def test_the_result_waits_for_a_player_alone_with_bots(make_table, alice, bob, settings):
    settings.BLOT_NEXT_DEAL_PAUSE_MS = 300
    table = bot_match(make_table, alice, "open_blot")
    first = _finish_first_deal(table)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # no deal reaches 501 alone
    # Not after the short pause: until they press Next deal or their clock runs out.
    assert next_deal_due(table) == first.finished_at + timedelta(seconds=table.turn_seconds)
    html = render_table(table, 0)
    assert 'data-action="next-deal"' in html and "data-deal-result" in html
    assert 'data-action="next-deal"' not in render_table(table, None)  # spectators wait
    with pytest.raises(ServiceError):
        deal_next_for(table.pk, bob)  # not theirs
    assert deal_next_for(table.pk, alice) is True
    assert deal_next_for(table.pk, alice) is False  # pressing twice deals once
    assert table.current_match().deals.filter(number=2, status=Deal.Status.PLAYING).exists()


def test_a_table_of_people_shares_the_tables_pause(duel, alice, settings) -> None:
    settings.BLOT_NEXT_DEAL_PAUSE_MS = 300
    Table.objects.filter(pk=duel.pk).update(result_pause_seconds=12)
    first = _finish_first_deal(duel)
    duel.refresh_from_db()
    assert next_deal_due(duel) == first.finished_at + timedelta(seconds=12)
    with pytest.raises(ServiceError):
        deal_next_for(duel.pk, alice)  # one person cannot cut the others' pause
    assert 'data-action="next-deal"' not in render_table(duel, 0)
    assert "Next deal in" in render_table(duel, 0)
