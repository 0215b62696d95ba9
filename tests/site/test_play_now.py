"""Play now: joining a pool, the pairing pass, leaving, parties, bots, the lobby."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, PoolEntry, PoolWait, Presence, Rating, Table
from games.services import ServiceError, pools
from games.services.changes import user_notified
from tests.site.conftest import client_for


@pytest.fixture
def pushed():
    """What the pairing pass told each person's open pages (after commit)."""
    got: list[tuple[int, str, dict]] = []

    def receive(sender, user_id, event, data, **kwargs):
        got.append((user_id, event, data))

    user_notified.connect(receive)
    yield got
    user_notified.disconnect(receive)


def join(user, variant="open_blot", fmt="first_to:501", rated=False, **kw):
    return pools.join(user, variant=variant, fmt=fmt, rated=rated, **kw)


def test_two_people_in_one_pool_are_seated_together_and_told_where(
    alice, bob, pushed, django_capture_on_commit_callbacks
):
    join(alice, rated=True)
    join(bob, rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert pools.pair_waiting() == 1
    table = Table.objects.get()
    assert table.rated and table.status == Table.Status.PLAYING
    assert {s.user_id for s in table.seats.all()} == {alice.pk, bob.pk}
    assert table.current_match().rated
    url = table.get_absolute_url()
    assert sorted(pushed) == sorted(
        [(alice.pk, "paired", {"url": url}), (bob.pk, "paired", {"url": url})]
    )
    # The pass is idempotent: nobody is seated twice.
    assert pools.pair_waiting() == 0
    assert Table.objects.count() == 1


def test_different_pools_do_not_meet(alice, bob):
    join(alice, rated=True)
    join(bob, rated=False)
    assert pools.pair_waiting() == 0
    join(bob, fmt="best_of:3", rated=True)
    assert pools.pair_waiting() == 0


def test_leaving_the_pool_takes_you_out(alice, bob):
    join(alice)
    assert pools.leave(alice)
    join(bob)
    assert pools.pair_waiting() == 0
    assert not pools.leave(alice)


def test_joining_another_pool_leaves_the_first(alice):
    join(alice)
    join(alice, variant="belote", fmt="best_of:1")
    assert PoolEntry.objects.get(user=alice).variant == "belote"


def test_far_ratings_wait_then_meet_as_windows_widen(alice, bob):
    Rating.objects.create(user=alice, variant="open_blot", mu=1200)
    Rating.objects.create(user=bob, variant="open_blot", mu=1800)
    join(alice)
    join(bob)
    assert pools.pair_waiting() == 0
    later = timezone.now() + timedelta(seconds=60)
    assert pools.pair_waiting(now=later) == 1


def test_casual_players_who_asked_get_bots_after_thirty_seconds(alice):
    join(alice, bots_ok=True)
    assert pools.pair_waiting() == 0
    assert pools.pair_waiting(now=timezone.now() + timedelta(seconds=31)) == 1
    table = Table.objects.get()
    assert not table.rated
    assert [s.bot_level for s in table.seats.order_by("index")][1] == "normal"


def test_rated_games_refuse_bots(alice):
    with pytest.raises(ServiceError):
        join(alice, rated=True, bots_ok=True)


def test_a_format_the_variant_does_not_offer_is_refused(alice):
    with pytest.raises(ServiceError):
        join(alice, variant="open_blot", fmt="first_to:1000")
    assert not PoolEntry.objects.exists()


def test_four_people_make_a_belote_table_with_a_party_kept_as_partners(make_user):
    a, b, c, d = (make_user(n) for n in ("ann", "ben", "cat", "dan"))
    join(a, variant="belote", fmt="best_of:1", partner="ben")
    join(c, variant="belote", fmt="best_of:1")
    join(d, variant="belote", fmt="best_of:1")
    assert pools.pair_waiting() == 0  # ben has not joined yet: the party waits
    join(b, variant="belote", fmt="best_of:1", partner="ann")
    assert pools.pair_waiting() == 1
    seats = {s.user_id: s.index for s in Table.objects.get().seats.all()}
    assert seats[a.pk] % 2 == seats[b.pk] % 2
    assert seats[c.pk] % 2 == seats[d.pk] % 2 != seats[a.pk] % 2


def test_a_partner_only_for_belote_and_must_exist(alice, bob):
    with pytest.raises(ServiceError):
        join(alice, partner="bob")
    with pytest.raises(ServiceError):
        join(alice, variant="belote", fmt="best_of:1", partner="nobody")
    with pytest.raises(ServiceError):
        join(alice, variant="belote", fmt="best_of:1", partner="alice")


def test_someone_in_a_running_rated_match_is_not_paired(alice, bob, carol):
    join(alice, rated=True)
    join(bob, rated=True)
    pools.pair_waiting()
    # Alice's entry from before is done; a new one while the match runs is refused.
    with pytest.raises(ServiceError):
        join(alice, rated=False)
    # And one that slipped in is left waiting by the pass.
    PoolEntry.objects.filter(user=alice).delete()
    PoolEntry.objects.create(
        user=alice,
        variant="open_blot",
        format="first_to:501",
        joined_at=timezone.now(),
        seen_at=timezone.now(),
    )
    join(carol)
    assert pools.pair_waiting() == 0
    Match.objects.update(status=Match.Status.FINISHED)
    Table.objects.update(status=Table.Status.FINISHED)
    assert pools.pair_waiting() == 1


def test_the_lobby_shows_the_form_then_the_wait_then_the_table(alice, bob):
    client = client_for(alice)
    page = client.get("/").content.decode()
    assert "data-play-now" in page and 'data-action="play-now"' in page
    response = client.post(
        "/play/now/", {"variant": "open_blot", "format": "first_to:501", "rated": "1"}
    )
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert "data-queue-status" in page and 'data-waiting-seconds="' in page
    assert 'data-action="leave-queue"' in page
    assert "1 person is waiting in this pool." in page
    join(bob, rated=True)
    pools.pair_waiting()
    table = Table.objects.get()
    response = client.get("/play/now/status/", HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == table.get_absolute_url()


def test_leaving_from_the_lobby(alice):
    client = client_for(alice)
    client.post("/play/now/", {"variant": "belote", "format": "best_of:1"})
    assert PoolEntry.objects.filter(user=alice).exists()
    client.post("/play/now/leave/")
    assert not PoolEntry.objects.filter(user=alice).exists()
    assert "data-play-now" in client.get("/").content.decode()


def test_a_bad_play_now_form_changes_nothing(alice):
    client = client_for(alice)
    client.post("/play/now/", {"variant": "chess", "format": "best_of:1"})
    assert not PoolEntry.objects.exists()


#: Long enough ago that a page's closing is not a step to the next page.
LEFT = pools.BETWEEN_PAGES + timedelta(seconds=1)


def socket(user, closed=False, seen_ago=0.0, closed_ago=LEFT):
    """A page of ``user``'s holding (or, ``closed``, having held until
    ``closed_ago``) their own socket."""
    now = timezone.now()
    return Presence.objects.create(
        table=None,
        channel_name=f"person-{user.pk}-{Presence.objects.count()}",
        user=user,
        connected_at=now - timedelta(minutes=5),
        last_seen=now - timedelta(seconds=seen_ago),
        closed_at=now - closed_ago if closed else None,
    )


def lapse_poll(user):
    """Their lobby last showed them waiting longer ago than the poll's grace."""
    PoolEntry.objects.filter(user=user).update(
        seen_at=timezone.now() - pools.POLL_GRACE - timedelta(seconds=1)
    )


def test_someone_whose_pages_are_all_closed_leaves_the_pool(alice, bob):
    join(alice)
    socket(alice, closed=True)  # the last page said it closed
    lapse_poll(alice)
    join(bob)
    assert pools.pair_waiting() == 0
    assert not PoolEntry.objects.filter(user=alice).exists()
    assert PoolEntry.objects.filter(user=bob).exists()  # just joined: there


def test_someone_between_two_pages_keeps_their_place_and_is_paired_once_there(alice, bob):
    join(alice)
    socket(alice, closed=True, closed_ago=timedelta(seconds=0.5))  # the page they left
    lapse_poll(alice)
    join(bob)
    assert pools.pair_waiting() == 0  # not seated while no page of theirs is open
    assert PoolEntry.objects.get(user=alice).table_id is None
    socket(alice)  # the next page's socket
    assert pools.pair_waiting() == 1
    assert PoolEntry.objects.get(user=alice).table_id is not None


def test_a_page_holding_the_persons_socket_keeps_them_in_the_pool(alice, bob):
    join(alice)
    socket(alice)  # e.g. reading a player's page, not the lobby
    lapse_poll(alice)
    join(bob)
    assert pools.pair_waiting() == 1
    assert PoolEntry.objects.get(user=alice).table_id is not None


def test_a_socket_whose_heartbeat_went_stale_does_not_keep_anyone(alice, settings):
    # A crashed server never closed it: past the stale time it counts as gone.
    join(alice)
    socket(alice, seen_ago=settings.BLOT_PRESENCE_STALE_S + 1)
    lapse_poll(alice)
    pools.pair_waiting()
    assert not PoolEntry.objects.exists()


def test_pairing_never_seats_someone_who_left_after_the_pass_read_the_pool(
    alice, bob, monkeypatch
):
    join(alice)
    join(bob)
    real = pools._seat_if_still_waiting

    def alice_closes_her_last_tab_first(*args, **kwargs):
        socket(alice, closed=True, closed_ago=timedelta(0))
        lapse_poll(alice)
        return real(*args, **kwargs)

    monkeypatch.setattr(pools, "_seat_if_still_waiting", alice_closes_her_last_tab_first)
    assert pools.pair_waiting() == 0
    assert not Table.objects.exists()
    assert PoolEntry.objects.get(user=bob).table_id is None  # waits on for someone there
    # Her entry waits out the step between two pages, then goes.
    assert PoolEntry.objects.get(user=alice).table_id is None
    Presence.objects.filter(user=alice).update(closed_at=timezone.now() - LEFT)
    monkeypatch.setattr(pools, "_seat_if_still_waiting", real)
    assert pools.pair_waiting() == 0
    assert not PoolEntry.objects.filter(user=alice).exists()


def test_the_waiting_status_keeps_you_in_the_pool(alice):
    join(alice)
    old = timezone.now() - timedelta(seconds=50)
    PoolEntry.objects.filter(user=alice).update(seen_at=old)
    client_for(alice).get("/play/now/status/")
    assert PoolEntry.objects.get(user=alice).seen_at > old


def test_someone_at_a_running_bot_table_is_refused_and_not_paired(alice, bob, make_table):
    from games.services.tables import create_quick_bot_table

    table = create_quick_bot_table(alice, "open_blot")
    with pytest.raises(ServiceError) as refused:
        join(alice)
    assert "playing at a table" in str(refused.value.message)
    client = client_for(alice)
    page = client.post(
        "/play/now/", {"variant": "open_blot", "format": "first_to:501"}, follow=True
    ).content.decode()
    assert "You are playing at a table right now." in page
    assert not PoolEntry.objects.filter(user=alice).exists()
    # An entry from before the table started is left waiting by the pass.
    PoolEntry.objects.create(
        user=alice, variant="open_blot", format="first_to:501",
        joined_at=timezone.now(), seen_at=timezone.now(),
    )
    join(bob)
    assert pools.pair_waiting() == 0
    # Once they have left that table, they may look for a game.
    table.seats.filter(user=alice).update(left_at=timezone.now())
    assert pools.pair_waiting() == 1


def test_starting_a_game_against_bots_leaves_the_pool(alice):
    join(alice)
    client_for(alice).post("/play/bots/open_blot/")
    assert not PoolEntry.objects.filter(user=alice).exists()


def waiting_status(user) -> str:
    return client_for(user).get("/play/now/status/").content.decode()


def test_two_people_far_apart_are_told_why_they_wait_and_when_they_meet(alice, bob):
    # The report's case: the only two in a pool, rated 815 and 1214.
    Rating.objects.create(user=alice, variant="open_blot", mu=815, shown=815)
    Rating.objects.create(user=bob, variant="open_blot", mu=1214, shown=1214)
    join(alice, rated=True)
    join(bob, rated=True)
    assert pools.pair_waiting() == 0
    joined = PoolEntry.objects.get(user=bob).joined_at
    PoolEntry.objects.update(joined_at=joined)  # as if both had just joined
    state = pools.status(alice, now=joined)
    assert (state.window, state.window_low, state.window_high) == (100, 715, 915)
    assert state.outlook.in_pool == 1 and state.outlook.in_window == 0
    assert state.meet_in_s == 20  # (399 - 100) / 15 = 19.9 s
    page = waiting_status(alice)
    window = int(re.search(r'data-queue-window="(\d+)"', page).group(1))
    assert 100 <= window < 130  # a moment later
    assert f"Your rating here is 815?. You accept opponents rated {815 - window} to " \
        f"{815 + window} now; the range widens by 15 points each way every second you " \
        "wait, with no limit." in page
    assert "0 other people waiting are within your range and you within theirs." in page
    reason = re.search(r"data-queue-reason>(.*?)</p>", page, re.S).group(1).strip()
    assert re.fullmatch(
        r"You wait because the nearest players are rated outside your range, or you "
        r"outside theirs\. If everyone waits on, the ranges meet in about (19|20) seconds\.",
        reason,
    )


def test_the_status_says_when_nobody_else_waits_and_when_a_table_needs_more(alice, bob):
    join(alice)
    assert "You wait because nobody else is in this pool right now." in waiting_status(alice)
    join(alice, variant="belote", fmt="first_to:1000")
    join(bob, variant="belote", fmt="first_to:1000")
    assert "You wait because a table needs 4 people: 2 more must join this pool." in (
        waiting_status(alice)
    )


def test_the_status_tells_the_usual_wait_from_recent_pairings(alice, bob, carol):
    join(alice)
    assert "Nobody has been paired in this pool lately" in waiting_status(alice)
    now = timezone.now()
    for waited in (4, 10, 30):
        PoolWait.objects.create(
            variant="open_blot", format="first_to:501", rated=False, waited_s=waited, at=now
        )
    # Another pool's and old pairings do not count.
    PoolWait.objects.create(variant="belote", format="first_to:501", waited_s=900, at=now)
    PoolWait.objects.create(
        variant="open_blot", format="first_to:501", waited_s=900, at=now - timedelta(days=2)
    )
    page = waiting_status(alice)
    assert 'data-queue-usual="10"' in page
    assert "Lately people in this pool were paired after about 10 seconds." in page
    # The pass writes how long the people it seats waited.
    join(bob)
    join(carol)
    PoolEntry.objects.filter(user__in=[bob, carol]).update(
        joined_at=timezone.now() - timedelta(seconds=7)
    )
    assert pools.pair_waiting() == 1
    assert PoolWait.objects.filter(waited_s__gte=7, waited_s__lt=9).count() == 2


def test_after_a_while_the_nearest_alternatives_are_offered(alice, bob):
    join(alice, rated=True)
    assert "data-queue-alternatives" not in waiting_status(alice)
    PoolEntry.objects.filter(user=alice).update(
        joined_at=timezone.now() - timedelta(seconds=pools.ALTERNATIVES_AFTER_S)
    )
    join(bob, rated=True, fmt="best_of:3")  # someone waits in another format
    page = waiting_status(alice)
    assert 'data-alternative="casual"' in page
    assert "Best of 3 deals: 1 person waiting" in page
    assert 'data-alternative="bots"' in page
    # Taking one moves them to that pool.
    client_for(alice).post(
        "/play/now/", {"variant": "open_blot", "format": "best_of:3", "rated": "1"}
    )
    assert pools.pair_waiting() == 1


def test_play_now_remembers_the_last_choices_and_keeps_them_on_a_refusal(alice):
    client = client_for(alice)
    form = client.get("/").content.decode()
    # One default format per variant: Belote's is first to 1000, as for bots and challenges.
    assert '<option value="first_to:1000" selected>' in form
    assert "data-format-defaults" in form
    sent = {"variant": "belote", "format": "best_of:3", "rated": "1", "bots": "1"}
    page = client.post("/play/now/", sent, follow=True).content.decode()
    assert "Bots can fill only a casual game" in page  # refused ...
    assert '<option value="best_of:3" selected>' in page  # ... and the form kept
    assert 'name="rated" value="1" id="id_rated" checked' in page
    client.post("/play/now/", {"variant": "open_blot", "format": "best_of:5"})
    client.post("/play/now/leave/")
    page = client.get("/").content.decode()
    assert '<option value="open_blot" selected>' in page
    assert '<option value="best_of:5" selected>' in page
