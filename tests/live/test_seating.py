"""Leaving a running match, coming back, rematches: services and the conductor."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.live.conduct.conductor import act_if_due
from games.live.deliver import notify
from games.live.plan.turns import plan
from games.live.store import presence
from games.live.submit.play import Refused
from games.models import Match, MatchEvent, Participant, Presence, Rematch, Seat, Table
from games.services import ServiceError, seating
from tests.live.conftest import live_of, play_as_holder
from tests.site.conftest import play_match


def seat_of(table: Table, user) -> Seat:
    return Seat.objects.get(table=table, user=user)


def version(table: Table) -> int:
    table.refresh_from_db(fields=["version"])
    return table.version


def finish(table: Table) -> Match:
    match = table.current_match()
    play_match(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


# --- leave and return -------------------------------------------------------------------------


def test_it_hands_a_left_seat_to_a_stand_in_and_records_who_left(duel, alice) -> None:
    before = version(duel)
    assert seating.leave(duel.pk, alice) is True
    seat = seat_of(duel, alice)
    assert seat.left_at is not None
    assert seat.user == alice  # still theirs: they may come back
    assert version(duel) == before + 1
    event = MatchEvent.objects.get(match=duel.current_match())
    assert (event.index, event.user, event.kind, event.deal_number) == (
        seat.index,
        alice,
        MatchEvent.Kind.LEFT,
        1,
    )


def test_it_tells_the_viewers_after_commit(
    duel, alice, monkeypatch, django_capture_on_commit_callbacks
):
    told = []
    monkeypatch.setattr(
        notify, "table_changed", lambda table_id, v, events=None: told.append((table_id, v))
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        seating.leave(duel.pk, alice)
    assert told == []  # nothing before commit
    for callback in callbacks:
        callback()
    assert told == [(duel.pk, version(duel))]


def test_it_changes_nothing_when_someone_leaves_twice(duel, alice) -> None:
    seating.leave(duel.pk, alice)
    before = version(duel)
    assert seating.leave(duel.pk, alice) is False
    assert version(duel) == before
    assert MatchEvent.objects.count() == 1


def test_it_refuses_to_let_someone_without_a_seat_leave_or_return(duel, carol) -> None:
    before = version(duel)
    for action in (seating.leave, seating.return_to_seat):
        with pytest.raises(ServiceError, match="You have no seat at this table"):
            action(duel.pk, carol)
    assert version(duel) == before
    assert not MatchEvent.objects.exists()


def test_it_refuses_to_leave_a_table_whose_match_has_not_started(make_table, alice) -> None:
    table = make_table(alice, "open_blot")
    with pytest.raises(ServiceError, match="No match is being played at this table"):
        seating.leave(table.pk, alice)
    assert seat_of(table, alice).left_at is None


def test_it_refuses_to_leave_a_finished_match(duel, alice) -> None:
    finish(duel)
    with pytest.raises(ServiceError, match="No match is being played"):
        seating.leave(duel.pk, alice)


def test_it_gives_the_seat_back_to_the_person_who_returns(duel, alice) -> None:
    seating.leave(duel.pk, alice)
    before = version(duel)
    assert seating.return_to_seat(duel.pk, alice) is True
    seat = seat_of(duel, alice)
    assert seat.left_at is None and seat.returned_at is not None
    assert version(duel) == before + 1
    kinds = list(MatchEvent.objects.values_list("kind", flat=True))
    assert kinds == [MatchEvent.Kind.LEFT, MatchEvent.Kind.RETURNED]


def test_it_changes_nothing_when_someone_who_never_left_returns(duel, bob) -> None:
    before = version(duel)
    assert seating.return_to_seat(duel.pk, bob) is False
    assert version(duel) == before
    assert not MatchEvent.objects.exists()


def test_it_refuses_a_move_from_a_seat_its_person_left(duel, alice) -> None:
    live = live_of(duel)
    person = Seat.objects.get(table=duel, index=live.engine.to_act).user
    seating.leave(duel.pk, person)
    live = live_of(duel)
    action = live.engine.legal_actions()[0]
    with pytest.raises(Refused, match="You have left this seat"):
        play_as_holder(duel.pk, action, version(duel))
    assert live_of(duel).engine.history == []


# --- the conductor ----------------------------------------------------------------------------


def person_to_act(table: Table):
    live = live_of(table)
    seat = live.engine.to_act
    user = Seat.objects.get(table=table, index=seat).user
    presence.opened(table.pk, f"ch-{seat}", user.pk, seat)  # connected: no disconnect grace
    Table.objects.filter(pk=table.pk).update(turn_started_at=timezone.now())
    return seat, user


def test_it_plays_a_left_seat_at_bot_time_not_after_the_grace(duel) -> None:
    seat, user = person_to_act(duel)
    Table.objects.filter(pk=duel.pk).update(bot_delay_ms=700, disconnect_grace_seconds=600)
    seating.leave(duel.pk, user)
    now = timezone.now()
    step = plan(live_of(duel), now)
    assert step.level == "normal"
    assert step.at <= now + timedelta(milliseconds=700)
    assert not act_if_due(duel.pk, now=now)  # the bot pause first
    assert act_if_due(duel.pk, now=now + timedelta(seconds=1))
    assert [a.seat for a in live_of(duel).engine.history] == [seat]


def test_it_stops_the_stand_in_when_the_person_returns(duel) -> None:
    _seat, user = person_to_act(duel)
    seating.leave(duel.pk, user)
    # They closed the tab long ago; they come back and their page reconnects later.
    Presence.objects.filter(table=duel).update(
        closed_at=timezone.now() - timedelta(hours=1),
        last_seen=timezone.now() - timedelta(hours=1),
    )
    seating.return_to_seat(duel.pk, user)
    now = timezone.now()
    assert plan(live_of(duel), now).level is None
    assert not act_if_due(duel.pk, now=now + timedelta(seconds=5))
    assert live_of(duel).engine.history == []


# --- rematch ----------------------------------------------------------------------------------


def test_it_starts_a_rematch_against_bots_at_once_with_the_same_seats(make_table, alice) -> None:
    table = make_table(alice, "open_blot", fmt="best_of:1", others=["hard"])
    old = finish(table)
    offer = seating.rematch(table.pk, alice, old.pk)
    new = offer.new_match
    assert new is not None and new.pk != old.pk
    assert new.status == Match.Status.PLAYING and new.format == old.format
    assert new.rules == old.rules
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.current_match() == new
    seats = lambda m: list(  # noqa: E731
        Participant.objects.filter(match=m).values_list("index", "user", "bot_level")
    )
    assert seats(new) == seats(old)
    before = version(table)
    assert seating.rematch(table.pk, alice, old.pk).new_match == new  # asked twice: no change
    assert version(table) == before
    assert Match.objects.filter(table=table).count() == 2


def test_it_waits_for_every_person_to_accept_a_rematch(duel, alice, bob) -> None:
    old = finish(duel)
    offer = seating.rematch(duel.pk, alice, old.pk)
    assert offer.new_match is None and offer.accepted == [seat_of(duel, alice).index]
    before = version(duel)
    seating.rematch(duel.pk, alice, old.pk)
    assert version(duel) == before  # accepting twice changes nothing
    offer = seating.rematch(duel.pk, bob, old.pk)
    assert offer.new_match is not None
    assert offer.new_match.status == Match.Status.PLAYING


def test_it_refuses_a_rematch_before_the_match_is_over(duel, alice) -> None:
    with pytest.raises(ServiceError, match="The match is not over yet"):
        seating.rematch(duel.pk, alice, duel.current_match().pk)
    assert not Rematch.objects.exists()


def test_it_refuses_a_rematch_to_someone_who_did_not_play(duel, carol) -> None:
    old = finish(duel)
    with pytest.raises(ServiceError, match="You have no seat at this table"):
        seating.rematch(duel.pk, carol, old.pk)
    assert not Rematch.objects.exists()


def test_it_refuses_a_rematch_of_another_tables_match(duel, make_table, alice) -> None:
    other = finish(make_table(alice, "open_blot", fmt="best_of:1", others=["easy"]))
    with pytest.raises(ServiceError, match="There is no such match at this table"):
        seating.rematch(duel.pk, alice, other.pk)


def test_it_lets_a_stand_in_accept_for_a_person_who_left(duel, alice, bob) -> None:
    seating.leave(duel.pk, bob)
    old = finish(duel)
    offer = seating.rematch(duel.pk, alice, old.pk)
    assert offer.new_match is not None
    event = MatchEvent.objects.get(match=offer.new_match)
    assert (event.user, event.kind) == (bob, MatchEvent.Kind.LEFT)
    # and they can still come back to the new match
    assert seating.return_to_seat(duel.pk, bob) is True


def test_it_counts_a_rematch_request_as_coming_back(make_table, alice, bob, carol) -> None:
    table = make_table(alice, "belote", fmt="best_of:1", others=["open", "easy", "open"])
    from games.services.tables import join_seat

    join_seat(table.pk, bob, 1)
    join_seat(table.pk, carol, 3)
    seating.leave(table.pk, carol)
    old = finish(table)
    offer = seating.rematch(table.pk, alice, old.pk)
    assert offer.new_match is None and offer.accepted == [0, 2, 3]  # bots and a left seat
    before = version(table)
    seating.rematch(table.pk, carol, old.pk)  # already counted, but now back
    assert seat_of(table, carol).left_at is None
    assert version(table) == before + 1
    assert seating.rematch(table.pk, bob, old.pk).new_match is not None
    assert (
        not MatchEvent.objects.filter(match__table=table, kind="left").exclude(match=old).exists()
    )  # nobody is away in the new match


def test_it_marks_a_left_seat_as_played_by_a_bot_for_everyone_until_they_return(
    duel, alice
) -> None:
    from games.live.draw import frames

    def marked() -> dict[int | None, list[str]]:
        """Per viewpoint, the seats drawn with the stand-in mark."""
        _version, drawn = frames.render_all(duel.pk)
        return {
            seat: [
                place.split('"', 1)[0]
                for place in html.split('data-seat-place="')[1:]
                if "data-stand-in" in place
            ]
            for (seat, _lang), html in drawn.items()
        }

    Table.objects.filter(pk=duel.pk).update(spectator_count=1)
    assert marked() == {0: [], 1: [], None: []}
    seating.leave(duel.pk, alice)
    left = str(seat_of(duel, alice).index)
    assert marked() == {0: [left], 1: [left], None: [left]}
    seating.return_to_seat(duel.pk, alice)
    assert marked() == {0: [], 1: [], None: []}
