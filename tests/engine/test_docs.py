"""The rule book and the deal-record page agree with the engine where a machine
can tell: the action types and their fields, the settings and their defaults, the
decision numbers that code and docs cite, the worked examples, and the links.

Only the repository is read: a clone has nothing beside it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.actions import ACTION_TYPES, Action
from engine.errors import IllegalAction
from engine.rules import SETTINGS, VARIANTS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
DEAL_RECORD = DOCS / "deal-record.md"
EXAMPLES = ROOT / "tests" / "engine" / "examples"

# Where code, tests and docs may cite a decision (D-n, P-n).
CITING = ("engine", "games", "blotsite", "tests", "docs", "templates", "scripts")
CITING_SUFFIXES = {".py", ".md", ".html", ".txt", ".toml"}

# A sample value for each field an action can carry, to build one action per type.
SAMPLE_FIELDS: dict[str, Any] = {
    "card": "AS",
    "trump": "H",
    "cards": ["9H", "TH", "JH"],
    "value": 80,
}


def table(text: str, header: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header row starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def backticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def action_table() -> dict[str, tuple[set[str], str]]:
    """deal-record.md's action table: type -> (its fields, when it is used)."""
    rows = table(DEAL_RECORD.read_text(), "| type | fields | when |")
    actions = {}
    for kind, fields, when in rows:
        (name,) = backticked(kind)
        # A field is a backticked name that is the whole cell or is followed by ":".
        named = set(re.findall(r"`(\w+)`(?=:|$)", fields))
        actions[name] = (named, when)
    return actions


def settings_table() -> list[tuple[str, str, Any, str]]:
    """rules.md §6: (name, variant, default, allowed) per setting."""
    rows = table(RULES.read_text(), "| name | variant | default | allowed |")
    out = []
    for names, variant, default, allowed in rows:
        for name in backticked(names):
            out.append((name, variant, json.loads(default.strip("`")), allowed))
    return out


def engine_setting(variant: str, name: str) -> Any:
    return next((s for s in SETTINGS[variant] if s.name == name), None)


# ---- the deal record's actions ---------------------------------------------------


def test_the_action_table_is_read() -> None:
    actions = action_table()
    assert {"pass", "play"} <= set(actions)
    assert actions["play"][0] == {"card"} and actions["pass"][0] == set()


def test_every_action_type_the_engine_parses_is_in_the_record_page() -> None:
    missing = set(ACTION_TYPES) - set(action_table())
    assert not missing, f"docs/deal-record.md does not list {sorted(missing)}"


@pytest.mark.parametrize("kind", sorted(action_table()))
def test_each_documented_action_has_exactly_its_documented_keys(kind: str) -> None:
    fields, when = action_table()[kind]
    if kind not in ACTION_TYPES:
        # Only an action of a switch the engine still refuses may be missing from
        # it; once the switch can be turned on, the engine must parse the action.
        switches = [
            name
            for name in backticked(when)
            if engine_setting("belote", name) or engine_setting("open_blot", name)
        ]
        assert switches, f"{kind!r} is documented but the engine does not parse it"
        for name in switches:
            setting = engine_setting("belote", name) or engine_setting("open_blot", name)
            assert getattr(setting, "locked", False), (
                f"{name!r} can be switched on but the engine does not parse {kind!r}"
            )
        return
    unknown = fields - set(SAMPLE_FIELDS)
    assert not unknown, f"add a sample value for {sorted(unknown)}"
    data = {"seat": 0, "type": kind, **{f: SAMPLE_FIELDS[f] for f in fields}}
    assert Action.from_dict(data).to_dict() == data
    with pytest.raises(IllegalAction):
        Action.from_dict({**data, "extra": 1})
    for field in fields:
        with pytest.raises(IllegalAction):
            Action.from_dict({k: v for k, v in data.items() if k != field})


# ---- the settings ------------------------------------------------------------------


def test_every_documented_setting_exists_with_its_default_and_range() -> None:
    documented = settings_table()
    assert documented
    for name, variant, default, allowed in documented:
        assert variant in VARIANTS, f"{name}: unknown variant {variant!r}"
        setting = engine_setting(variant, name)
        assert setting is not None, f"{name} ({variant}) is not an engine setting"
        assert setting.default == default and type(setting.default) is type(default), name
        span = re.fullmatch(r"(\d+)\N{EN DASH}(\d+)", allowed)
        if span:
            assert (setting.minimum, setting.maximum) == tuple(map(int, span.groups())), name
        elif isinstance(default, str):
            assert set(setting.choices) == {json.loads(c) for c in backticked(allowed)}, name


def test_every_engine_setting_is_documented() -> None:
    documented = {(variant, name) for name, variant, _, _ in settings_table()}
    engine = {(variant, s.name) for variant in VARIANTS for s in SETTINGS[variant]}
    assert engine - documented == set()


# ---- decision numbers ----------------------------------------------------------------


def citing_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for top in CITING:
        files += [
            p for p in (ROOT / top).rglob("*")
            if p.suffix in CITING_SUFFIXES and p.is_file() and "__pycache__" not in p.parts
        ]
    return files


def made(path: Path, pattern: str) -> list[int]:
    return [int(n) for n in re.findall(pattern, path.read_text())]


def test_the_rule_book_makes_each_decision_once_numbered_from_one() -> None:
    numbers = made(RULES, r"\*\*D-(\d+)\*\*")
    assert numbers and sorted(numbers) == list(range(1, max(numbers) + 1))


def test_every_decision_cited_anywhere_is_in_the_rule_book() -> None:
    defined = set(made(RULES, r"\*\*D-(\d+)\*\*"))
    cited = {
        f"{path.relative_to(ROOT)}: D-{n}"
        for path in citing_files()
        for n in made(path, r"\bD-(\d+)\b")
        if n not in defined
    }
    assert cited == set()


def test_every_project_decision_cited_anywhere_is_in_decisions_md() -> None:
    defined = set(made(DOCS / "DECISIONS.md", r"\*\*P-(\d+) —"))
    assert defined
    cited = {
        f"{path.relative_to(ROOT)}: P-{n}"
        for path in citing_files()
        for n in made(path, r"\bP-(\d+)\b")
        if n not in defined
    }
    assert cited == set()


# ---- worked examples -----------------------------------------------------------------


def test_the_record_page_describes_every_worked_example_and_only_those() -> None:
    described = {backticked(row[0])[0] for row in table(DEAL_RECORD.read_text(), "| example |")}
    records = {p.name.removesuffix(".record.json") for p in EXAMPLES.glob("*.record.json")}
    replays = {p.name.removesuffix(".replay.json") for p in EXAMPLES.glob("*.replay.json")}
    assert described and described == records == replays


# ---- references and links --------------------------------------------------------------


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize(
    "path",
    [*pages(), *sorted((ROOT / "templates").rglob("*.html"))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_page_sends_the_reader_outside_the_repository(path: Path) -> None:
    text = path.read_text()
    for outside in ("../shared", "RULES.md", "DEAL_RECORD.md"):
        assert outside not in text


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    in_code = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        base = slug(line.lstrip("#"))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


@pytest.mark.parametrize("path", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_between_pages_leads_somewhere(path: Path) -> None:
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists() or (
            anchor and linked.suffix == ".md" and anchor not in anchors(linked)
        ):
            broken.append(target)
    assert broken == []
