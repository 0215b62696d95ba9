"""The chat on the pages: who sees which room and controls, the match
record, how long rooms are kept, and the moderators' admin."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.models import ChatMessage, ChatReport, Match, Room, Tournament
from games.services import chat
from games.services.tables import join_seat
from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(make_table, alice, bob):
    table = make_table(alice, "open_blot")
    join_seat(table.pk, bob, 1)
    table.refresh_from_db()
    return table


def players(table):
    return chat.Where(Room.PLAYERS, table_id=table.pk)


def spectators(table):
    return chat.Where(Room.SPECTATORS, table_id=table.pk)


def test_a_player_sees_only_the_players_room_with_the_quick_phrases(duel, alice):
    page = client_for(alice).get(f"/tables/{duel.pk}/").content.decode()
    assert 'data-chat-room="players"' in page and 'data-chat-room="spectators"' not in page
    for phrase in ("good-luck", "well-played", "thanks", "sorry", "oops", "bye"):
        assert f'data-phrase="{phrase}"' in page
    assert "data-chat-form" in page and 'name="text"' in page


def test_a_spectator_sees_both_rooms_and_writes_only_in_theirs(duel, carol):
    chat.post(players(duel), duel.seats.get(index=0).user, phrase="hello")
    page = client_for(carol).get(f"/tables/{duel.pk}/").content.decode()
    assert 'data-chat-room="players"' in page and 'data-chat-room="spectators"' in page
    assert "Only the players write here." in page
    assert page.count("data-chat-form") == 1  # the spectators' room's
    assert 'data-author="alice"' in page and 'data-action="report"' in page


def test_a_signed_out_visitor_reads_and_is_offered_to_log_in(duel, client):
    chat.post(players(duel), duel.seats.get(index=0).user, phrase="hello")
    page = client.get(f"/tables/{duel.pk}/").content.decode()
    assert 'data-author="alice"' in page and "Log in to chat." in page
    assert "data-chat-form" not in page and "data-phrase" not in page
    assert 'data-action="mute"' not in page


def test_the_players_room_is_on_the_match_page_after_the_match(duel, alice, bob, carol):
    chat.post(players(duel), alice, phrase="good-luck")
    chat.post(spectators(duel), carol, text="spectators only")
    match = duel.current_match()
    page = client_for(carol).get(match.get_absolute_url()).content.decode()
    assert "data-chat" not in page  # not while it is played
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    page = client_for(carol).get(match.get_absolute_url()).content.decode()
    assert 'data-author="alice"' in page and "Good luck!" in page
    assert "spectators only" not in page


def test_spectators_rooms_are_kept_48_hours_and_the_players_room_stays(duel, alice, carol, bob):
    old = timezone.now() - chat.KEEP_ROOMS - timedelta(minutes=1)
    kept_players = chat.post(players(duel), alice, phrase="hello")
    gone = chat.post(spectators(duel), carol, text="old news")
    fresh = chat.post(spectators(duel), carol, text="fresh")
    reported = ChatReport.objects.create(
        message=gone, reporter=bob, reported_user=carol, reported_text="old news"
    )
    ChatMessage.objects.filter(pk__in=[kept_players.pk, gone.pk]).update(created_at=old)
    # Past its keeping time a message is no longer shown, even before the clean-up.
    assert [m.text for m in chat.recent(spectators(duel))] == ["fresh"]
    out = io.StringIO()
    call_command("purge_chat", stdout=out)
    assert "Deleted 1 chat messages older than 48 hours." in out.getvalue()
    assert set(ChatMessage.objects.values_list("pk", flat=True)) == {kept_players.pk, fresh.pk}
    reported.refresh_from_db()
    assert reported.message is None and reported.reported_text == "old news"


def test_a_tournament_room_is_on_its_page_and_expires_too(alice, bob):
    from games.models import RuleSetConfig

    tournament = Tournament.objects.create(
        name="Cup",
        variant="belote",
        rule_set=RuleSetConfig.objects.filter(variant="belote").first(),
        format="first_to:1001",
        created_by=alice,
        status="registration",
    )
    where = chat.Where(Room.TOURNAMENT, tournament_id=tournament.pk)
    said = chat.post(where, bob, text="see you in the final")
    page = client_for(alice).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-chat-room="tournament"' in page and "see you in the final" in page
    assert f'ws-connect="/ws/chat/tournament/{tournament.pk}/"' in page
    assert 'data-action="chat-free-text"' in page  # the organiser's switch
    ChatMessage.objects.filter(pk=said.pk).update(created_at=timezone.now() - timedelta(days=3))
    assert chat.purge_expired() == 1


def test_moderators_read_reports_with_their_context_and_delete_for_everyone(
    duel, alice, bob, make_user
):
    from games.models import Deal

    Deal.objects.filter(match__table=duel).update(status=Deal.Status.FINISHED)
    chat.post(players(duel), bob, text="hi there")
    rude = chat.post(players(duel), alice, text="something rude")
    report = chat.report(bob, rude.pk, [players(duel)])
    admin = client_for(make_user("root", is_staff=True, is_superuser=True))
    listing = admin.get("/admin/games/chatreport/").content.decode()
    assert "something rude" in listing
    detail = admin.get(f"/admin/games/chatreport/{report.pk}/change/").content.decode()
    assert "hi there" in detail and "something rude" in detail
    response = admin.post(
        "/admin/games/chatreport/",
        {"action": "delete_reported", "_selected_action": [report.pk]},
    )
    assert response.status_code == 302
    rude.refresh_from_db()
    assert rude.deleted_at is not None
    assert [m.text for m in chat.recent(players(duel))] == ["hi there"]
    admin.post(
        "/admin/games/chatmessage/",
        {"action": "silence_24h", "_selected_action": [rude.pk]},
    )
    with pytest.raises(chat.ServiceError, match="silenced"):
        chat.post(players(duel), alice, phrase="sorry")
