"""Display names: cleaned, compared and reserved in one place.

A display name is what other players see at a table, so it must not pass for a
bot ("Bot 2 (Hard)"), for another player (the same name in other letter cases
or other Unicode forms), or rearrange the text around it (bidi overrides,
zero-width characters).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from django.conf import settings
from django.utils import translation

from games.models.choices import BotLevel

#: Unicode categories removed from a name: control (Cc), format (Cf: bidi
#: embeddings, overrides and isolates, zero-width spaces and joiners, the BOM,
#: soft hyphen), line/paragraph separators (Zl, Zp), private use (Co),
#: surrogates (Cs) and unassigned code points (Cn).
_STRIPPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
_SPACES = re.compile(r"\s+")


def clean(raw: str) -> str:
    """The name as it will be stored and shown: NFKC-normalised, without invisible
    or direction-changing characters, spaces collapsed, trimmed."""
    # Whitespace (tabs and newlines included) becomes a space before control
    # characters go, so "a\tb" stays two words.
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", raw))
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _STRIPPED_CATEGORIES)
    return _SPACES.sub(" ", text).strip()


def key(name: str) -> str:
    """What two names are compared by: the cleaned name, case-folded and normalised
    again (case folding can produce characters NFKC would fold further)."""
    return unicodedata.normalize("NFKC", clean(name).casefold())


def _squeeze(text: str) -> str:
    # Separators and punctuation do not make a name look different at a table.
    return re.sub(r"[\W_]+", "", key(text))


@cache
def _reserved_pattern() -> re.Pattern[str]:
    """Bot seat names as the site writes them ("Bot %(n)s (%(level)s)" in
    games.services.matches._seat_name, "Bot (%(level)s)" in the waiting room),
    in every language the site speaks: the bot word alone, followed by a number
    (with anything after it), or followed by a level."""
    words: set[str] = {"bot"}
    levels: set[str] = set()
    for code, _label in settings.LANGUAGES:
        with translation.override(code):
            head = translation.gettext("Bot %(n)s (%(level)s)").split("%(n)s", 1)[0]
            levels.update(_squeeze(str(label)) for label in BotLevel.labels)
        if _squeeze(head):
            words.add(_squeeze(head))
    # "B0t": a zero passes for an o at a glance.
    word = "|".join(re.escape(w).replace("o", "[o0]") for w in sorted(words))
    level = "|".join(re.escape(v) for v in sorted(levels) if v)
    return re.compile(rf"(?:{word})(?:\d.*|(?:{level})?)")


def is_reserved(name: str) -> bool:
    """Does ``name`` pass for a bot ("Bot 2 (Hard)", "bot_3", "B0t", "Bot (Easy)")?"""
    return _reserved_pattern().fullmatch(_squeeze(name)) is not None
