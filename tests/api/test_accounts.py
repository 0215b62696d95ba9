"""Bot accounts and their tokens: who may become one, what a bot may not do, the
account page's forms (the token shown once) and the bot mark beside a bot's name."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games.models import ApiToken, BotAccount, Participant, Phrase, Player, PoolEntry, Room
from games.services import bots, chat, pools, social
from games.services.errors import ServiceError
from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_person_becomes_a_bot_account_for_good(alice) -> None:
    with pytest.raises(ServiceError, match="Tick the box"):
        bots.make_bot_account(alice, confirmed=False)
    assert not bots.is_bot(alice)
    bots.make_bot_account(alice, confirmed=True)
    assert bots.is_bot(alice)
    assert Player.objects.get(user=alice).is_bot
    assert BotAccount.objects.filter(user=alice).exists()
    with pytest.raises(ServiceError, match="already a bot"):
        bots.make_bot_account(alice, confirmed=True)


def test_an_account_that_played_a_rated_match_cannot_become_a_bot(make_table, alice, bob) -> None:
    table = make_table(alice, "open_blot", rated=True)
    from games.services.tables import join_seat

    join_seat(table.pk, bob, 1)
    table.matches.update(status="finished")
    table.__class__.objects.filter(pk=table.pk).update(status="finished")
    assert Participant.objects.filter(user=bob, match__rated=True).exists()
    with pytest.raises(ServiceError, match="rated match"):
        bots.make_bot_account(bob, confirmed=True)
    assert not bots.is_bot(bob)


def test_a_seated_person_or_staff_cannot_become_a_bot(make_table, alice, make_user) -> None:
    make_table(alice, "open_blot")  # alice waits at her table
    with pytest.raises(ServiceError, match="Leave or finish"):
        bots.make_bot_account(alice, confirmed=True)
    admin = make_user("admin", is_staff=True)
    with pytest.raises(ServiceError, match="staff"):
        bots.make_bot_account(admin, confirmed=True)


def test_becoming_a_bot_leaves_the_play_now_pool(alice) -> None:
    pools.join(alice, variant="open_blot", fmt="first_to:501", rated=False)
    bots.make_bot_account(alice, confirmed=True)
    assert not PoolEntry.objects.filter(user=alice).exists()


def test_a_token_is_kept_as_a_digest_and_shown_once(robot) -> None:
    user, value = robot
    row = ApiToken.objects.get(user=user)
    assert value.startswith("blot_") and len(value) >= 45
    stored = " ".join(str(getattr(row, f.attname)) for f in ApiToken._meta.concrete_fields)
    assert value not in stored
    assert row.digest == bots.digest(value) and row.prefix == value[:12]
    assert bots.authenticate(value).pk == row.pk
    assert bots.authenticate(value + "x") is None
    assert bots.authenticate("not-a-token") is None
    bots.revoke_token(user, row.pk)
    assert bots.authenticate(value) is None
    with pytest.raises(ServiceError):
        bots.revoke_token(user, row.pk + 1000)


def test_only_a_bot_account_has_tokens_and_each_names_its_scopes(alice, robot) -> None:
    with pytest.raises(ServiceError, match="Only a bot account"):
        bots.create_token(alice, name="x", scopes=["play"])
    user, _value = robot
    with pytest.raises(ServiceError, match="scope"):
        bots.create_token(user, name="x", scopes=[])
    with pytest.raises(ServiceError, match="scope"):
        bots.create_token(user, name="x", scopes=["admin"])
    with pytest.raises(ServiceError, match="name"):
        bots.create_token(user, name="  ", scopes=["play"])
    for n in range(bots.MAX_TOKENS - 1):
        bots.create_token(user, name=f"t{n}", scopes=["play"])
    with pytest.raises(ServiceError, match="active token"):
        bots.create_token(user, name="one too many", scopes=["play"])


def test_a_token_of_an_account_closed_is_refused(robot) -> None:
    user, value = robot
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert bots.authenticate(value) is None


def test_a_bot_never_enters_the_people_s_pools(robot) -> None:
    user, _value = robot
    with pytest.raises(ServiceError, match="Play now is for people"):
        pools.join(user, variant="open_blot", fmt="first_to:501", rated=False)
    assert not PoolEntry.objects.filter(user=user).exists()


def test_a_bot_says_only_the_quick_phrases(make_table, alice, robot, settings) -> None:
    settings.BLOT_CHAT_BURST = (100, 10)
    user, _value = robot
    table = make_table(alice, "open_blot")
    from games.services.tables import join_seat

    join_seat(table.pk, user, 1)
    table.refresh_from_db()
    deal = table.matches.get().deals.get()
    deal.status = "finished"  # between deals free text is open to people
    deal.save(update_fields=["status"])
    where = chat.Where(Room.PLAYERS, table.pk)
    with pytest.raises(ServiceError, match="only the quick phrases"):
        chat.post(where, user, text="hello humans")
    assert chat.post(where, user, phrase=Phrase.GOOD_GAME).phrase == Phrase.GOOD_GAME
    assert chat.post(where, alice, text="hello bot").text == "hello bot"


# --- the account page -------------------------------------------------------------------


def test_the_account_page_offers_the_upgrade_then_the_tokens(alice) -> None:
    client = client_for(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert "data-bot-account" in page and "data-api-token" not in page
    refused = client.post("/accounts/bot/", {})
    assert refused.status_code == 400 and not bots.is_bot(alice)
    made = client.post("/accounts/bot/", {"confirm": "on"})
    assert made.status_code == 302 and bots.is_bot(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert "data-bot-account" not in page and "data-api-token" in page

    answer = client.post("/accounts/bot/tokens/", {"name": "laptop", "scopes": ["play"]})
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "no-store"
    shown = re.search(r"data-token-value>([^<]+)<", answer.content.decode()).group(1)
    assert bots.authenticate(shown).scopes == ["play"]
    again = client.get("/accounts/profile/").content.decode()
    assert shown not in again and "data-token-value" not in again
    assert shown[:12] in again  # its beginning tells it apart

    row = ApiToken.objects.get(user=alice)
    client.post(f"/accounts/bot/tokens/{row.pk}/revoke/")
    assert bots.authenticate(shown) is None
    client.post("/accounts/bot/ladder/", {"variants": ["open_blot"]})
    assert BotAccount.objects.get(user=alice).ladder_variants == ["open_blot"]


def test_the_account_page_says_why_an_account_cannot_become_a_bot(make_table, alice) -> None:
    make_table(alice, "open_blot")
    page = client_for(alice).get("/accounts/profile/").content.decode()
    assert "data-bot-refused" in page and "data-bot-account" not in page
    assert client_for(alice).post("/accounts/bot/", {"confirm": "on"}).status_code == 400
    assert not bots.is_bot(alice)


def test_another_person_s_token_cannot_be_revoked(alice, bob, robot) -> None:
    user, value = robot
    row = ApiToken.objects.get(user=user)
    client_for(bob).post(f"/accounts/bot/tokens/{row.pk}/revoke/")
    assert bots.authenticate(value) is not None


# --- the mark beside a bot's name ----------------------------------------------------------


def _badges(html: str) -> int:
    return html.count("data-bot-badge")


def test_a_bot_s_name_carries_the_mark_on_every_page(make_table, alice, robot) -> None:
    user, _value = robot
    table = make_table(alice, "open_blot")
    from games.services.tables import join_seat

    join_seat(table.pk, user, 1)
    match = table.matches.get()
    assert Participant.objects.get(match=match, index=1).bot_account
    assert not Participant.objects.get(match=match, index=0).bot_account
    client = client_for(alice)
    assert _badges(client.get(f"/matches/{match.pk}/").content.decode()) == 1
    assert _badges(client.get(f"/players/{user.get_username()}/").content.decode()) >= 2
    assert _badges(client.get("/players/alice/").content.decode()) == 1  # the match list
    assert _badges(client.get(f"/tables/{table.pk}/").content.decode()) >= 1  # the live seat


def test_a_challenge_from_a_bot_marks_its_name(alice, robot) -> None:
    user, _value = robot
    social.create_challenge(user, alice, variant="open_blot", fmt="first_to:501")
    page = client_for(alice).get("/following/").content.decode()
    notice = page.split('id="person-notices"', 1)[1].split("</div>\n</div>", 1)[0]
    assert _badges(notice) == 1
    social.create_challenge(alice, user, variant="belote", fmt="first_to:1000")
    page = client_for(user).get("/following/").content.decode()
    # The bot's own notices name two people (its challenge to alice, hers to it): no mark.
    assert _badges(page.split('id="person-notices"', 1)[1]) == 0


def test_a_waiting_table_and_the_lobby_mark_a_seated_bot(make_table, robot, alice) -> None:
    user, _value = robot
    table = make_table(alice, "belote")
    from games.services.tables import join_seat

    join_seat(table.pk, user, 1)
    assert _badges(client_for(alice).get(f"/tables/{table.pk}/").content.decode()) == 1
    assert _badges(client_for(alice).get("/lobby/tables/").content.decode()) >= 1
