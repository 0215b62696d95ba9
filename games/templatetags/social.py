"""What every page shows a signed-in person of their challenges and tournament
matches, drawn by the same code the person's socket pushes
(``games.live.draw.notices``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games import labels
from games.forms.social import ChallengeForm
from games.live.draw import notices
from games.services import social

register = template.Library()


def _user(context: template.Context) -> Any:
    return context.get("user")


@register.simple_tag(takes_context=True)
def person_notices(context: template.Context) -> SafeString:
    user = _user(context)
    if user is None or not user.is_authenticated:
        return mark_safe("")
    html, _next = notices.challenges_html(user, csrf_token=context.get("csrf_token", ""))
    return mark_safe(html)


@register.simple_tag(takes_context=True)
def your_matches(context: template.Context) -> SafeString:
    user = _user(context)
    if user is None or not user.is_authenticated:
        return mark_safe("")
    request = context.get("request")
    here = request.path if request is not None else ""
    return mark_safe(notices.your_matches_html(user, here=here))


@register.inclusion_tag("social/_player_actions.html", takes_context=True)
def player_social(context: template.Context, person: Any) -> dict[str, object]:
    """Follow / unfollow and the challenge form, on another player's page."""
    viewer = _user(context)
    return {
        "viewer": viewer,
        "person": person,
        "following": social.is_following(viewer, person),
        "form": ChallengeForm(),
        "csrf_token": context.get("csrf_token", ""),
        "request": context.get("request"),
    }


@register.filter
def person_name(user: Any) -> str:
    """A person as others see them: their display name (their username before
    they have a profile), with the bot mark for a bot account; nobody: empty."""
    if user is None:
        return ""
    player = getattr(user, "player", None)
    name = player.display_name if player is not None else user.get_username()
    if labels.is_bot_account(user):
        return format_html("{}{}", name, labels.bot_badge())
    return name
