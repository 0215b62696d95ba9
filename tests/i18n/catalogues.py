"""The project's translation catalogues, read with polib (shared by the i18n tests)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import polib
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
#: Every language but the source language has a catalogue.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]

#: Each language's plural rule (the header must say exactly this): Russian has
#: three forms (1 / 2-4 / 5-20), French counts 0 and 1 as singular, Armenian and
#: Georgian put nouns after numbers in the singular but gettext still wants two.
PLURAL_FORMS = {
    "fr": "nplurals=2; plural=(n > 1);",
    "ru": (
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
        "(n%100<10 || n%100>=20) ? 1 : 2);"
    ),
    "hy": "nplurals=2; plural=(n != 1);",
    "ka": "nplurals=2; plural=(n != 1);",
}

# %(name)s / %(n)d (named), %s / %d (positional), {name} (str.format / format_lazy).
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]|\{(\w*)\}")


def placeholders(text: str) -> list[str]:
    """The placeholders of a message, sorted (so order may differ between languages)."""
    return sorted(m.group(0) for m in PLACEHOLDER.finditer(text.replace("%%", "")))


@cache
def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


def english_messages() -> set[str]:
    """Every English source text the site may show (singular and plural)."""
    texts: set[str] = set()
    for entry in catalogue(TRANSLATED[0]):
        texts.add(entry.msgid)
        if entry.msgid_plural:
            texts.add(entry.msgid_plural)
    return texts


def same_in(language: str) -> set[str]:
    """Messages whose translation is deliberately the English text itself
    (French "Belote", "Table %(id)s"): seeing them is not a missing translation."""
    same: set[str] = set()
    for entry in catalogue(language):
        translations = {entry.msgstr, *entry.msgstr_plural.values()}
        same |= {text for text in (entry.msgid, entry.msgid_plural) if text in translations}
    return same
