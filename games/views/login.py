"""The login page, judging attempts sent at once one after another.

django-axes counts failed logins in the database and refuses a username or an
address past ``AXES_FAILURE_LIMIT``, but it reads the count before the password
is checked and writes it after: forty attempts sent at once all read the same
count, and most were judged. Here the attempts for one username, and from one
address, take turns (a lock in the shared cache), so each reads the failures
the previous one stored and exactly the limit's worth are checked. Axes stays
the record (its counts live in the database and still hold when the cache is
away).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from games import ratelimit
from games.services import fairplay
from games.views.accounts import locked_out


class LoginView(auth_views.LoginView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = str(request.POST.get("username", ""))[:150].casefold()
        address = ratelimit.client_address(request) or "unknown"
        try:
            # Always the username's turn first, then the address's: one order,
            # so two attempts never wait for each other's second lock.
            with (
                ratelimit.one_at_a_time("login:username", username),
                ratelimit.one_at_a_time("login:address", address),
            ):
                # The browser's id is made at login if it had none (fair play).
                return fairplay.keep_device(request, super().post(request, *args, **kwargs))
        except ratelimit.TurnTimeout:  # a flood of attempts ahead of this one
            return locked_out(request)
