"""No case ending glued onto a name: in Armenian and Georgian a
suffix after a placeholder declines a name the site cannot decline, and a
Russian verb with a bracketed feminine ending guesses a gender. Every sentence
with a name is written so the name stands where it needs no ending (as a label
after a colon). The built-in rule sets are named in the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

from games.labels import rule_set_label

LOCALE = Path(__file__).resolve().parents[2] / "locale"
NAMES = r"%\((name|names|side|a|b|first|second|when|time)\)s"


def _entries(language: str):
    for entry in polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po")):
        texts = [entry.msgstr, *entry.msgstr_plural.values()]
        for text in texts:
            if re.search(NAMES, text):
                yield entry.msgid, text


@pytest.mark.parametrize("language", ["hy", "ka"])
def test_no_ending_is_glued_onto_a_name(language) -> None:
    glued = [(m, t) for m, t in _entries(language) if re.search(NAMES + r"-\w", t)]
    assert glued == []


def test_russian_sentences_guess_no_gender() -> None:
    feminine = ("(\u0430)", "(\u0430\u0441\u044c)")  # the bracketed endings
    guessed = [(m, t) for m, t in _entries("ru") if any(f in t for f in feminine)]
    assert guessed == []


@pytest.mark.parametrize(
    ("language", "belote", "open_blot"),
    [
        ("hy", "Բելոտ (ստանդարտ)", "Բաց Բլոտ (ստանդարտ)"),
        ("ka", "ბელოტი (სტანდარტული)", "ღია ბლოტი (სტანდარტული)"),
    ],
)
def test_built_in_rule_sets_are_named_in_the_readers_language(language, belote, open_blot):
    with translation.override(language):
        assert rule_set_label("Belote (standard)") == belote
        assert rule_set_label("Open Blot (standard)") == open_blot
        assert rule_set_label("Club rules 2025") == "Club rules 2025"  # an admin's own name
