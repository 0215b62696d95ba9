"""Every setting is declared once, in blotsite/settings.py, and documented in
docs/operations.md: the environment variables settings.py reads and the ones the
operations guide lists are the same, and the site reads no ``BLOT_*`` setting that
settings.py does not declare (so none carries a default of its own)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "blotsite" / "settings.py"
OPERATIONS = ROOT / "docs" / "operations.md"
SITE = ("games", "blotsite")


def _settings_tree() -> ast.Module:
    return ast.parse(SETTINGS.read_text(encoding="utf-8"))


def variables_read() -> set[str]:
    """The environment variables settings.py reads (each ``env_*("NAME", …)``)."""
    names = set()
    for node in ast.walk(_settings_tree()):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id.startswith("env_")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(node.args[0].value)
    return names


def variables_documented() -> set[str]:
    """The variables named in the first column of the operations guide's tables."""
    text = OPERATIONS.read_text(encoding="utf-8")
    section = text.split("## Settings", 1)[1].split("\n## ", 1)[0]
    names = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first_column = line.split("|")[1]
            names.update(re.findall(r"`([A-Z][A-Z0-9_]*)`", first_column))
    return names


def declared_blot_settings() -> set[str]:
    """The ``BLOT_*`` names settings.py assigns at module level."""
    names = set()
    for node in _settings_tree().body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names.update(
            t.id for t in targets if isinstance(t, ast.Name) and t.id.startswith("BLOT_")
        )
    return names


def blot_settings_read() -> dict[str, list[str]]:
    """Each ``settings.BLOT_*`` read in the site, with where it is read."""
    read: dict[str, list[str]] = {}
    for folder in SITE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            for name in re.findall(r"\bsettings\.(BLOT_[A-Z0-9_]+)", text):
                read.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return read


def test_every_variable_settings_reads_is_documented():
    missing = variables_read() - variables_documented()
    assert not missing, f"read by settings.py but not in docs/operations.md: {sorted(missing)}"


def test_every_documented_variable_is_read_by_settings():
    unread = variables_documented() - variables_read()
    assert not unread, f"in docs/operations.md but not read by settings.py: {sorted(unread)}"


def test_every_blot_setting_is_read_from_the_environment():
    """A ``BLOT_*`` setting comes from a variable of its own name, or of the same
    name in other units (``BLOT_BOT_BUDGET_S`` from ``BLOT_BOT_BUDGET_MS``)."""
    read = variables_read()
    unit = re.compile(r"_(S|MS|US)$")
    stems = {unit.sub("", name) for name in read}
    for name in declared_blot_settings():
        assert name in read or unit.sub("", name) in stems, name


def test_the_site_reads_only_declared_blot_settings():
    declared = declared_blot_settings()
    undeclared = {n: where for n, where in blot_settings_read().items() if n not in declared}
    assert not undeclared, f"read but not declared in settings.py: {undeclared}"


def test_no_setting_is_read_with_a_default_of_its_own():
    """``getattr(settings, "X", default)`` would let a setting disagree with the
    declared default; every setting is read as ``settings.X``."""
    sites = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in SITE
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "getattr(settings" in line
    ]
    assert not sites, sites
