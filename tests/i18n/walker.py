"""Find English left on a rendered page.

A page is parsed into what a reader sees or hears: text nodes, and the title,
aria-label, placeholder and alt attributes, and the labels of input buttons.
Each is compared with the English source texts of the site's catalogue and of
Django's own catalogues for the parts of Django the site shows (forms, auth): a
text equal to one of them was not translated. Code, records and scripts are
skipped (they are data, not prose).
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import django
import polib
from django.conf import settings

from tests.i18n.catalogues import PLACEHOLDER, catalogue, english_messages, same_in

ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
SKIPPED = {"script", "style", "pre", "code", "kbd"}
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}

#: Visible texts that are the same in every language: card ranks and suit symbols,
#: proper names (the languages' own names, the site's players in the fixtures),
#: numbers and symbols are not in this list because they are never msgids.
ALLOWED = {"J", "Q", "K", "A", "D", "JSON", "SHA-256"} | {
    name
    for _code, name in settings.LANGUAGES  # the switcher names each in its own language
}

DJANGO_CATALOGUES = ("conf/locale", "contrib/auth/locale")


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ATTRIBUTES:
            if values.get(name):
                self.texts.append(values[name] or "")
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.texts.append(values["value"] or "")
        if tag in SKIPPED:
            self._skip.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.texts.append(data)


def visible_texts(html: str) -> list[str]:
    parser = _Texts()
    parser.feed(html)
    return [" ".join(t.split()) for t in parser.texts if t.strip()]


@cache
def _django_english(language: str) -> frozenset[str]:
    """Django's English texts that the site shows, except those Django's own
    catalogue translates as themselves in ``language``."""
    root = Path(django.__file__).parent
    texts: set[str] = set()
    for where in DJANGO_CATALOGUES:
        po = root / where / language / "LC_MESSAGES" / "django.po"
        if po.exists():
            texts |= {e.msgid for e in polib.pofile(str(po)) if e.msgstr != e.msgid}
    return frozenset(texts)


@cache
def _english_patterns(language: str) -> re.Pattern[str] | None:
    """The English texts with placeholders ("Deal %(n)s", "Bot: {level}") as one
    pattern, each placeholder standing for any text: "Deal 2" is English too."""
    return _pattern(english_messages() - same_in(language))


@cache
def _translated_patterns(language: str) -> re.Pattern[str] | None:
    """The translations of ``language`` as one pattern: French "Place 1" (a seat)
    reads like English "Place %(place)s" but is the French text, not English left."""
    texts: set[str] = set()
    for entry in catalogue(language):
        texts |= {entry.msgstr, *entry.msgstr_plural.values()} - {""}
    return _pattern(texts)


def _pattern(texts: set[str]) -> re.Pattern[str] | None:
    """One pattern for the texts with placeholders, each placeholder standing for
    any text. A text that is nothing but placeholders and punctuation
    ("%(name)s: %(bid)s.") has no words to be English in, so it is left out."""
    shapes = [
        PLACEHOLDER.sub("\x00", text)
        for text in texts
        if PLACEHOLDER.search(text) and re.search(r"[^\W\d_]", PLACEHOLDER.sub("", text))
    ]
    if not shapes:
        return None
    alternatives = [re.escape(shape).replace("\x00", ".+?") for shape in shapes]
    return re.compile("|".join(f"(?:{a})" for a in alternatives))


def english_left(html: str, language: str) -> list[str]:
    """Every visible text of ``html`` still equal to an English source text."""
    english = (english_messages() - same_in(language)) | _django_english(language)
    patterns = _english_patterns(language)
    translated = _translated_patterns(language)
    return sorted(
        {
            t
            for t in visible_texts(html)
            if t not in ALLOWED
            and (
                t in english
                or (
                    patterns is not None
                    and patterns.fullmatch(t)
                    and not (translated is not None and translated.fullmatch(t))
                )
            )
        }
    )
