"""Catalogue hygiene: complete, no fuzzy entries, placeholders kept, plurals right,
and the shipped compiled files match their sources."""

from __future__ import annotations

import gettext as gnu_gettext
import subprocess
import sys

import pytest
from django.utils import translation

from tests.i18n.catalogues import (
    LOCALE,
    PLURAL_FORMS,
    TRANSLATED,
    catalogue,
    placeholders,
)


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_translates_every_message(language: str) -> None:
    po = catalogue(language)
    assert len(po) > 250  # the whole site, not a stub
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    obsolete = [e.msgid for e in po.obsolete_entries()]
    assert untranslated == [] and fuzzy == [] and obsolete == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_keeps_every_placeholder(language: str) -> None:
    wrong = []
    for entry in catalogue(language):
        if entry.msgid_plural:
            expected = sorted(set(placeholders(entry.msgid) + placeholders(entry.msgid_plural)))
            forms = entry.msgstr_plural.values()
            wrong += [(entry.msgid, f) for f in forms if sorted(set(placeholders(f))) != expected]
        elif placeholders(entry.msgstr) != placeholders(entry.msgid):
            wrong.append((entry.msgid, entry.msgstr))
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_declares_the_language_and_its_plural_rule(language: str) -> None:
    po = catalogue(language)
    assert po.metadata["Language"] == language
    assert po.metadata["Plural-Forms"] == PLURAL_FORMS[language]
    nplurals = int(PLURAL_FORMS[language].split(";")[0].split("=")[1])
    assert all(sorted(e.msgstr_plural) == list(range(nplurals)) for e in po if e.msgid_plural)


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_marks_python_format_where_the_message_has_placeholders(language: str) -> None:
    # Django's makemessages flags %-messages as python-format; msgfmt then checks them.
    missing = [
        e.msgid for e in catalogue(language) if "%(" in e.msgid and "python-format" not in e.flags
    ]
    assert missing == []


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1 карта"),
        (2, "2 карты"),
        (4, "4 карты"),
        (5, "5 карт"),
        (11, "11 карт"),
        (21, "21 карта"),
        (22, "22 карты"),
        (25, "25 карт"),
        (111, "111 карт"),
    ],
)
def test_it_uses_the_three_russian_plural_forms(n: int, expected: str) -> None:
    with translation.override("ru"):
        text = translation.ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}
    assert text == expected


def test_it_ships_compiled_catalogues_that_match_their_sources() -> None:
    """The .mo files are in the repository (nothing to compile on a new machine);
    this fails when a .po was edited without `make messages`/`make compilemessages`."""
    result = subprocess.run(
        [sys.executable, "scripts/compilemessages.py", "--check"],
        cwd=LOCALE.parent,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout
    for language in TRANSLATED:
        mo = LOCALE / language / "LC_MESSAGES" / "django.mo"
        with mo.open("rb") as handle:
            compiled = gnu_gettext.GNUTranslations(handle)
        assert compiled.gettext("Score table") == catalogue(language).find("Score table").msgstr
