"""Following players and challenges: the services' life cycle (create, accept,
decline, cancel, expire), what each refusal says and that it changes nothing,
and who is told what."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games import ratelimit
from games.models import Challenge, Follow, Seat, Table
from games.services import ServiceError, changes, social, tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    """Every announce_to_user made, as (user_id, event, data)."""
    told: list[tuple[int, str, dict]] = []

    def listen(sender, user_id, event, data, **kwargs):
        told.append((user_id, event, data))

    changes.user_notified.connect(listen)
    yield told
    changes.user_notified.disconnect(listen)


def challenge(challenger, challenged, **kw) -> Challenge:
    kw.setdefault("variant", "open_blot")
    kw.setdefault("fmt", "best_of:1")
    return social.create_challenge(challenger, challenged, **kw)


def refused(fn, *args, **kw) -> str:
    with pytest.raises(ServiceError) as exc:
        fn(*args, **kw)
    return exc.value.message


# --- following ----------------------------------------------------------------------------


def test_a_player_follows_and_unfollows_another(alice, bob) -> None:
    social.follow(alice, bob)
    social.follow(alice, bob)  # twice: still one row
    assert Follow.objects.filter(follower=alice, followed=bob).count() == 1
    assert social.is_following(alice, bob) and not social.is_following(bob, alice)
    assert social.followed(alice) == [bob]
    assert social.unfollow(alice, bob) is True
    assert social.unfollow(alice, bob) is False
    assert social.followed(alice) == []


def test_following_yourself_or_signed_out_is_refused(alice) -> None:
    assert refused(social.follow, alice, alice) == "You cannot follow yourself."
    assert refused(social.follow, AnonymousUser(), alice) == "Log in to follow players."
    assert not Follow.objects.exists()


def test_it_lists_the_tables_a_followed_player_is_playing_at(alice, bob, make_table) -> None:
    table = make_table(bob, "open_blot", others=["easy"])
    assert social.tables_playing([bob.pk, alice.pk]) == {bob.pk: [table]}


# --- a challenge's life ---------------------------------------------------------------------


def test_a_challenge_accepted_seats_both_at_a_started_table_and_sends_both_there(
    alice, bob, django_capture_on_commit_callbacks, heard
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        made = challenge(alice, bob)
    assert made.status == Challenge.Status.PENDING
    assert {(who, event) for who, event, _ in heard} == {
        (alice.pk, "challenge"),
        (bob.pk, "challenge"),
    }
    assert social.notices(bob).incoming == [made]
    assert social.notices(alice).waiting == [made]
    heard.clear()
    with django_capture_on_commit_callbacks(execute=True):
        done = social.accept(made.pk, bob)
    assert done.status == Challenge.Status.ACCEPTED and done.table is not None
    table = done.table
    assert table.status == Table.Status.PLAYING and table.format == "best_of:1"
    seats = {s.index: s.user_id for s in Seat.objects.filter(table=table)}
    assert seats == {0: alice.pk, 1: bob.pk}
    url = table.get_absolute_url()
    assert sorted(heard) == sorted(
        [
            (alice.pk, "challenge-accepted", {"url": url}),
            (bob.pk, "challenge-accepted", {"url": url}),
        ]
    )
    assert social.notices(bob).incoming == [] and social.notices(alice).waiting == []


def test_a_belote_challenge_with_a_partner_waits_for_both_answers_and_fills_with_a_bot(
    alice, bob, carol
) -> None:
    made = challenge(alice, bob, variant="belote", fmt="first_to:1001", partner_name="carol")
    assert made.partner == carol
    assert social.notices(carol).incoming == [made]
    social.accept(made.pk, bob)
    made.refresh_from_db()
    assert made.status == Challenge.Status.PENDING and made.table is None
    assert social.notices(bob).waiting == [made] and social.notices(bob).incoming == []
    done = social.accept(made.pk, carol)
    assert done.status == Challenge.Status.ACCEPTED
    seats = {s.index: (s.user_id, s.bot_level) for s in Seat.objects.filter(table=done.table)}
    # The challenger and their partner on one side (seats 0 and 2), a Normal bot beside bob.
    assert seats == {
        0: (alice.pk, None),
        1: (bob.pk, None),
        2: (carol.pk, None),
        3: (None, "normal"),
    }
    assert done.table.status == Table.Status.PLAYING


def test_a_rated_belote_challenge_leaves_unnamed_seats_open_for_people(alice, bob) -> None:
    made = challenge(alice, bob, variant="belote", fmt="first_to:1001", rated=True)
    done = social.accept(made.pk, bob)
    seats = {s.index: (s.user_id, s.bot_level) for s in Seat.objects.filter(table=done.table)}
    assert seats == {0: (alice.pk, None), 1: (bob.pk, None), 2: (None, None), 3: (None, None)}
    assert done.table.status == Table.Status.WAITING and not done.table.is_private


def test_nobody_in_a_running_rated_match_enters_a_second_one_by_challenge(
    alice, bob, carol
) -> None:
    """One rated match at a time, as the Play-now pools have it: a rated
    challenge is neither accepted by, nor sent by, nor opened for someone
    playing a rated match; a casual one still is."""
    running = social.accept(challenge(alice, bob, rated=True).pk, bob).table
    assert running.status == Table.Status.PLAYING and running.rated
    tables = Table.objects.count()

    second = challenge(carol, bob, rated=True)
    assert refused(social.accept, second.pk, bob) == (
        "Finish your rated match before you accept another rated challenge."
    )
    assert refused(challenge, alice, carol, rated=True) == (
        "Finish your rated match before you challenge someone to another rated match."
    )
    second.refresh_from_db()
    assert second.status == Challenge.Status.PENDING and not second.challenged_accepted
    # Sent before the challenger's rated match began, accepted during it.
    early = Challenge.objects.create(
        challenger=bob, challenged=carol, variant="open_blot", format="best_of:1", rated=True,
        expires_at=timezone.now() + timedelta(minutes=5),
    )
    assert refused(social.accept, early.pk, carol) == (
        "Someone this challenge names is playing a rated match: it can be accepted once "
        "that match is over."
    )
    assert Table.objects.count() == tables
    early.refresh_from_db()
    assert early.status == Challenge.Status.PENDING and not early.challenged_accepted
    casual = social.accept(challenge(alice, carol).pk, carol)
    assert casual.status == Challenge.Status.ACCEPTED


def test_nobody_in_a_running_rated_match_sits_down_at_another_rated_table(
    alice, bob, carol, make_user
) -> None:
    """Taking a free seat is the third way into a rated match: refused as the
    pools and challenges refuse it; someone not playing takes that seat."""
    dave, erin = make_user("dave"), make_user("erin")
    waiting = social.accept(
        challenge(carol, dave, variant="belote", fmt="first_to:1001", rated=True).pk, dave
    ).table
    assert waiting.status == Table.Status.WAITING and waiting.rated
    running = social.accept(challenge(alice, bob, rated=True).pk, bob).table
    assert running.status == Table.Status.PLAYING

    assert refused(tables.join_seat, waiting.pk, alice, 2) == (
        "Finish your rated match before you sit down at another rated table."
    )
    assert Seat.objects.get(table=waiting, index=2).user_id is None
    tables.join_seat(waiting.pk, erin, 2)
    assert Seat.objects.get(table=waiting, index=2).user_id == erin.pk


def test_the_hourly_challenge_limit_counts_only_challenges_sent(
    alice, bob, carol, make_user, monkeypatch
) -> None:
    monkeypatch.setattr(social, "SENT_PER_HOUR", ratelimit.Limit(2, 3600))
    dave = make_user("dave")
    challenge(alice, bob)
    assert refused(challenge, alice, bob) == (
        "You have already challenged this player. Please wait for their answer."
    )
    challenge(alice, carol)  # the refused one was not counted: this is the second
    assert refused(challenge, alice, dave) == (
        "You have sent many challenges this hour. Please wait a while."
    )
    assert Challenge.objects.filter(challenger=alice).count() == 2


def test_a_declined_challenge_tells_the_challenger_and_can_no_longer_be_accepted(
    alice, bob, django_capture_on_commit_callbacks, heard
) -> None:
    made = challenge(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        social.decline(made.pk, bob)
    assert (alice.pk, "challenge", {"id": made.pk}) in heard
    made.refresh_from_db()
    assert made.status == Challenge.Status.DECLINED and made.declined_by == bob
    assert social.notices(alice).outcomes == [made]
    assert refused(social.accept, made.pk, bob) == "This challenge has been declined."
    made.refresh_from_db()
    assert made.table is None and not Table.objects.exists()
    social.dismiss(made.pk, alice)
    assert social.notices(alice).outcomes == []


def test_a_challenge_expires_unanswered(alice, bob, settings) -> None:
    settings.BLOT_CHALLENGE_TTL_S = 60
    made = challenge(alice, bob)
    assert made.expires_at - made.created_at == pytest.approx(
        timedelta(seconds=60), abs=timedelta(seconds=2)
    )
    Challenge.objects.filter(pk=made.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert social.notices(bob).incoming == []
    assert social.notices(alice).waiting == []
    assert [c.pk for c in social.notices(alice).outcomes] == [made.pk]
    assert refused(social.accept, made.pk, bob) == "This challenge has expired."
    assert refused(social.decline, made.pk, bob) == "This challenge has expired."
    assert not Table.objects.exists()
    made.refresh_from_db()
    assert made.status == Challenge.Status.PENDING and not made.challenged_accepted
    social.dismiss(made.pk, alice)
    made.refresh_from_db()
    assert made.status == Challenge.Status.EXPIRED and social.notices(alice).outcomes == []
    # Expired, another challenge to the same player may be sent.
    assert challenge(alice, bob).status == Challenge.Status.PENDING


def test_the_next_change_of_the_notices_is_the_first_expiry(alice, bob, carol) -> None:
    first = challenge(alice, bob)
    challenge(carol, bob)
    assert social.notices(bob).next_change() == first.expires_at
    assert social.notices(carol).next_change() is not None


def test_the_challenger_cancels_and_nobody_else_can(alice, bob, carol) -> None:
    made = challenge(alice, bob)
    assert refused(social.cancel, made.pk, bob) == "Only the challenger can cancel a challenge."
    social.cancel(made.pk, alice)
    made.refresh_from_db()
    assert made.status == Challenge.Status.CANCELLED
    assert social.notices(bob).incoming == [] and social.notices(alice).outcomes == []
    assert refused(social.accept, made.pk, bob) == "This challenge has been cancelled."
    # A stranger learns nothing of how it went.
    assert refused(social.accept, made.pk, carol) == "This challenge is not addressed to you."


@pytest.mark.parametrize(
    ("who", "args", "message"),
    [
        ("alice", {}, "You cannot challenge yourself."),
        ("anon", {}, "Log in to challenge a player."),
        ("bob", {"variant": "poker"}, "Unknown variant."),
        ("bob", {"fmt": "first_to:1000"}, "This format is not offered for this variant."),
        ("bob", {"fmt": "nonsense"}, "Unknown match format."),
        ("bob", {"partner_name": "carol"}, "Only Belote is played with a partner."),
        (
            "bob",
            {"variant": "belote", "fmt": "first_to:1001", "partner_name": "nobody-here"},
            "There is no player with the partner's name.",
        ),
        (
            "bob",
            {"variant": "belote", "fmt": "first_to:1001", "partner_name": "bob"},
            "Your partner must be someone other than you and your opponent.",
        ),
    ],
)
def test_bad_challenges_are_refused_and_change_nothing(alice, bob, carol, who, args, message):
    challenger = AnonymousUser() if who == "anon" else alice
    challenged = alice if who == "alice" else bob
    assert refused(challenge, challenger, challenged, **args) == message
    assert not Challenge.objects.exists()


def test_a_second_challenge_to_the_same_player_waits_for_the_first(alice, bob) -> None:
    challenge(alice, bob)
    message = refused(challenge, alice, bob)
    assert message == "You have already challenged this player. Please wait for their answer."
    assert Challenge.objects.count() == 1


def test_a_player_has_at_most_a_few_challenges_waiting(alice, make_user) -> None:
    for n in range(social.MAX_PENDING_SENT):
        challenge(alice, make_user(f"p{n}"))
    assert "the most allowed" in refused(challenge, alice, make_user("one_more"))
    assert Challenge.objects.count() == social.MAX_PENDING_SENT


def test_answers_from_the_wrong_person_or_twice_are_refused(alice, bob, carol) -> None:
    made = challenge(alice, bob)
    assert refused(social.accept, made.pk, carol) == "This challenge is not addressed to you."
    assert refused(social.decline, made.pk, alice) == "This challenge is not addressed to you."
    assert refused(social.accept, made.pk, AnonymousUser()) == "Log in to answer a challenge."
    assert refused(social.accept, 999_999, bob) == "This challenge does not exist."
    made.refresh_from_db()
    assert made.status == Challenge.Status.PENDING and not made.challenged_accepted
    social.accept(made.pk, bob)
    assert refused(social.accept, made.pk, bob) == "This challenge has already been accepted."
    assert Table.objects.count() == 1


def test_a_partner_is_found_by_display_name_too(alice, bob, carol) -> None:
    carol.player.display_name = "Carol the Bold"
    carol.player.save()
    made = challenge(
        alice, bob, variant="belote", fmt="first_to:1001", partner_name="carol THE bold"
    )
    assert made.partner == carol
