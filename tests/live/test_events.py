"""Each kind of change a service announces (games/services/changes.py), checked
where it lands: the channel-layer groups it reaches and the message each gets.
Nothing is sent before the change commits, and a change that rolls back sends
nothing. The sockets and the Bot API never send a change themselves: they call
the service, and the service announces it."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.live.deliver import chat as chat_deliver
from games.live.deliver import notify, person
from games.models import ChatMessage, Phrase, Room, Table
from games.services import chat as chat_service
from games.services import seating
from games.services.changes import announce_to_user
from games.services.tables import join_seat, leave_seat

pytestmark = pytest.mark.django_db


class RecordingLayer:
    """A channel layer that keeps what it is given, in order."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        self.sent.append((group, message))

    async def send(self, channel: str, message: dict) -> None:
        self.sent.append((channel, message))

    def groups(self) -> list[str]:
        return [group for group, _message in self.sent]


@pytest.fixture
def layer(monkeypatch) -> RecordingLayer:
    recording = RecordingLayer()
    for module in (notify, person, chat_deliver):
        monkeypatch.setattr(module, "get_channel_layer", lambda: recording)
    return recording


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a service as if its transaction committed: announcements go then."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


def test_a_table_change_sends_each_seated_person_their_frame(
    duel, alice, bob, layer, committed
):
    committed(seating.leave, duel.pk, alice)
    version = Table.objects.values_list("version", flat=True).get(pk=duel.pk)
    t = duel.pk
    assert sorted(layer.groups()) == [
        f"table-{t}-seat-0-user-{alice.pk}-en",
        f"table-{t}-seat-1-user-{bob.pk}-en",
    ]
    for group, message in layer.sent:
        assert message["type"] == "table.frame"
        assert (message["version"], message["group"]) == (version, group)
        assert 'id="table-root"' in message["html"]
        assert f'data-version="{version}"' in message["html"]


def test_a_seat_changing_hands_tells_that_persons_sockets_at_the_table(
    make_table, alice, bob, layer, committed
):
    table = make_table(alice, "belote")
    committed(join_seat, table.pk, bob, 2)
    assert (f"table-{table.pk}-user-{bob.pk}", {"type": "table.seat"}) in layer.sent
    layer.sent.clear()
    committed(leave_seat, table.pk, bob, 2)
    assert layer.sent == [(f"table-{table.pk}-user-{bob.pk}", {"type": "table.seat"})]


def test_an_event_for_one_person_goes_to_their_pages(alice, layer, committed):
    committed(announce_to_user, alice.pk, "challenge", {"id": 7})
    assert layer.sent == [
        (
            f"person-{alice.pk}",
            {"type": "person.event", "event": "challenge", "data": {"id": 7}},
        )
    ]


def test_a_new_message_goes_to_its_rooms_readers_with_and_without_buttons(
    duel, alice, layer, committed
):
    where = chat_service.Where(Room.PLAYERS, table_id=duel.pk)
    message = committed(chat_service.post, where, alice, phrase=Phrase.HELLO)
    group = f"chat-t{duel.pk}-players-en"
    assert layer.groups() == [group]
    sent = layer.sent[0][1]
    assert (sent["type"], sent["author_id"], sent["group"]) == ("chat.message", alice.pk, group)
    assert f'id="chat-m-{message.pk}"' in sent["plain"] and "Hello!" in sent["plain"]
    assert 'data-action="mute"' not in sent["plain"]
    assert 'data-action="mute"' in sent["actions"]


def test_a_deleted_message_is_taken_off_its_room(duel, alice, make_user, layer, committed):
    where = chat_service.Where(Room.PLAYERS, table_id=duel.pk)
    message = committed(chat_service.post, where, alice, phrase=Phrase.HELLO)
    layer.sent.clear()
    committed(chat_service.delete_messages, [message.pk], make_user("mod", is_staff=True))
    assert layer.groups() == [f"chat-t{duel.pk}-players-en"]
    sent = layer.sent[0][1]
    assert sent["type"] == "chat.removed" and f"chat-m-{message.pk}" in sent["html"]


def test_a_mute_reaches_every_page_of_the_muter(alice, bob, layer, committed):
    committed(chat_service.mute, bob, alice.get_username())
    assert layer.sent == [(f"chat-user-{bob.pk}", {"type": "chat.muted"})]
    layer.sent.clear()
    committed(chat_service.unmute, bob, alice.get_username())
    assert layer.sent == [(f"chat-user-{bob.pk}", {"type": "chat.muted"})]


def test_the_free_text_switch_reaches_both_rooms_of_the_table(duel, alice, layer, committed):
    where = chat_service.Where(Room.PLAYERS, table_id=duel.pk)
    committed(chat_service.set_free_text, where, alice, False)
    assert layer.sent == [
        (f"chat-t{duel.pk}-players-en", {"type": "chat.policy"}),
        (f"chat-t{duel.pk}-spectators-en", {"type": "chat.policy"}),
    ]


def test_nothing_is_sent_before_the_commit_nor_for_a_change_rolled_back(
    duel, alice, layer, django_capture_on_commit_callbacks
):
    where = chat_service.Where(Room.PLAYERS, table_id=duel.pk)
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        chat_service.post(where, alice, phrase=Phrase.HELLO)
        assert layer.sent == []
    assert len(waiting) == 1
    with django_capture_on_commit_callbacks(execute=True) as ran, transaction.atomic():
        chat_service.post(where, alice, phrase=Phrase.THANKS)
        transaction.set_rollback(True)
    assert ran == [] and layer.sent == []
    assert not ChatMessage.objects.filter(phrase=Phrase.THANKS).exists()
