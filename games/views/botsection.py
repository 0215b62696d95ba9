"""The account page's bot section: the upgrade to a bot account, or a bot's
API tokens and ladder games (drawn by ``games.views.accounts``; the forms are
answered by ``games.views.bots``)."""

from __future__ import annotations

from typing import Any

from games.forms.bots import ApiTokenForm, BotAccountForm, BotLadderForm
from games.models import BotAccount
from games.services import bots


def account_context(user: Any, **shown: Any) -> dict[str, Any]:
    """What the account page shows of bots: the upgrade, or the bot's tokens and
    ladder (``shown`` overrides a form, or carries a token just made)."""
    if not bots.is_bot(user):
        return {
            "bot_form": shown.get("bot_form") or BotAccountForm(),
            "why_not_bot": bots.why_not_bot(user),
        }
    account = BotAccount.objects.filter(user_id=user.pk).first()
    ladder = account.ladder_variants if account is not None else []
    return {
        "is_bot_account": True,
        "token_form": shown.get("token_form") or ApiTokenForm(),
        "ladder_form": BotLadderForm(initial={"variants": ladder}),
        "tokens": bots.tokens_of(user),
        "new_token": shown.get("new_token"),
    }
