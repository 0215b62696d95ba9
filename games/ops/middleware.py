"""Every request counted (``blot_http_requests`` by view and status, its time
in ``blot_http_request_seconds``) and logged as one structured line on
``blot.requests``: its id, method, view, route, the table or match it names,
status, time and user id. Never the query string, a header or a body; the
route is the URL's pattern, so no token in a path is written either.

The request id is the proxy's ``X-Request-ID`` (nginx ``$request_id``, see
deploy/nginx/blot.conf) when it is a plain token, else a new one; it is sent
back in the answer's ``X-Request-ID``.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games.runtime import metrics

log = logging.getLogger("blot.requests")

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
#: A URL's ``pk`` by its first segment: the field that ties a line to a table or match.
_IDS = {"tables": "table_id", "matches": "match_id", "tournaments": "tournament_id"}


def request_id(request: HttpRequest) -> str:
    given = request.META.get("HTTP_X_REQUEST_ID", "")
    return given if _REQUEST_ID.match(given) else uuid.uuid4().hex


class RequestMetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.perf_counter()
        rid = request_id(request)
        request.META["BLOT_REQUEST_ID"] = rid
        response = self.get_response(request)
        seconds = time.perf_counter() - start
        match = request.resolver_match
        view = (match.view_name or "unnamed") if match is not None else "unmatched"
        metrics.requests.labels(view=view, status=str(response.status_code)).inc()
        metrics.request_seconds.labels(view=view).observe(seconds)
        response["X-Request-ID"] = rid
        if log.isEnabledFor(logging.INFO):
            user = getattr(request, "user", None)
            fields = {
                "event": "request",
                "request_id": rid,
                "method": request.method,
                "view": view,
                "route": match.route if match is not None else None,
                "status": response.status_code,
                "ms": round(seconds * 1000, 1),
                "user_id": user.pk if user is not None and user.is_authenticated else None,
            }
            if match is not None and "pk" in match.kwargs:
                named = _IDS.get(str(match.route).split("/", 1)[0])
                if named is not None:
                    fields[named] = match.kwargs["pk"]
            log.info("request", extra={"blot": {k: v for k, v in fields.items() if v is not None}})
        return response
