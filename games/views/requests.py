"""What a view's request carries, for the type checker.

django-htmx's middleware adds ``request.htmx``, and ``login_required`` guarantees
``request.user`` is a real account; Django's own ``HttpRequest`` type knows
neither, so views declare which request they take (django-stubs' advice).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    htmx: HtmxDetails


class SignedInRequest(HtmxRequest):
    user: User
