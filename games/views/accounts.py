"""Sign-up, the player profile page and its edit form."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from games import ratelimit
from games.forms import ProfileForm, SignupForm
from games.models import Game, Match, Player, Variant
from games.models.players import default_display_name
from games.services import botladder, fairplay, ratings
from games.services.tournaments import tournaments_of
from games.views import rating_graph
from games.views.botsection import account_context
from games.views.requests import SignedInRequest

#: Two people asking for one name at the same instant: both pass the check, the
#: database's unique index lets one in; the other is asked to choose again.
NAME_JUST_TAKEN = gettext_lazy(
    "Someone else took that name a moment ago. Please choose another one."
)


def _signup_limit() -> ratelimit.Limit:
    return ratelimit.Limit(settings.BLOT_SIGNUPS_PER_ADDRESS_HOURLY, 3600)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method != "POST" or not form.is_valid():
        return render(request, "registration/signup.html", {"form": form})
    # Counted before the account is made (the password's hashing is the costly
    # part): of many sign-ups at once from one address exactly the limit get in.
    address = ratelimit.client_address(request) or "unknown"
    ticket = ratelimit.take("signup", address, _signup_limit())
    if ticket is None:
        form.add_error(
            None,
            _("Too many accounts were created from your network in the last hour. "
              "Please try again later."),
        )
        return render(request, "registration/signup.html", {"form": form}, status=429)
    try:
        user = form.save()
    except IntegrityError:  # the checks passed, then someone took the name first
        ticket.give_back()
        form.add_error(None, NAME_JUST_TAKEN)
        return render(request, "registration/signup.html", {"form": form})
    except BaseException:
        ticket.give_back()
        raise
    # The language the visitor was reading in (switcher cookie or browser)
    # becomes their profile's, which serves them from now on.
    language = translation.get_language()
    if language in dict(settings.LANGUAGES):
        Player.objects.filter(user=user).update(language=language)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Welcome to Blot!"))
    return fairplay.keep_device(request, redirect("lobby"))


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: dict | None = None
) -> HttpResponse:
    """django-axes' answer to a locked-out login (AXES_LOCKOUT_CALLABLE): the login
    page again, with a message saying how long to wait, status 429."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    form = AuthenticationForm(request, data=None)
    message = ngettext(
        "Too many failed attempts to log in. Please wait %(minutes)d minute and try again.",
        "Too many failed attempts to log in. Please wait %(minutes)d minutes and try again.",
        minutes,
    ) % {"minutes": minutes}
    context = {"form": form, "locked_out": message, "next": request.POST.get("next", "")}
    return render(request, "registration/login.html", context, status=429)


def _ratings(user) -> list[dict]:
    """The player's rating in each game (Belote, Coinche, Open Blot), with its
    history graph."""
    shown = []
    for variant, label in Game.choices:
        rating = ratings.rating_of(user.pk, variant)
        shown.append(
            {
                "variant": variant,
                "label": label,
                "rating": rating,
                "graph": rating_graph.draw(ratings.history(user.pk, variant)),
            }
        )
    return shown


def _bot_ratings(user) -> list[dict]:
    """A bot account's rating on the bot ladder in each variant."""
    found = botladder.ratings_of(user.pk)
    return [
        {"variant": variant, "label": label, "rating": found[variant]}
        for variant, label in Variant.choices
    ]


def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username)
    player, _created = Player.objects.get_or_create(
        user=user, defaults={"display_name": default_display_name(user.get_username(), user.pk)}
    )
    matches = Match.objects.filter(participants__user=user).select_related("table")
    own = request.user.is_authenticated and request.user.pk == user.pk
    if not own and not (request.user.is_authenticated and request.user.is_staff):
        # Others see the player's matches at public tables only.
        matches = matches.filter(Q(table__is_private=False))
    matches = matches.prefetch_related("participants", "deals").distinct()[:50]
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "stats": player.stats(),
            "matches": matches,
            "own": own,
            "tournament_entries": tournaments_of(user)[:50],
            "ratings": [] if player.is_bot else _ratings(user),
            "bot_ratings": _bot_ratings(user) if player.is_bot else [],
        },
    )


def account_page(
    request: SignedInRequest, *, form: ProfileForm | None = None, status: int = 200, **shown: Any
) -> HttpResponse:
    """The account page: the profile form and the bot section (``shown``: a bot
    form with its errors, or a token just made)."""
    if form is None:
        form = ProfileForm(instance=_own_player(request))
    context = {"form": form, **account_context(request.user, **shown)}
    return render(request, "games/profile_edit.html", context, status=status)


def _own_player(request: SignedInRequest) -> Player:
    player, _created = Player.objects.get_or_create(
        user=request.user,
        defaults={
            "display_name": default_display_name(request.user.get_username(), request.user.pk)
        },
    )
    return player


@login_required
@require_http_methods(["GET", "POST"])
def profile_edit(request: SignedInRequest) -> HttpResponse:
    player = _own_player(request)
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:  # the check passed, then someone took the name first
            form.add_error("display_name", NAME_JUST_TAKEN)
            return account_page(request, form=form)
        messages.success(request, _("Profile saved."))
        response = redirect(reverse("profile", args=[request.user.get_username()]))
        response.set_cookie(
            "django_language", player.language, samesite="Lax", secure=request.is_secure()
        )
        translation.activate(player.language)
        return response
    return account_page(request, form=form)
