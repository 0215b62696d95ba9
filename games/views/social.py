"""Following players, the list of people you follow, and challenges
(games.services.social). Answers to a challenge come from the notices every
page shows: with htmx the notices are answered in place (and a challenge that
starts a match sends the page to its table); without, by redirects."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from games.forms.social import ChallengeForm
from games.live.draw import notices
from games.live.store.presence import online
from games.services import ServiceError, social


def _htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _player_page(username: str) -> str:
    return reverse("profile", args=[username])


@login_required
@require_POST
def follow(request: HttpRequest, username: str, action: str) -> HttpResponse:
    other = get_object_or_404(get_user_model(), username=username, is_active=True)
    try:
        if action == "follow":
            social.follow(request.user, other)
        elif action == "unfollow":
            social.unfollow(request.user, other)
        else:
            raise Http404
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect(_back(request, _player_page(username)))


@login_required
@require_POST
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(get_user_model(), username=username, is_active=True)
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect(_player_page(username) + "#challenge")
    try:
        social.create_challenge(
            request.user,
            other,
            variant=form.cleaned_data["variant"],
            fmt=form.cleaned_data["format"],
            rated=form.cleaned_data["rated"],
            partner_name=form.cleaned_data["partner"],
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(_player_page(username) + "#challenge")
    minutes = int(social.ttl().total_seconds() // 60)
    messages.success(
        request,
        ngettext(
            "Challenge sent. It expires if nobody answers within %(minutes)d minute.",
            "Challenge sent. It expires if nobody answers within %(minutes)d minutes.",
            minutes,
        )
        % {"minutes": minutes},
    )
    return redirect(_player_page(username))


_ANSWERS = {
    "accept": social.accept,
    "decline": social.decline,
    "cancel": social.cancel,
    "dismiss": social.dismiss,
}


@login_required
@require_POST
def challenge_answer(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    answer = _ANSWERS.get(action)
    if answer is None:
        raise Http404
    try:
        result = answer(pk, request.user)
    except ServiceError as exc:
        if _htmx(request):
            return _notices_response(request, exc.message)
        messages.error(request, exc.message)
        return redirect(_back(request, reverse("lobby")))
    table = getattr(result, "table", None)
    if action == "accept" and table is not None:
        if _htmx(request):
            response = HttpResponse(status=204)
            response["HX-Redirect"] = table.get_absolute_url()
            return response
        return redirect(table.get_absolute_url())
    if _htmx(request):
        return _notices_response(request)
    return redirect(_back(request, reverse("lobby")))


def _notices_response(request: HttpRequest, error: str = "") -> HttpResponse:
    """The person's notices as they are now, replacing the page's (with the error)."""
    assert request.user.is_authenticated  # the views are login_required
    html, _next = notices.challenges_html(request.user, oob=True, error=error)
    return HttpResponse(html)


def _back(request: HttpRequest, default: str) -> str:
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return default


@login_required
@require_GET
def following(request: HttpRequest) -> HttpResponse:
    """The people you follow: who is online, and what they are playing."""
    assert request.user.is_authenticated
    people = social.followed(request.user)
    ids = [person.pk for person in people]
    here = online(ids)
    playing = social.tables_playing(ids)
    rows = [
        {"user": person, "online": person.pk in here, "tables": playing.get(person.pk, [])}
        for person in people
    ]
    rows.sort(key=lambda row: not row["online"])  # online first, each part by name
    return render(request, "social/following.html", {"rows": rows, "title": _("People you follow")})
