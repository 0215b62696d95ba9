"""A signed-in person's own socket: it hears only that person's events, draws
them in their language with names escaped, and a signed-out page gets none."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from blotsite.asgi import application
from games.live.store import presence
from games.models import Challenge, Player
from games.services import social
from games.services.changes import announce_to_user
from tests.live.wsclient import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def person_socket(user=None) -> tuple[WebsocketCommunicator, bool]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, "/ws/person/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def receive(ws: WebsocketCommunicator, needle: str, timeout: float = 5) -> str:
    """The next message containing ``needle`` (the notices are drawn again whole)."""
    async with asyncio.timeout(timeout):
        while True:
            message = await ws.receive_from(timeout=timeout)
            if needle in message:
                return message


def announce(user, event: str, data: dict) -> None:
    announce_to_user(user.pk, event, data)  # outside a transaction: sent at once


async def test_a_signed_out_page_gets_no_socket() -> None:
    _ws, connected = await person_socket(None)
    assert not connected


async def test_a_challenge_reaches_only_the_challenged_persons_pages(alice, bob, carol) -> None:
    bob_tab1, ok1 = await person_socket(bob)
    bob_tab2, ok2 = await person_socket(bob)
    carols, ok3 = await person_socket(carol)
    assert ok1 and ok2 and ok3
    for ws in (bob_tab1, bob_tab2, carols):
        first = await ws.receive_from(timeout=5)  # the notices as they are on connecting
        assert 'id="person-notices"' in first and "data-challenge=" not in first
    made = await sync_to_async(social.create_challenge)(
        alice, bob, variant="open_blot", fmt="best_of:3"
    )
    for ws in (bob_tab1, bob_tab2):
        shown = await receive(ws, "data-challenge=")
        assert f'data-challenge="{made.pk}"' in shown
        assert 'data-action="accept"' in shown and 'data-action="decline"' in shown
        assert "Challenge from alice (1500?): Open Blot, Best of 3 deals." in shown
    assert await carols.receive_nothing(timeout=0.5)
    for ws in (bob_tab1, bob_tab2, carols):
        await ws.disconnect()


async def test_paired_sends_every_tab_of_that_person_and_nobody_else(alice, bob) -> None:
    alices = [(await person_socket(alice))[0] for _ in range(2)]
    bobs, _ = await person_socket(bob)
    for ws in (*alices, bobs):
        await ws.receive_from(timeout=5)
    await sync_to_async(announce)(alice, "paired", {"url": "/tables/7/"})
    for ws in alices:
        message = await ws.receive_from(timeout=5)
        assert message == '<div id="person-go" hidden data-go="/tables/7/"></div>'
    assert await bobs.receive_nothing(timeout=0.5)
    # Only a page of this site: another address is not followed.
    await sync_to_async(announce)(alice, "paired", {"url": "https://evil.example/"})
    assert await alices[0].receive_nothing(timeout=0.5)
    for ws in (*alices, bobs):
        await ws.disconnect()


async def test_accepting_sends_both_to_the_table(alice, bob) -> None:
    alices, _ = await person_socket(alice)
    bobs, _ = await person_socket(bob)
    for ws in (alices, bobs):
        await ws.receive_from(timeout=5)
    made = await sync_to_async(social.create_challenge)(
        alice, bob, variant="open_blot", fmt="best_of:1"
    )
    done = await sync_to_async(social.accept)(made.pk, bob)
    url = await sync_to_async(lambda: done.table.get_absolute_url())()
    for ws in (alices, bobs):
        assert f'data-go="{url}"' in await receive(ws, "data-go=")
        await ws.disconnect()


async def test_notices_are_drawn_in_the_readers_language_with_names_escaped(alice, bob) -> None:
    def setup() -> None:
        Player.objects.filter(user=bob).update(language="fr")
        player = alice.player
        player.display_name = "Al <b>ice</b>"
        player.save()

    await sync_to_async(setup)()
    bobs, _ = await person_socket(bob)
    await bobs.receive_from(timeout=5)
    await sync_to_async(social.create_challenge)(alice, bob, variant="belote", fmt="first_to:1001")
    shown = await receive(bobs, "data-challenge=")
    assert "Al &lt;b&gt;ice&lt;/b&gt;" in shown and "<b>ice" not in shown
    assert "Accepter" in shown and "Accept<" not in shown
    await bobs.disconnect()


async def test_a_declined_challenge_is_told_to_the_challenger(alice, bob) -> None:
    alices, _ = await person_socket(alice)
    await alices.receive_from(timeout=5)
    made = await sync_to_async(social.create_challenge)(
        alice, bob, variant="open_blot", fmt="best_of:1"
    )
    assert "data-challenge-waiting" in await receive(alices, "data-challenge-waiting")
    await sync_to_async(social.decline)(made.pk, bob)
    shown = await receive(alices, 'data-challenge-outcome="declined"')
    assert "bob declined your challenge." in shown
    await alices.disconnect()


async def test_an_expiring_challenge_leaves_the_page_by_itself(alice, bob, settings) -> None:
    settings.BLOT_CHALLENGE_TTL_S = 1
    bobs, _ = await person_socket(bob)
    await bobs.receive_from(timeout=5)
    await sync_to_async(social.create_challenge)(alice, bob, variant="open_blot", fmt="best_of:1")
    await receive(bobs, "data-challenge=")
    # Nothing is announced at expiry: the socket redraws when the shown challenge expires.
    redrawn = await bobs.receive_from(timeout=5)
    assert 'id="person-notices"' in redrawn and "data-challenge=" not in redrawn
    assert await sync_to_async(Challenge.objects.count)() == 1
    await bobs.disconnect()


async def test_an_open_person_socket_counts_as_online(alice, bob) -> None:
    ws, _ = await person_socket(alice)
    await ws.receive_from(timeout=5)
    await sync_to_async(presence.live_set.flush)(0)
    assert await sync_to_async(presence.online)([alice.pk, bob.pk]) == {alice.pk}
    await ws.disconnect()
    await sync_to_async(presence.live_set.flush)(0)
    assert await sync_to_async(presence.online)([alice.pk]) == set()
