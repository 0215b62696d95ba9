"""What the Bot API reads and does in the database (each function runs in one of
the database threads; the views and streams around them are async).

A bot's view of its match is the engine's observation for its seat
(``engine.observe``), the same the built-in bots decide from and the table's
page is drawn from: nothing of another seat's hidden cards can reach it.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext as _

from engine.actions import Action
from engine.errors import EngineError, IllegalAction
from engine.match import MatchFormat
from engine.observe import observe
from engine.rules import SEATS
from games.api.auth import ApiError, Caller
from games.live.store import rows
from games.live.submit.play import NotAllowed, NotYourSeat, Refused, StaleVersion, submit
from games.models import (
    Challenge,
    Deal,
    Match,
    Participant,
    Room,
    RuleSetConfig,
    ScoreRow,
    Seat,
    Table,
)
from games.services import botladder, seating, social
from games.services import chat as chat_service
from games.services.errors import ServiceError
from games.services.matches import deal_next_for
from games.services.tables import create_table


@dataclass(frozen=True)
class BotSeat:
    """Where a bot sits in one match (and whether it was being played when asked)."""

    match_id: int
    table_id: int
    seat: int
    variant: str
    user_id: int
    playing: bool = True


def not_your_match() -> ApiError:
    return ApiError(404, "not_found", _("You play no match with this number."))


def bot_seat(user_id: int, match_id: int) -> BotSeat:
    """The bot's seat in ``match_id``; 404 for a match it does not play (another
    bot's match is as unknown as a match that does not exist)."""
    row = (
        Participant.objects.filter(match_id=match_id, user_id=user_id)
        .select_related("match")
        .first()
    )
    if row is None:
        raise not_your_match()
    match = row.match
    playing = match.status == Match.Status.PLAYING
    return BotSeat(row.match_id, match.table_id, row.index, match.variant, user_id, playing)


#: What a state is read from, and their aliases in its one statement.
_SNAPSHOT = ((Match, "m"), (Seat, "s"), (Deal, "d"), (ScoreRow, "r"))


def _snapshot(where: BotSeat) -> tuple[Match, int, Seat, Deal | None, ScoreRow | None]:
    """The match, the table's version, the bot's seat, the match's newest deal and
    its newest score row, in one statement: one snapshot of the database, so the
    version belongs to the deal read with it (plain SQL, as the move's own reads
    are, ``games.live.store.rows``: no query is compiled on this path)."""
    q = rows.quote
    shapes = [rows.shape(model, alias) for model, alias in _SNAPSHOT]

    def col(alias: str, name: str) -> str:
        return f"{q(alias)}.{q(name)}"

    def newest(model: type[Deal] | type[ScoreRow], alias: str) -> str:
        """``alias`` (a deal or a score row) is the match's newest one."""
        return (
            f"{col(alias, 'match_id')} = {col('m', 'id')} AND {col(alias, 'number')} = "
            f"(SELECT MAX({col('x', 'number')}) FROM {q(model._meta.db_table)} {q('x')} "
            f"WHERE {col('x', 'match_id')} = {col('m', 'id')})"
        )

    sql = (
        f"SELECT {col('t', 'version')}, {', '.join(shape.columns for shape in shapes)} "
        f"FROM {q(Match._meta.db_table)} {q('m')} "
        f"INNER JOIN {q(Table._meta.db_table)} {q('t')} "
        f"ON {col('t', 'id')} = {col('m', 'table_id')} "
        f"INNER JOIN {q(Seat._meta.db_table)} {q('s')} "
        f"ON {col('s', 'table_id')} = {col('t', 'id')} AND {col('s', 'index')} = %s "
        f"LEFT JOIN {q(Deal._meta.db_table)} {q('d')} ON {newest(Deal, 'd')} "
        f"LEFT JOIN {q(ScoreRow._meta.db_table)} {q('r')} ON {newest(ScoreRow, 'r')} "
        f"WHERE {col('m', 'id')} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [where.seat, where.match_id])
        row = cursor.fetchone()
    if row is None:
        raise not_your_match()
    built, start = [], 1
    for shape in shapes:
        present = row[start] is not None  # the primary key comes first
        built.append(shape.build(row, start=start) if present else None)
        start += len(shape.attnames)
    match, seat, deal, score = built
    assert match is not None and seat is not None  # inner joins: both are there
    return match, row[0], seat, deal, score


def read_state(where: BotSeat) -> dict[str, Any]:
    """One line of the match stream: the bot seat's view now."""
    match, version, seat, deal, score = _snapshot(where)
    playing = match.status == Match.Status.PLAYING
    state: dict[str, Any] = {
        "type": "state",
        "version": version,
        "match": where.match_id,
        "seat": where.seat,
        "deal": None if deal is None else deal.number,
        "to_act": None,
        "legal": [],
        "observation": None,
        "score": list(score.totals) if score is not None else [0, 0],
        "over": not playing,
        "winner": None if playing else match.winner,
    }
    if deal is None:
        return state
    deal.match = match  # the record needs its variant and rules: no query for them
    obs = observe(deal.rebuild(), where.seat)
    deal_open = playing and deal.status == Deal.Status.PLAYING
    state["observation"] = obs.to_dict()
    if deal_open:
        state["to_act"] = obs.to_act
        # A seat its bot left is played by a stand-in: nothing for the bot to send.
        if seat.left_at is None:
            state["legal"] = [a.to_dict() for a in obs.legal]
    return state


def between_deals(state: dict[str, Any]) -> bool:
    """The state shows a finished deal of a match still being played."""
    obs = state.get("observation")
    return not state["over"] and obs is not None and obs.get("result") is not None


def read_on(where: BotSeat) -> None:
    """The bot has its finished deal's result: when it is the one player at the
    table (the rest are built-in bots), deal the next deal now, as a person
    alone with bots does with "Next deal". At a table with others the table's
    pause decides (the service refuses; nothing changes)."""
    user = get_user_model().objects.get(pk=where.user_id)
    with contextlib.suppress(ServiceError):
        deal_next_for(where.table_id, user)


# --- moves -------------------------------------------------------------------------------

#: A table version is a small count of moves; anything longer is not one.
_VERSION_LIMIT = 10**15


def parse_move(data: dict[str, Any]) -> tuple[int, Action]:
    """``{"version": n, "action": {canonical action}}``; 400 for anything else."""
    version = data.get("version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or not 0 <= version < _VERSION_LIMIT
    ):
        raise ApiError(
            400, "bad_version", _("The move does not say which table version it was made on.")
        )
    try:
        action = Action.from_dict(data.get("action"))
    except (IllegalAction, TypeError, ValueError):
        raise ApiError(
            400, "bad_action", _("The action is not in the canonical form (see docs/bot-api.md).")
        ) from None
    return version, action


def play(caller: Caller, match_id: int, version: int, action: Action) -> int:
    """Submit the bot's move through the one checked path; the new version."""
    where = bot_seat(caller.user_id, match_id)
    if action.seat != where.seat:
        raise ApiError(403, "not_your_seat", _("You can only act for your own seat."))
    if not where.playing:
        raise ApiError(409, "match_over", _("This match is over."))
    try:
        return submit(where.table_id, action, version, user_id=caller.user_id)
    except StaleVersion as exc:
        raise ApiError(409, "stale_version", str(exc.message)) from None
    except NotAllowed as exc:
        raise ApiError(422, "illegal_action", str(exc.message)) from None
    except NotYourSeat as exc:
        raise ApiError(403, "not_your_seat", str(exc.message)) from None
    except Refused as exc:
        # A seat a bot or a stand-in plays now (the bot's seat taken by a bot,
        # or left), or no deal being played (between deals). Asked only now:
        # a move that goes through costs no query for it.
        mine = Seat.objects.filter(
            table_id=where.table_id,
            index=where.seat,
            user_id=caller.user_id,
            bot_level__isnull=True,
            left_at__isnull=True,
        ).exists()
        if not mine:
            raise ApiError(403, "not_your_seat", str(exc.message)) from None
        raise ApiError(409, "not_playing", str(exc.message)) from None


def resign(caller: Caller, match_id: int) -> None:
    """The bot gives up its match, as a person does (``services.seating.resign``)."""
    where = bot_seat(caller.user_id, match_id)
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).get()
    if status != Match.Status.PLAYING:
        raise ApiError(409, "match_over", _("This match is over."))
    user = get_user_model().objects.get(pk=caller.user_id)
    _service(seating.resign, where.table_id, user)


def say(caller: Caller, match_id: int, data: dict[str, Any]) -> None:
    """A quick phrase in the match's players' room (a bot account says nothing else)."""
    where = bot_seat(caller.user_id, match_id)
    user = get_user_model().objects.get(pk=caller.user_id)
    room = chat_service.Where(Room.PLAYERS, where.table_id)
    _service(chat_service.post, room, user, phrase=data.get("phrase"), text=data.get("text"))


# --- the event stream ----------------------------------------------------------------------


@dataclass
class Snapshot:
    """What a bot's event stream compares against what it already said."""

    challenges: dict[int, dict[str, Any]]
    playing: dict[int, dict[str, Any]]
    finished: dict[int, dict[str, Any]]


def _name(user: Any) -> str | None:
    return None if user is None else user.get_username()


def challenge_view(c: Challenge) -> dict[str, Any]:
    return {
        "id": c.pk,
        "challenger": _name(c.challenger),
        "challenged": _name(c.challenged),
        "partner": _name(c.partner),
        "variant": c.variant,
        "format": c.format,
        "rated": c.rated,
        "status": c.status,
        "expires_at": c.expires_at.isoformat(),
    }


def _match_view(p: Participant) -> dict[str, Any]:
    match = p.match
    return {
        "match": match.pk,
        "table": match.table_id,
        "seat": p.index,
        "variant": match.variant,
        "format": match.format,
        "rated": match.rated,
        "winner": match.winner,
    }


def snapshot(user_id: int, started: set[int]) -> Snapshot:
    """The challenges waiting for this bot's answer, its matches being played,
    and which of ``started`` (matches it was told of) have finished."""
    notices = social.notices(get_user_model().objects.get(pk=user_id))
    rows = Participant.objects.select_related("match").filter(user_id=user_id)
    playing = rows.filter(match__status=Match.Status.PLAYING)
    ended = rows.filter(match_id__in=list(started), match__status=Match.Status.FINISHED)
    return Snapshot(
        challenges={c.pk: challenge_view(c) for c in notices.incoming},
        playing={p.match_id: _match_view(p) for p in playing},
        finished={p.match_id: _match_view(p) for p in ended},
    )


# --- challenges, tables, account -------------------------------------------------------------


def _service(fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except ServiceError as exc:
        raise ApiError(400, "refused", str(exc.message)) from None


def account(caller: Caller) -> dict[str, Any]:
    user = get_user_model().objects.select_related("player").get(pk=caller.user_id)
    return {
        "id": user.pk,
        "username": user.get_username(),
        "name": user.player.display_name,
        "bot": True,
        "ratings": {
            variant: {"rating": r.shown, "matches": r.matches, "provisional": r.provisional}
            for variant, r in botladder.ratings_of(user.pk).items()
        },
        "token": {"scopes": list(caller.scopes)},
    }


def challenge(caller: Caller, username: str, data: dict[str, Any]) -> dict[str, Any]:
    user = get_user_model().objects.get(pk=caller.user_id)
    variant = _text(data.get("variant"))
    fmt = _text(data.get("format")) or _default_format(variant)
    made = _service(
        social.create_challenge,
        user,
        social.find_person(username),
        variant=variant,
        fmt=fmt,
        rated=_flag(data.get("rated")),
        partner_name=_text(data.get("partner")),
    )
    return {"challenge": challenge_view(made)}


def answer(caller: Caller, challenge_id: int, accept: bool) -> dict[str, Any]:
    user = get_user_model().objects.get(pk=caller.user_id)
    done = _service(social.accept if accept else social.decline, challenge_id, user)
    match_id = None
    if done.table_id is not None:
        match_id = Match.objects.filter(table_id=done.table_id).values_list("pk", flat=True).first()
    return {"challenge": challenge_view(done), "match": match_id}


#: What a test table may set besides its variant, format and bots (the table
#: form's limits apply: the model validates them).
TABLE_TIMINGS = ("turn_seconds", "bot_delay_ms", "trick_pause_ms")


def table(caller: Caller, data: dict[str, Any], address: str | None) -> dict[str, Any]:
    """A table against built-in bots, the match started at once (for testing a bot)."""
    user = get_user_model().objects.get(pk=caller.user_id)
    variant = _text(data.get("variant"))
    if variant not in SEATS:
        raise ApiError(400, "refused", _("Unknown variant."))
    levels = data.get("levels")
    if levels is None:
        levels = ["normal"] * (SEATS[variant] - 1)
    if not isinstance(levels, list) or len(levels) != SEATS[variant] - 1 or not all(
        level in ("easy", "normal", "hard") for level in levels
    ):
        raise ApiError(
            400,
            "refused",
            _("Give one level (easy, normal or hard) for each other seat: %(count)d in all.")
            % {"count": SEATS[variant] - 1},
        )
    timing: dict[str, int] = {}
    for name in TABLE_TIMINGS:
        raw = data.get(name)
        if raw is None:
            continue
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ApiError(400, "refused", _("Table timings are whole numbers."))
        timing[name] = raw
    rule_set = RuleSetConfig.objects.filter(variant=variant, is_default=True).first()
    if rule_set is None:
        raise ApiError(400, "refused", _("This variant has no default rule set."))
    made = _service(
        create_table,
        user=user,
        variant=variant,
        fmt=_text(data.get("format")) or _default_format(variant),
        rule_set=rule_set,
        others=levels,
        address=address,
        **timing,
    )
    match_id = Match.objects.filter(table_id=made.pk).values_list("pk", flat=True).get()
    return {"match": match_id, "table": made.pk, "seat": 0, "url": made.get_absolute_url()}


def _text(raw: Any) -> str:
    return raw.strip() if isinstance(raw, str) else ""


def _flag(raw: Any) -> bool:
    return raw is True or (isinstance(raw, str) and raw.strip().lower() in ("true", "1", "on"))


def _default_format(variant: str) -> str:
    try:
        return str(MatchFormat.default(variant))
    except EngineError:  # an unknown variant: the service says so
        return ""
