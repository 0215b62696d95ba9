"""Sign-up, the player profile page and its edit form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.forms import ProfileForm, SignupForm
from games.models import Match, Player
from games.services.tournaments import tournaments_of


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Blot!"))
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username)
    player, _created = Player.objects.get_or_create(
        user=user, defaults={"display_name": user.get_username()[:40]}
    )
    matches = Match.objects.filter(participants__user=user).select_related("table")
    own = request.user.is_authenticated and request.user.pk == user.pk
    if not own and not (request.user.is_authenticated and request.user.is_staff):
        # Others see the player's matches at public tables only.
        matches = matches.filter(Q(table__is_private=False))
    matches = matches.prefetch_related("participants").distinct()[:50]
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "stats": player.stats(),
            "matches": matches,
            "own": own,
            "tournament_entries": tournaments_of(user)[:50],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def profile_edit(request: HttpRequest) -> HttpResponse:
    player, _created = Player.objects.get_or_create(
        user=request.user, defaults={"display_name": request.user.get_username()[:40]}
    )
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Profile saved."))
        response = redirect(reverse("profile", args=[request.user.get_username()]))
        response.set_cookie(
            "django_language", player.language, samesite="Lax", secure=request.is_secure()
        )
        translation.activate(player.language)
        return response
    return render(request, "games/profile_edit.html", {"form": form})
