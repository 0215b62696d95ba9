"""The Bot API's endpoints (docs/bot-api.md). Async views: a stream holds no
thread while it waits, and every database step runs in the live tables' own
database threads (``consumers.in_db``), as a socket's moves do."""

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

View = Callable[..., Awaitable[HttpResponseBase]]


def _language(request: HttpRequest) -> str:
    return getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE


def endpoint(method: str, scope: str | None) -> Callable[[View], Any]:
    """An API view: ``method`` only, a bearer token with ``scope``, counted
    against its limits, answered in JSON whatever goes wrong (an unexpected
    failure is logged without the request, so never with its token)."""

    # Any: django-stubs' path() does not know async views.
    def wrap(view: View) -> Any:
        @csrf_exempt  # a bearer token is not sent by a browser on its own: no CSRF
        @wraps(view)
        async def run(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
            language = _language(request)
            with translation.override(language):
                try:
                    if request.method != method:
                        used = _("Use %(method)s here.") % {"method": method}
                        raise ApiError(405, "method_not_allowed", used)
                    caller = await in_db(authorize)(request, scope)
                    if caller.slow:
                        await asyncio.sleep(settings.BLOT_API_SLOWDOWN_MS / 1000)
                    answer = await view(request, caller, **kwargs)
                except ApiError as exc:
                    return exc.response()
                except (DatabaseError, InterfaceError) as exc:
                    _failures.failed(exc)
                    return ApiError(
                        503, "unavailable", _("The site cannot answer now. Try again shortly.")
                    ).response()
                except Exception:
                    log.exception("Bot API: %s failed", view.__name__)
                    return ApiError(500, "failed", _("Something went wrong.")).response()
                _failures.recovered()
                return answer

        return run

    return wrap


def _ok(data: dict[str, Any]) -> JsonResponse:
    answer = JsonResponse(data)
    answer["Cache-Control"] = "no-store"
    return answer


def _stream(lines: Any) -> StreamingHttpResponse:
    answer = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    answer["Cache-Control"] = "no-store"
    answer["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return answer


@endpoint("GET", None)
async def account(request: HttpRequest, caller: Caller) -> HttpResponseBase:
    return _ok(await in_db(state.account)(caller))


@endpoint("GET", "play")
async def event_stream(request: HttpRequest, caller: Caller) -> HttpResponseBase:
    streams.take_stream(caller)
    return _stream(streams.event_stream(caller, _language(request)))


@endpoint("GET", "play")
async def match_stream(request: HttpRequest, caller: Caller, match_id: int) -> HttpResponseBase:
    where = await in_db(state.bot_seat)(caller.user_id, match_id)
    streams.take_stream(caller)
    return _stream(streams.match_stream(caller, where, _language(request)))


@endpoint("POST", "play")
async def action(request: HttpRequest, caller: Caller, match_id: int) -> HttpResponseBase:
    version, move = state.parse_move(json_body(request))
    stored = await in_db(state.play)(caller, match_id, version, move)
    return _ok({"ok": True, "version": stored})


@endpoint("POST", "play")
async def resign(request: HttpRequest, caller: Caller, match_id: int) -> HttpResponseBase:
    await in_db(state.resign)(caller, match_id)
    return _ok({"ok": True})


@endpoint("POST", "play")
async def chat(request: HttpRequest, caller: Caller, match_id: int) -> HttpResponseBase:
    await in_db(state.say)(caller, match_id, json_body(request))
    return _ok({"ok": True})


@endpoint("POST", "challenge")
async def challenge(request: HttpRequest, caller: Caller, username: str) -> HttpResponseBase:
    data = json_body(request)
    return _ok(await in_db(state.challenge)(caller, username, data))


@endpoint("POST", "challenge")
async def accept(request: HttpRequest, caller: Caller, challenge_id: int) -> HttpResponseBase:
    return _ok(await in_db(state.answer)(caller, challenge_id, True))


@endpoint("POST", "challenge")
async def decline(request: HttpRequest, caller: Caller, challenge_id: int) -> HttpResponseBase:
    return _ok(await in_db(state.answer)(caller, challenge_id, False))


@endpoint("POST", "challenge")
async def table(request: HttpRequest, caller: Caller) -> HttpResponseBase:
    data = json_body(request)
    address = ratelimit.client_address(request)
    return _ok(await in_db(state.table)(caller, data, address))

