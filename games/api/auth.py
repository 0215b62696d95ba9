"""Who is calling the Bot API, whether they may, and how fast.

A call carries ``Authorization: Bearer <token>``; the token names a bot account
(``games.services.bots.authenticate``). Each token has a budget of calls per
minute, counted in the shared cache so it holds across every Daphne: past
``BLOT_API_SLOW_AFTER_PER_MINUTE`` a call is answered only after
``BLOT_API_SLOWDOWN_MS``; past ``BLOT_API_CALLS_PER_MINUTE`` it is refused with
429 and ``Retry-After`` (the seconds left in the minute). Calls with a missing or
unknown token are counted per address with the same budget, before any
database lookup, so guessing tokens is slowed too.

Every refusal is an :class:`ApiError`: a status, a stable ``code`` for programs
and a sentence for people, in the request's language. No answer, log line or
error ever repeats the token.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games import ratelimit
from games.live.submit.play import MAX_MESSAGE_BYTES, Refused, parse_client_message
from games.services import bots

MINUTE = 60


class ApiError(Exception):
    """A refused call: nothing was changed."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.message = str(message)
        self.headers = headers or {}

    def response(self) -> JsonResponse:
        answer = JsonResponse(
            {"error": {"code": self.code, "message": self.message}}, status=self.status
        )
        for name, value in self.headers.items():
            answer[name] = value
        answer["Cache-Control"] = "no-store"
        # A refusal is the API's ordinary answer, as a refused move is a socket's:
        # Django's request log would write a line for each (a flooding bot would
        # fill the log), so it is marked as already logged.
        answer._has_been_logged = True  # type: ignore[attr-defined]
        return answer


@dataclass(frozen=True)
class Caller:
    """A bot, as its token names it."""

    token_id: int
    user_id: int
    username: str
    scopes: tuple[str, ...]
    #: Past the slow-down line: answer after ``BLOT_API_SLOWDOWN_MS``.
    slow: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    kind, _space, value = header.partition(" ")
    if kind.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def unauthorized() -> ApiError:
    return ApiError(
        401,
        "unauthorized",
        _("This call needs a valid API token, sent as “Authorization: Bearer <token>”."),
        {"WWW-Authenticate": 'Bearer realm="blot"'},
    )


def _limits() -> tuple[ratelimit.Limit, int]:
    hard = ratelimit.Limit(settings.BLOT_API_CALLS_PER_MINUTE, MINUTE)
    return hard, settings.BLOT_API_SLOW_AFTER_PER_MINUTE


def _too_many(limit: ratelimit.Limit) -> ApiError:
    left = max(1, math.ceil(limit.seconds - time.time() % limit.seconds))
    return ApiError(
        429,
        "rate_limited",
        _(
            "Too many calls from this token: at most %(count)d a minute. "
            "Try again in %(seconds)d s."
        )
        % {"count": limit.count, "seconds": left},
        {"Retry-After": str(left)},
    )


def _count(scope: str, who: str) -> bool:
    """Count one call; whether it is past the slow-down line. Raises 429 past the limit."""
    hard, slow_after = _limits()
    ticket = ratelimit.take(scope, who, hard)
    if ticket is None:
        raise _too_many(hard)
    return ratelimit.used(scope, who, hard) > slow_after


def authorize(request: HttpRequest, scope: str | None) -> Caller:
    """The calling bot, its call counted; :class:`ApiError` when it may not call."""
    token = bearer(request)
    address = ratelimit.client_address(request) or "unknown"
    if token is None:
        _count("api-anonymous", address)
        raise unauthorized()
    hard, _slow_after = _limits()
    # Unknown tokens count against the address, before the database is asked.
    if ratelimit.exceeded("api-anonymous", address, hard):
        raise _too_many(hard)
    row = bots.authenticate(token)
    if row is None:
        _count("api-anonymous", address)
        raise unauthorized()
    slow = _count("api", str(row.pk))
    if scope is not None and scope not in row.scopes:
        raise ApiError(
            403,
            "missing_scope",
            _("This token does not have the “%(scope)s” scope.") % {"scope": scope},
        )
    return Caller(row.pk, row.user_id, row.user.get_username(), tuple(row.scopes), slow)


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object (or its form fields), parsed as a move sent over
    a table's socket is (``play.parse_client_message``: its size limit, no
    Infinity or NaN, no stack-deep nesting, an object)."""
    body = request.body
    if len(body) > MAX_MESSAGE_BYTES:
        raise ApiError(413, "too_large", _("The request body is too large."))
    content_type = request.headers.get("Content-Type", "")
    if not body or not content_type.startswith("application/json"):
        return {key: request.POST.get(key) for key in request.POST}
    try:
        return parse_client_message(body)
    except Refused as exc:
        raise ApiError(400, "bad_json", str(exc.message)) from None
