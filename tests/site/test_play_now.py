"""Play now: joining a pool, the pairing pass, leaving, parties, bots, the lobby."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, PoolEntry, Rating, Table
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
        user=alice, variant="open_blot", format="first_to:501", joined_at=timezone.now()
    )
    join(carol)
    assert pools.pair_waiting() == 0
    Match.objects.update(status=Match.Status.FINISHED)
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


def test_someone_whose_pages_are_all_closed_leaves_the_pool(alice, bob):
    join(alice)
    PoolEntry.objects.filter(user=alice).update(
        seen_at=timezone.now() - pools.GONE_AFTER - timedelta(seconds=1)
    )
    join(bob)
    assert pools.pair_waiting() == 0
    assert not PoolEntry.objects.filter(user=alice).exists()


def test_the_waiting_status_keeps_you_in_the_pool(alice):
    join(alice)
    old = timezone.now() - timedelta(seconds=50)
    PoolEntry.objects.filter(user=alice).update(seen_at=old)
    client_for(alice).get("/play/now/status/")
    assert PoolEntry.objects.get(user=alice).seen_at > old
