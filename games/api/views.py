"""The Bot API's endpoints (docs/bot-api.md). Async views: a stream holds no
thread while it waits, and every database step runs in the live tables' own
database threads (``consumers.in_db``), as a socket's moves do. A call is
checked (token, scope, limits) and done in one trip to those threads, unless it
is past the slow-down line: then it waits first."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.db import DatabaseError, InterfaceError
from django.http import HttpRequest, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games import ratelimit
from games.api import state, streams
from games.api.auth import ApiError, Caller, authorize, json_body
from games.live.receive.consumers import in_db
from games.runtime.lograte import RateLimitedLog

log = logging.getLogger(__name__)
_failures = RateLimitedLog(log, "A Bot API call")

#: A call's work, in a database thread: its JSON answer.
Work = Callable[..., dict[str, Any]]
#: A stream's opening, on the event loop.
Opening = Callable[..., Awaitable[HttpResponseBase]]


def _language(request: HttpRequest) -> str:
    return getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE


def _guarded(method: str, name: str, body: Callable[..., Awaitable[HttpResponseBase]]) -> Any:
    """``body(request, **kwargs)`` for ``method`` only, answered in JSON whatever
    goes wrong (an unexpected failure is logged without the request, so never
    with its token). Any: django-stubs' path() does not know async views."""

    @csrf_exempt  # a bearer token is not sent by a browser on its own: no CSRF
    async def run(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        with translation.override(_language(request)):
            try:
                if request.method != method:
                    used = _("Use %(method)s here.") % {"method": method}
                    raise ApiError(405, "method_not_allowed", used)
                answer = await body(request, **kwargs)
            except ApiError as exc:
                return exc.response()
            except (DatabaseError, InterfaceError) as exc:
                _failures.failed(exc)
                return ApiError(
                    503, "unavailable", _("The site cannot answer now. Try again shortly.")
                ).response()
            except Exception:
                log.exception("Bot API: %s failed", name)
                return ApiError(500, "failed", _("Something went wrong.")).response()
            _failures.recovered()
            return answer

    return run


def _slow_down() -> Awaitable[None]:
    return asyncio.sleep(settings.BLOT_API_SLOWDOWN_MS / 1000)


def call(method: str, scope: str | None) -> Callable[[Work], Any]:
    """An API call: checked and done in one trip to the database threads."""

    def wrap(work: Work) -> Any:
        def checked_and_done(request: HttpRequest, kwargs: dict[str, Any]):
            caller = authorize(request, scope)
            if caller.slow:
                return caller, None  # the work waits for the slow-down first
            return caller, work(request, caller, **kwargs)

        @wraps(work)
        async def body(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
            caller, answer = await in_db(checked_and_done)(request, kwargs)
            if answer is None:
                await _slow_down()
                answer = await in_db(work)(request, caller, **kwargs)
            reply = JsonResponse(answer)
            reply["Cache-Control"] = "no-store"
            return reply

        return _guarded(method, work.__name__, body)

    return wrap


def stream(scope: str) -> Callable[[Opening], Any]:
    """An NDJSON stream: checked, then opened by ``opening`` on the event loop."""

    def wrap(opening: Opening) -> Any:
        @wraps(opening)
        async def body(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
            caller = await in_db(authorize)(request, scope)
            if caller.slow:
                await _slow_down()
            return await opening(request, caller, **kwargs)

        return _guarded("GET", opening.__name__, body)

    return wrap


def _lines(lines: Any) -> StreamingHttpResponse:
    answer = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    answer["Cache-Control"] = "no-store"
    answer["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return answer


@call("GET", None)
def account(request: HttpRequest, caller: Caller) -> dict[str, Any]:
    return state.account(caller)


@stream("play")
async def event_stream(request: HttpRequest, caller: Caller) -> HttpResponseBase:
    streams.check_room(caller)
    return _lines(streams.event_stream(caller, _language(request)))


@stream("play")
async def match_stream(request: HttpRequest, caller: Caller, match_id: int) -> HttpResponseBase:
    where = await in_db(state.bot_seat)(caller.user_id, match_id)
    streams.check_room(caller)
    return _lines(streams.match_stream(caller, where, _language(request)))


@call("POST", "play")
def action(request: HttpRequest, caller: Caller, match_id: int) -> dict[str, Any]:
    version, move = state.parse_move(json_body(request))
    return {"ok": True, "version": state.play(caller, match_id, version, move)}


@call("POST", "play")
def resign(request: HttpRequest, caller: Caller, match_id: int) -> dict[str, Any]:
    state.resign(caller, match_id)
    return {"ok": True}


@call("POST", "play")
def chat(request: HttpRequest, caller: Caller, match_id: int) -> dict[str, Any]:
    state.say(caller, match_id, json_body(request))
    return {"ok": True}


@call("POST", "challenge")
def challenge(request: HttpRequest, caller: Caller, username: str) -> dict[str, Any]:
    return state.challenge(caller, username, json_body(request))


@call("POST", "challenge")
def accept(request: HttpRequest, caller: Caller, challenge_id: int) -> dict[str, Any]:
    return state.answer(caller, challenge_id, True)


@call("POST", "challenge")
def decline(request: HttpRequest, caller: Caller, challenge_id: int) -> dict[str, Any]:
    return state.answer(caller, challenge_id, False)


@call("POST", "challenge")
def table(request: HttpRequest, caller: Caller) -> dict[str, Any]:
    return state.table(caller, json_body(request), ratelimit.client_address(request))
