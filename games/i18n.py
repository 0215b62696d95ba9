"""The engine's words, as shown to people, in the viewer's language.

The engine stays free of Django and speaks English in its errors and setting
descriptions (records and the command line need one stable language). The site
translates at the edge: an engine reason or rule-set error is matched against the
engine's known message shapes here and replaced by a whole translated sentence
with named placeholders. A message of an unknown shape is shown as the engine
wrote it rather than hidden; ``tests/i18n`` proves every known shape maps.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.errors import RuleSetError
from engine.rules import Setting

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# --- Reasons an engine IllegalAction gives (engine/deal.py), as whole sentences.
_REASONS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"^the deal is over$"), lambda m: gettext("the deal is over")),
    (
        re.compile(r"^it is seat (?P<seat>\d+)'s turn$"),
        # Seats are numbered from 1 on every page (the engine counts from 0).
        lambda m: gettext("it is seat %(seat)s's turn") % {"seat": int(m["seat"]) + 1},
    ),
    (
        re.compile(r"^that card may not be played now$"),
        lambda m: gettext("that card may not be played now"),
    ),
    (
        re.compile(r"^that is not a legal action now$"),
        lambda m: gettext("that is not a legal action now"),
    ),
    (re.compile(r"^illegal action .*$"), lambda m: gettext("that is not a legal action now")),
    (re.compile(r"^malformed action .*$"), lambda m: gettext("that move is malformed")),
]


def reason_text(reason: str) -> str:
    """An engine ``IllegalAction.reason`` in the active language."""
    for pattern, translate in _REASONS:
        match = pattern.match(reason)
        if match:
            return translate(match)
    return reason


# --- Rule-set settings (engine/rules.py SETTINGS), labels and help for the admin.
SETTING_LABELS: dict[str, StrOrPromise] = {
    "capot_points": _("Capot points"),
    "litige": _("Litige (equal points)"),
    "announcements": _("Announcements"),
    "coinche": _("Coinche"),
    "all_trump": _("All-trump contracts"),
    "no_trump": _("No-trump contracts"),
    "kapout_points": _("Kapout points"),
}
SETTING_HELP: dict[str, StrOrPromise] = {
    "capot_points": _("Points for a side that wins all 8 tricks."),
    "litige": _("What happens when both sides have equal points."),
    "announcements": _("Tierce, cinquante, cent and carré, announced in the first trick."),
    "coinche": _(
        "All eight cards dealt and an auction of contracts from 80 to 160 or capot, "
        "with coinche and surcoinche."
    ),
    "all_trump": _("All-trump contracts may be bid (needs coinche)."),
    "no_trump": _("No-trump contracts may be bid (needs coinche)."),
    "kapout_points": _("Points instead of 162 when the opponent's tricks hold no card points."),
}
CHOICE_LABELS: dict[str, StrOrPromise] = {
    "hold_for_next": _("The takers' points go to the winner of the next deal"),
    "split": _("Each side scores its own points"),
    "takers_lose": _("The takers are inside"),
}


def setting_label(setting: Setting) -> StrOrPromise:
    return SETTING_LABELS.get(setting.name, setting.name.replace("_", " ").capitalize())


def setting_help(setting: Setting) -> StrOrPromise:
    return SETTING_HELP.get(setting.name, setting.help)


def choice_label(value: Any) -> StrOrPromise:
    return CHOICE_LABELS.get(str(value), str(value))


def allowed_text(setting: Setting) -> str:
    """What the setting may be set to, in the active language."""
    if setting.locked:
        return gettext("Off only: this switch is locked in this version.")
    if isinstance(setting.default, bool):
        return gettext("Off by default.")
    if setting.choices is not None:
        return gettext("Allowed: %(choices)s; default: %(default)s.") % {
            "choices": ", ".join(str(choice_label(c)) for c in setting.choices),
            "default": choice_label(setting.default),
        }
    return gettext("Allowed: %(minimum)s to %(maximum)s; default: %(default)s.") % {
        "minimum": setting.minimum,
        "maximum": setting.maximum,
        "default": setting.default,
    }


def rule_set_error_text(exc: RuleSetError, setting: Setting | None) -> str:
    """A ``RuleSetError`` about ``setting`` (None: not about one) in the active language."""
    if setting is None:
        return str(exc)
    name = setting_label(setting)
    if setting.locked:
        return gettext("%(setting)s is switched off in this version and cannot be turned on.") % {
            "setting": name
        }
    if isinstance(setting.default, bool) and "needs" in str(exc):
        # The one rule between switches (docs/rules.md §6): all-trump and
        # no-trump contracts exist only in the coinche auction.
        return gettext("%(setting)s can only be switched on together with Coinche.") % {
            "setting": name
        }
    if setting.choices is not None:
        return gettext("%(setting)s must be one of the listed choices.") % {"setting": name}
    message = str(exc)
    if message.endswith("must be a whole number"):
        return gettext("%(setting)s must be a whole number.") % {"setting": name}
    return gettext("%(setting)s must be between %(minimum)s and %(maximum)s.") % {
        "setting": name,
        "minimum": setting.minimum,
        "maximum": setting.maximum,
    }


# --- The language of a WebSocket viewer (there is no request, so no middleware).
def scope_language(scope: dict[str, Any]) -> str:
    """The language a live table speaks to this connection: the signed-in player's
    saved language, else the language cookie, else the browser's Accept-Language —
    the same order the pages use (LocaleMiddleware, then games.middleware)."""
    from games.models import Player

    supported = dict(settings.LANGUAGES)
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        saved = Player.objects.filter(user=user).values_list("language", flat=True).first()
        if saved in supported:
            return saved
    headers = {
        key.decode("latin-1").lower(): value.decode("latin-1")
        for key, value in scope.get("headers", [])
    }
    cookie = _cookie(headers.get("cookie", ""), settings.LANGUAGE_COOKIE_NAME)
    if cookie in supported:
        return cookie
    from django.utils.translation.trans_real import parse_accept_lang_header

    for code, _quality in parse_accept_lang_header(headers.get("accept-language", "")):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _sep, value = part.strip().partition("=")
        if key == name:
            return value
    return None
