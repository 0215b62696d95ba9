"""Bot accounts and their API tokens: the only code that makes a bot account,
and makes, finds or revokes a token.

A person turns their own account into a bot account once, for good, and only
while it has played no rated match as a person (a bot must not carry a person's
rating onto its own ladder). From then on its name is badged everywhere, it
never enters the Play-now pools, and it may say only the quick phrases.

A token is ``blot_`` and 43 URL-safe random characters. It is returned once,
by :func:`create_token`; the database keeps its SHA-256 digest and its first
characters (for the owner to tell tokens apart), never the token.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import (
    ApiToken,
    BotAccount,
    Participant,
    Player,
    PoolEntry,
    Seat,
    Table,
    Variant,
    names,
)
from games.services.errors import ServiceError

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

#: What every token starts with (it tells a leaked token for what it is).
TOKEN_PREFIX = "blot_"
#: Characters of the token shown on the account page to tell tokens apart.
SHOWN_CHARACTERS = 12
#: Active tokens one bot may hold.
MAX_TOKENS = 10
#: A token's last use is written at most this often (not at every call).
LAST_USED_EVERY = timedelta(minutes=1)
SCOPES = tuple(ApiToken.Scope.values)


def is_bot(user: AbstractBaseUser | None) -> bool:
    """Whether ``user`` is a bot account (False for nobody and signed-out visitors)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Player.objects.filter(user_id=user.pk, is_bot=True).exists()


def bot_ids(user_ids: list[int]) -> set[int]:
    """Which of ``user_ids`` are bot accounts."""
    return set(
        Player.objects.filter(user_id__in=user_ids, is_bot=True).values_list("user_id", flat=True)
    )


def why_not_bot(user: AbstractBaseUser) -> str | None:
    """Why ``user`` cannot become a bot account now, or ``None`` when it can."""
    if is_bot(user):
        return _("This account is already a bot account.")
    if getattr(user, "is_staff", False):
        return _("A staff account cannot become a bot account.")
    if Participant.objects.filter(user_id=user.pk, match__rated=True).exists():
        return _(
            "This account has played a rated match as a person, so it cannot become "
            "a bot account. Make a new account for your bot."
        )
    if Seat.objects.filter(
        user_id=user.pk, table__status__in=[Table.Status.WAITING, Table.Status.PLAYING]
    ).exists():
        return _("Leave or finish your tables first, then make this a bot account.")
    return None


def make_bot_account(user: AbstractBaseUser, *, confirmed: bool) -> BotAccount:
    """Turn ``user`` into a bot account, for good. ``confirmed``: the person ticked
    that they understand it cannot be undone."""
    if not confirmed:
        raise ServiceError(_("Tick the box to confirm that this cannot be undone."))
    with transaction.atomic():
        # One conversion at a time per person: the checks and the change together.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        reason = why_not_bot(user)
        if reason is not None:
            raise ServiceError(reason)
        PoolEntry.objects.filter(user_id=user.pk).delete()
        Player.objects.filter(user_id=user.pk).update(is_bot=True)
        return BotAccount.objects.create(user_id=user.pk)


def _bot_or_refuse(user: AbstractBaseUser) -> None:
    if not is_bot(user):
        raise ServiceError(_("Only a bot account has API tokens."))


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class NewToken:
    """A token just made: ``value`` is shown once and never stored."""

    row: ApiToken
    value: str


def create_token(user: AbstractBaseUser, *, name: str, scopes: list[str]) -> NewToken:
    """A new token for bot ``user`` with ``scopes`` (see ``ApiToken.Scope``)."""
    _bot_or_refuse(user)
    label = names.clean(name or "")
    if not label:
        raise ServiceError(_("Give the token a name, so you can tell it from the others."))
    if len(label) > 40:
        raise ServiceError(_("A token's name is at most 40 characters long."))
    chosen = sorted(set(scopes))
    if not chosen:
        raise ServiceError(_("Choose at least one scope for the token."))
    if any(scope not in SCOPES for scope in chosen):
        raise ServiceError(_("Unknown token scope."))
    value = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        active = ApiToken.objects.filter(user_id=user.pk, revoked_at__isnull=True).count()
        if active >= MAX_TOKENS:
            raise ServiceError(
                ngettext(
                    "A bot may have %(count)d active token. Revoke it before you make another.",
                    "A bot may have %(count)d active tokens. Revoke one before you make another.",
                    MAX_TOKENS,
                )
                % {"count": MAX_TOKENS}
            )
        row = ApiToken.objects.create(
            user_id=user.pk,
            name=label,
            digest=digest(value),
            prefix=value[:SHOWN_CHARACTERS],
            scopes=chosen,
        )
    return NewToken(row, value)


def revoke_token(user: AbstractBaseUser, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens; whether it was active. Every call made
    with it from now on is refused, and its open streams end."""
    updated = ApiToken.objects.filter(
        pk=token_id, user_id=user.pk, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    if not updated and not ApiToken.objects.filter(pk=token_id, user_id=user.pk).exists():
        raise ServiceError(_("There is no such token."))
    return bool(updated)


def tokens_of(user: AbstractBaseUser) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user_id=user.pk))


def authenticate(token: str) -> ApiToken | None:
    """The active token ``token`` is, with its user, or ``None`` (unknown,
    revoked, its account closed or no longer a bot's)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        return None
    row = (
        ApiToken.objects.select_related("user__player")
        .filter(digest=digest(token), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if row is None or not row.user.player.is_bot:
        return None
    now = timezone.now()
    if row.last_used_at is None or row.last_used_at < now - LAST_USED_EVERY:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row


def still_active(token_id: int) -> bool:
    """Whether the token is still good (an open stream asks now and then)."""
    return ApiToken.objects.filter(
        pk=token_id, revoked_at__isnull=True, user__is_active=True
    ).exists()


def set_ladder(user: AbstractBaseUser, variants: list[str]) -> list[str]:
    """The variants in which the worker may pair this bot for ladder matches."""
    _bot_or_refuse(user)
    chosen = sorted(set(variants))
    if any(v not in Variant.values for v in chosen):
        raise ServiceError(_("Unknown variant."))
    BotAccount.objects.filter(user_id=user.pk).update(ladder_variants=chosen)
    return chosen
