"""The Bot API's calls (not its streams): the token, the scopes, the limits, and
moves through the one checked path with the same refusals a person's move gets."""

from __future__ import annotations

import json
import logging

import pytest

from games.api import state
from games.live.submit.play import current
from games.models import Challenge, Match, Table
from games.services import bots
from games.services.tables import join_seat
from tests.live.test_bad_messages import HOSTILE

pytestmark = pytest.mark.django_db(transaction=True)


def _table(api, variant: str = "open_blot", **extra) -> dict:
    seats = {"open_blot": 1, "belote": 3}[variant]
    body = {"variant": variant, "levels": ["easy"] * seats, "bot_delay_ms": 0, **extra}
    answer = api.post("/api/bot/table", body)
    assert answer.status_code == 200, answer.content
    return answer.json()


def _my_turn(api, user, match_id: int) -> dict:
    """The bot seat's state once it is its turn (the built-in bots moved first)."""
    from games.live.conduct import conductor

    where = state.bot_seat(user.pk, match_id)
    for _ in range(20):
        now = state.read_state(where)
        if now["legal"]:
            return now
        conductor.run_due()
    raise AssertionError("the bot's turn never came")


def _version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


# --- who may call ----------------------------------------------------------------------------


def test_a_call_without_a_valid_token_is_refused(api_for, robot) -> None:
    _user, value = robot
    for api in (api_for(None), api_for("blot_not-a-token"), api_for("")):
        answer = api.get("/api/bot/account")
        assert answer.status_code == 401
        assert answer.json()["error"]["code"] == "unauthorized"
        assert answer["WWW-Authenticate"].startswith("Bearer")
    wrong_kind = api_for(None).client.get(
        "/api/bot/account", headers={"Authorization": f"Basic {value}"}
    )
    assert wrong_kind.status_code == 401


def test_the_account_names_the_bot_and_its_ladder_ratings(api_for, robot) -> None:
    _user, value = robot
    answer = api_for(value).get("/api/bot/account")
    assert answer.status_code == 200
    data = answer.json()
    assert data["username"] == "robot" and data["bot"] is True
    assert set(data["ratings"]) == {"belote", "open_blot"}
    assert data["ratings"]["open_blot"]["matches"] == 0
    assert value not in answer.content.decode()


def test_a_token_does_only_what_its_scopes_allow(api_for, make_bot, alice) -> None:
    _user, value = make_bot("watcher", scopes=("play",))
    refused = api_for(value).post("/api/bot/table", {"variant": "open_blot"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "missing_scope"
    refused = api_for(value).post("/api/challenge/alice", {"variant": "open_blot"})
    assert refused.status_code == 403
    assert not Challenge.objects.exists() and not Table.objects.exists()


def test_a_wrong_method_is_refused(api_for, robot) -> None:
    _user, value = robot
    assert api_for(value).post("/api/bot/account").status_code == 405
    assert api_for(value).get("/api/bot/table").status_code == 405


def test_a_revoked_token_stops_the_bot_at_its_next_call(api_for, robot) -> None:
    user, value = robot
    api = api_for(value)
    made = _table(api)
    now = _my_turn(api, user, made["match"])
    bots.revoke_token(user, bots.tokens_of(user)[0].pk)
    move = {"version": now["version"], "action": now["legal"][0]}
    answer = api.post(f"/api/bot/match/{made['match']}/action", move)
    assert answer.status_code == 401
    assert _version(made["table"]) == now["version"]


# --- moves ------------------------------------------------------------------------------------


def test_a_legal_move_on_the_current_version_is_stored(api_for, robot) -> None:
    user, value = robot
    api = api_for(value)
    made = _table(api)
    now = _my_turn(api, user, made["match"])
    move = {"version": now["version"], "action": now["legal"][-1]}
    answer = api.post(f"/api/bot/match/{made['match']}/action", move)
    assert answer.status_code == 200 and answer.json() == {
        "ok": True,
        "version": now["version"] + 1,
    }
    live = current(Table.objects.get(pk=made["table"]))
    assert live.deal.actions[-1] == now["legal"][-1]


def test_a_stale_version_gets_409_and_changes_nothing(api_for, robot) -> None:
    user, value = robot
    api = api_for(value)
    made = _table(api)
    now = _my_turn(api, user, made["match"])
    for version in (now["version"] - 1, now["version"] + 1):
        answer = api.post(
            f"/api/bot/match/{made['match']}/action",
            {"version": version, "action": now["legal"][0]},
        )
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "stale_version"
    assert _version(made["table"]) == now["version"]


def test_an_illegal_action_gets_422_and_changes_nothing(api_for, robot) -> None:
    user, value = robot
    api = api_for(value)
    made = _table(api)
    now = _my_turn(api, user, made["match"])
    seat = now["seat"]
    legal = {json.dumps(a, sort_keys=True) for a in now["legal"]}
    for action in (
        {"seat": seat, "type": "take"},  # Open Blot has no "take"
        {"seat": seat, "type": "play", "card": "7C"},
        {"seat": seat, "type": "declare", "cards": ["7C", "8C", "9C"]},
    ):
        if json.dumps(action, sort_keys=True) in legal:
            continue
        answer = api.post(
            f"/api/bot/match/{made['match']}/action", {"version": now["version"], "action": action}
        )
        assert answer.status_code == 422, (action, answer.content)
        assert answer.json()["error"]["code"] == "illegal_action"
    assert _version(made["table"]) == now["version"]


def test_a_move_for_another_seat_gets_403(api_for, robot) -> None:
    user, value = robot
    api = api_for(value)
    made = _table(api)
    now = _my_turn(api, user, made["match"])
    other = {**now["legal"][0], "seat": 1 - now["seat"]}
    answer = api.post(
        f"/api/bot/match/{made['match']}/action", {"version": now["version"], "action": other}
    )
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_your_seat"
    assert _version(made["table"]) == now["version"]


def test_another_bot_s_match_is_not_found(api_for, robot, make_bot) -> None:
    user, value = robot
    made = _table(api_for(value))
    now = _my_turn(api_for(value), user, made["match"])
    _other, theirs = make_bot("intruder")
    move = {"version": now["version"], "action": now["legal"][0]}
    answer = api_for(theirs).post(f"/api/bot/match/{made['match']}/action", move)
    assert answer.status_code == 404
    assert api_for(theirs).get(f"/api/bot/match/{made['match']}/stream").status_code == 404
    assert _version(made["table"]) == now["version"]


def test_a_seat_that_is_no_longer_the_bot_s_refuses_its_move(api_for, robot) -> None:
    """submit() checks that the seat is the acting user's at that moment."""
    user, value = robot
    api = api_for(value)
    made = _table(api)
    now = _my_turn(api, user, made["match"])
    from games.models import Seat

    Seat.objects.filter(table_id=made["table"], index=now["seat"]).update(
        user=None, bot_level="easy"
    )
    move = {"version": now["version"], "action": now["legal"][0]}
    answer = api.post(f"/api/bot/match/{made['match']}/action", move)
    assert answer.status_code == 403
    assert _version(made["table"]) == now["version"]


MALFORMED = {
    "not json": "{",
    "a list": "[]",
    "no version": '{"action": {"seat": 0, "type": "pass"}}',
    "string version": '{"version": "3", "action": {"seat": 0, "type": "pass"}}',
    "negative version": '{"version": -1, "action": {"seat": 0, "type": "pass"}}',
    "no action": '{"version": 1}',
    "extra key": '{"version": 1, "action": {"seat": 0, "type": "pass", "card": "JH"}}',
    "unknown type": '{"version": 1, "action": {"seat": 0, "type": "resign"}}',
    "bad card": '{"version": 1, "action": {"seat": 0, "type": "play", "card": "1Z"}}',
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_move_gets_400_and_changes_nothing(api_for, robot, name) -> None:
    _user, value = robot
    api = api_for(value)
    made = _table(api)
    before = _version(made["table"])
    answer = api.post(f"/api/bot/match/{made['match']}/action", raw=MALFORMED[name])
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] in ("bad_json", "bad_version", "bad_action")
    assert _version(made["table"]) == before


def _hostile_bodies() -> dict[str, str]:
    """The socket tests' forged messages, as the body and as the action of a move."""
    out = {}
    for name, text in HOSTILE.items():
        out[f"{name} (body)"] = text
        out[f"{name} (action)"] = '{"version": 1, "action": ' + text + "}"
    out["deep version"] = '{"version": ' + "[" * 1000 + "]" * 1000 + ', "action": {}}'
    return out


def test_the_api_refuses_every_forged_message_the_socket_refuses(api_for, robot, caplog) -> None:
    _user, value = robot
    api = api_for(value)
    made = _table(api)
    before = _version(made["table"])
    with caplog.at_level(logging.DEBUG):
        for name, body in _hostile_bodies().items():
            answer = api.post(f"/api/bot/match/{made['match']}/action", raw=body)
            assert answer.status_code in (400, 413), (name, answer.status_code)
            assert "error" in answer.json()
    assert _version(made["table"]) == before
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_body_past_the_size_limit_gets_413(api_for, robot) -> None:
    _user, value = robot
    api = api_for(value)
    made = _table(api)
    body = '{"version": 1, "action": {"seat": 0, "type": "pass"}, "pad": "' + "x" * 3000 + '"}'
    answer = api.post(f"/api/bot/match/{made['match']}/action", raw=body)
    assert answer.status_code == 413


# --- limits and secrecy -------------------------------------------------------------------------


def test_a_flooding_bot_is_slowed_then_cut_off(api_for, robot, settings, rf) -> None:
    from games.api.auth import ApiError, authorize

    settings.BLOT_API_CALLS_PER_MINUTE = 6
    settings.BLOT_API_SLOW_AFTER_PER_MINUTE = 3
    _user, value = robot
    request = rf.get("/api/bot/account", headers={"Authorization": f"Bearer {value}"})
    slowed = [authorize(request, None).slow for _ in range(6)]
    assert slowed == [False, False, False, True, True, True]
    with pytest.raises(ApiError) as refused:
        authorize(request, None)
    assert refused.value.status == 429
    answer = api_for(value).get("/api/bot/account")
    assert answer.status_code == 429
    assert answer.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(answer["Retry-After"]) <= 60


def test_guessing_tokens_is_limited_by_address(api_for, settings) -> None:
    settings.BLOT_API_CALLS_PER_MINUTE = 3
    codes = [api_for(f"blot_guess{n}").get("/api/bot/account").status_code for n in range(5)]
    assert codes[:3] == [401, 401, 401] and codes[3:] == [429, 429]


def test_a_token_never_appears_in_an_answer_or_the_log(api_for, robot, caplog, settings) -> None:
    settings.BLOT_API_CALLS_PER_MINUTE = 40
    _user, value = robot
    api = api_for(value)
    with caplog.at_level(logging.DEBUG):
        answers = [
            api.get("/api/bot/account"),
            api.post("/api/bot/table", {"variant": "nope"}),
            api.post("/api/bot/match/999/action", {"version": 1, "action": {}}),
            api.post("/api/challenge/nobody", {"variant": "open_blot"}),
            api.post("/api/bot/challenge/12345/accept"),
            api_for(value + "x").get("/api/bot/account"),
        ]
        answers += [api.get("/api/bot/account") for _ in range(45)]  # into the 429s
    assert answers[-1].status_code == 429
    for answer in answers:
        assert value not in answer.content.decode()
        assert value not in str(answer.headers)
    assert value not in caplog.text


# --- challenges and test tables ------------------------------------------------------------------


def test_a_bot_challenges_a_person_who_accepts(api_for, robot, alice) -> None:
    from games.services import social

    user, value = robot
    answer = api_for(value).post(
        "/api/challenge/alice", {"variant": "open_blot", "format": "best_of:1", "rated": True}
    )
    assert answer.status_code == 200, answer.content
    made = answer.json()["challenge"]
    assert made["challenged"] == "alice" and made["rated"] is True
    social.accept(made["id"], alice)
    match = Match.objects.get(table=Challenge.objects.get(pk=made["id"]).table)
    assert match.rated and {p.user_id for p in match.participants.all()} == {user.pk, alice.pk}


def test_a_bot_accepts_or_declines_a_challenge_addressed_to_it(api_for, robot, alice, bob) -> None:
    from games.services import social

    user, value = robot
    api = api_for(value)
    first = social.create_challenge(alice, user, variant="open_blot", fmt="first_to:501")
    second = social.create_challenge(bob, user, variant="open_blot", fmt="first_to:501")
    accepted = api.post(f"/api/bot/challenge/{first.pk}/accept")
    assert accepted.status_code == 200 and accepted.json()["match"] is not None
    declined = api.post(f"/api/bot/challenge/{second.pk}/decline")
    assert declined.status_code == 200 and declined.json()["challenge"]["status"] == "declined"
    again = api.post(f"/api/bot/challenge/{second.pk}/accept")
    assert again.status_code == 400 and again.json()["error"]["code"] == "refused"
    theirs = social.create_challenge(alice, bob, variant="open_blot", fmt="first_to:501")
    assert api.post(f"/api/bot/challenge/{theirs.pk}/accept").status_code == 400
    assert Challenge.objects.get(pk=theirs.pk).status == "pending"


def test_a_rated_belote_challenge_with_a_bot_fills_the_other_seats(api_for, robot, alice) -> None:
    from games.services import social

    user, value = robot
    made = social.create_challenge(alice, user, variant="belote", fmt="first_to:1000", rated=True)
    api_for(value).post(f"/api/bot/challenge/{made.pk}/accept")
    table = Challenge.objects.get(pk=made.pk).table
    assert table.status == Table.Status.PLAYING
    levels = sorted(s.bot_level or "" for s in table.seats.all())
    assert levels == ["", "", "normal", "normal"]


def test_a_test_table_is_checked_as_the_site_checks_a_person_s(api_for, robot, settings) -> None:
    _user, value = robot
    api = api_for(value)
    for body in (
        {"variant": "chess"},
        {"variant": "open_blot", "levels": ["easy", "easy"]},
        {"variant": "open_blot", "levels": ["open"]},
        {"variant": "open_blot", "format": "first_to:7"},
        {"variant": "open_blot", "bot_delay_ms": 10**9},
        {"variant": "open_blot", "turn_seconds": "fast"},
    ):
        answer = api.post("/api/bot/table", body)
        assert answer.status_code == 400, (body, answer.content)
    assert not Table.objects.exists()
    settings.BLOT_BOT_TABLES_PER_USER = 1
    assert api.post("/api/bot/table", {"variant": "open_blot"}).status_code == 200
    answer = api.post("/api/bot/table", {"variant": "open_blot"})
    assert answer.status_code == 400 and "with bots running" in answer.json()["error"]["message"]


def test_a_bot_at_a_person_s_table_plays_through_the_api(api_for, robot, make_table, alice) -> None:
    user, _value = robot
    table = make_table(alice, "open_blot")
    join_seat(table.pk, user, 1)
    match = table.matches.get()
    where = state.bot_seat(user.pk, match.pk)
    assert where.seat == 1
    now = state.read_state(where)
    assert now["observation"]["seat"] == 1 and now["observation"]["hand_sizes"] == [12, 12]


def test_a_bot_s_clock_runs_out_as_a_person_s(api_for, robot) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games.live.plan.turns import plan

    user, value = robot
    made = _table(api_for(value), turn_seconds=5)
    now = _my_turn(api_for(value), user, made["match"])
    live = current(Table.objects.get(pk=made["table"]))
    assert live.engine.to_act == now["seat"]
    waiting = plan(live, timezone.now())
    assert waiting.level is None  # the bot's own turn, its clock running
    late = plan(live, waiting.at + timedelta(seconds=1))
    assert late.level == "normal" and late.stand_in  # a stand-in plays it, as for a person


def test_a_bot_resigns_and_says_only_quick_phrases(api_for, robot, settings) -> None:
    from games.models import ChatMessage, Match

    settings.BLOT_CHAT_BURST = (100, 10)
    _user, value = robot
    api = api_for(value)
    made = _table(api)
    said = api.post(f"/api/bot/match/{made['match']}/chat", {"phrase": "good-luck"})
    assert said.status_code == 200
    refused = api.post(f"/api/bot/match/{made['match']}/chat", {"text": "gg humans"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "refused"
    assert [m.phrase for m in ChatMessage.objects.all()] == ["good-luck"]
    assert api.post(f"/api/bot/match/{made['match']}/resign").status_code == 200
    match = Match.objects.get(pk=made["match"])
    assert match.status == Match.Status.FINISHED and match.winner == 1
    again = api.post(f"/api/bot/match/{made['match']}/resign")
    assert again.status_code == 409


def test_a_bot_that_left_its_seat_is_refused_with_403(
    api_for, robot, make_table, alice
) -> None:
    from games.services import seating

    user, value = robot
    table = make_table(alice, "open_blot")
    join_seat(table.pk, user, 1)
    match = table.matches.get()
    seating.leave(table.pk, user)  # alice plays on; a stand-in plays the bot's seat
    version = _version(table.pk)
    answer = api_for(value).post(
        f"/api/bot/match/{match.pk}/action",
        {"version": version, "action": {"seat": 1, "type": "pass"}},
    )
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_your_seat"
    assert _version(table.pk) == version
