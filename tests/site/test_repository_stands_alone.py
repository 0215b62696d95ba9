"""The repository stands alone: a clone has nothing beside it, so nothing in it
sends the reader to the shared rule book or record format outside it (the
repository's own words for them are docs/rules.md and docs/deal-record.md, cited
by section or decision number), and no code, comment or page names a work
ticket by its number: each says the reason instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Where the rule holds: the engine, the site, its pages, scripts, docs and tests.
CHECKED = ("engine", "games", "blotsite", "templates", "static", "scripts", "docs", "tests")
TOP_FILES = ("README.md", "Makefile", "pyproject.toml")
SUFFIXES = {".py", ".md", ".html", ".txt", ".toml", ".js", ".css", ".cfg", ".ini"}
#: Not held to it: this file and tests/engine/test_docs.py name the outside files
#: to look for them.
EXEMPT = (
    "tests/site/test_repository_stands_alone.py",
    "tests/engine/test_docs.py",
)

OUTSIDE = re.compile(r"\.\./shared|RULES\.md|DEAL_RECORD\.md")
TICKET = re.compile(r"\bissues? [0-9]{1,3}\b", re.IGNORECASE)


def files() -> list[Path]:
    found = [ROOT / name for name in TOP_FILES]
    for top in CHECKED:
        found += [
            path
            for path in (ROOT / top).rglob("*")
            if path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts
        ]
    return [
        path for path in sorted(found) if not str(path.relative_to(ROOT)).startswith(EXEMPT)
    ]


def lines_matching(pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]


def test_the_checked_files_are_found():
    names = {str(path.relative_to(ROOT)) for path in files()}
    assert {"games/services/chat.py", "blotsite/settings.py", "docs/rules.md"} <= names
    assert "games/migrations/0001_initial.py" in names


@pytest.mark.parametrize(
    ("text", "outside"),
    [
        ("see ../shared/RULES.md §2", True),
        ("the DEAL_RECORD.md input format", True),
        ("docs/rules.md §6 and docs/deal-record.md", False),
    ],
)
def test_a_reference_outside_is_recognised(text, outside):
    assert bool(OUTSIDE.search(text)) is outside


@pytest.mark.parametrize(
    ("text", "ticket"),
    [("(issue 22)", True), ("Issue 10: staff", True), ("issues 4 and 5", True),
     ("an issue with 3 tables", False), ("issue_25", False)],
)
def test_a_ticket_number_is_recognised(text, ticket):
    assert bool(TICKET.search(text)) is ticket


def test_nothing_sends_the_reader_outside_the_repository():
    assert lines_matching(OUTSIDE) == []


def test_no_work_ticket_is_named():
    assert lines_matching(TICKET) == []
