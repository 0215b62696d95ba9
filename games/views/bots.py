"""Bot accounts on the account page (becoming one, API tokens, the ladder's
variants) and the bot leaderboard."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms.bots import ApiTokenForm, BotAccountForm, BotLadderForm
from games.labels import VARIANT_SLUGS, slug_of
from games.models import Variant
from games.services import botladder, bots
from games.services.errors import ServiceError
from games.views.accounts import account_page
from games.views.requests import SignedInRequest


def _account_page(request: SignedInRequest, status: int = 200, **shown: Any) -> HttpResponse:
    answer = account_page(request, status=status, **shown)
    # A page that shows a new token is never kept by the browser or a proxy.
    answer["Cache-Control"] = "no-store"
    return answer


@login_required
@require_POST
def become_bot(request: SignedInRequest) -> HttpResponse:
    form = BotAccountForm(request.POST)
    if not form.is_valid():
        return _account_page(request, status=400, bot_form=form)
    try:
        bots.make_bot_account(request.user, confirmed=form.cleaned_data["confirm"])
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _account_page(request, status=400, bot_form=form)
    messages.success(request, _("This is a bot account now. Make a token for your bot below."))
    return redirect("profile_edit")


@login_required
@require_POST
def token_create(request: SignedInRequest) -> HttpResponse:
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _account_page(request, status=400, token_form=form)
    try:
        made = bots.create_token(
            request.user, name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"]
        )
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _account_page(request, status=400, token_form=form)
    # Shown in this answer only: the site keeps a digest, never the token.
    return _account_page(request, new_token=made)


@login_required
@require_POST
def token_revoke(request: SignedInRequest, pk: int) -> HttpResponse:
    try:
        bots.revoke_token(request.user, pk)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("The token is revoked: the bot's next call with it is refused.")
        )
    return redirect("profile_edit")


@login_required
@require_POST
def ladder(request: SignedInRequest) -> HttpResponse:
    form = BotLadderForm(request.POST)
    if form.is_valid():
        try:
            bots.set_ladder(request.user, form.cleaned_data["variants"])
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Your bot's ladder games are saved."))
    return redirect("profile_edit")


def bot_leaderboard(request: HttpRequest, variant: str = "belote") -> HttpResponse:
    engine_variant = VARIANT_SLUGS.get(variant)
    if engine_variant is None:
        raise Http404
    board = botladder.leaderboard(engine_variant)
    context = {
        "variant": engine_variant,
        "variant_label": Variant(engine_variant).label,
        "board": board,
        "ranked": any(row.rank for row in board),
        "variants": [(slug_of(v), label) for v, label in Variant.choices],
    }
    return render(request, "games/bot_leaderboard.html", context)
