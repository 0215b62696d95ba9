"""What a signed-in person is told on every page: the challenges waiting for
them (or for others), how their own challenges ended, and "your match is ready"
for their tournament matches.

Drawn from the rows as they are now, the same way for a page being loaded (the
template tags in ``games.templatetags.social``) and for a push over the person's
socket (``games.live.receive.person``), so a page that missed a push is put
right by the next one, or by reconnecting. Pushed fragments replace their
region by id (htmx's ws extension swaps each top-level element out of band).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html

from games.services import ratings, social
from games.services.tournaments import ready_matches

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

#: The page's element a ``paired`` or ``challenge-accepted`` push fills with the
#: table's address; the person's script (static/js/person.js) goes there.
GO_ID = "person-go"


def challenges_html(
    user: User | AnonymousUser, *, oob: bool = False, csrf_token: object = "", error: str = ""
) -> tuple[str, datetime | None]:
    """The person's challenge notices (with ``error`` said under them), and when
    they next change by themselves (a shown challenge expiring)."""
    shown = social.notices(user)
    _with_ratings([*shown.incoming, *shown.waiting])
    context = {
        "notices": shown,
        "viewer_id": user.pk,
        "oob": oob,
        "csrf_token": csrf_token,
        "error": error,
    }
    html = render_to_string("social/_notices.html", context)
    return html, shown.next_change()


def _with_ratings(challenges: list[Any]) -> None:
    """Each person a challenge names, with their rating in its game beside their
    name (``c.ratings``), read in one query."""
    roles = ("challenger", "challenged", "partner")
    wanted = [
        (getattr(c, f"{role}_id"), c.variant)
        for c in challenges
        for role in roles
        if getattr(c, f"{role}_id") is not None
    ]
    shown = ratings.labels(wanted)
    for c in challenges:
        c.ratings = {
            role: shown.get((getattr(c, f"{role}_id"), c.variant), "") for role in roles
        }


def your_matches_html(user: User, *, oob: bool = False, here: str = "") -> str:
    """The "your match is ready" banner of the person's tournament matches; not
    shown for the table at ``here`` (the page's path: they are at it already)."""
    context = {"ready": ready_matches(user), "oob": oob, "here": here}
    return render_to_string("tournaments/_your_matches_region.html", context)


def everything(user: User, language: str) -> tuple[str, datetime | None]:
    """Both regions, out of band, in ``language``: what a socket sends."""
    with translation.override(language):
        challenges, next_change = challenges_html(user, oob=True)
        return challenges + your_matches_html(user, oob=True), next_change


def go_html(url: str) -> str:
    """Send the page to ``url`` (a table)."""
    return format_html('<div id="{}" hidden data-go="{}"></div>', GO_ID, url)
