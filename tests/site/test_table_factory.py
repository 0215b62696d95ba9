"""Every table is made by one function (games/services/tables.py ``new_table``):
from a rule set, whose name and overrides it copies at that moment, or from a
tournament, whose own copy it takes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.models import RuleSetConfig, Tournament
from games.services.tables import new_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def short_matches(db) -> RuleSetConfig:
    return RuleSetConfig.objects.create(
        name="Short capot", variant="belote", overrides={"capot_points": 300}
    )


def test_a_table_copies_its_rule_sets_name_and_overrides(short_matches, make_user):
    owner = make_user("owner")
    table = new_table(short_matches, "first_to:501", created_by=owner, rated=True)
    table.save()
    short_matches.name, short_matches.overrides = "Renamed", {}
    short_matches.save()
    table.refresh_from_db()
    assert (table.variant, table.rule_set_id) == ("belote", short_matches.pk)
    assert (table.rule_set_name, table.rules_snapshot) == ("Short capot", {"capot_points": 300})
    assert (table.format, table.created_by, table.rated) == ("first_to:501", owner, True)


def test_a_tournament_table_plays_the_tournaments_copy(short_matches):
    """The entrants signed up for the rules copied when the tournament was made,
    whatever became of the rule set since."""
    cup = Tournament(
        variant="belote",
        rule_set=short_matches,
        rule_set_name="Short capot as it was",
        rules_snapshot={"capot_points": 250},
    )
    table = new_table(cup, "best_of:1")
    assert (table.variant, table.rule_set) == ("belote", short_matches)
    assert table.rule_set_name == "Short capot as it was"
    assert table.rules_snapshot == {"capot_points": 250}
    table.rules_snapshot["capot_points"] = 400
    assert cup.rules_snapshot == {"capot_points": 250}  # a copy, not the same dict


def test_no_other_code_makes_a_table():
    makers = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = node.func if isinstance(node, ast.Call) else None
            if isinstance(call, ast.Name) and call.id == "Table":
                makers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if (
                isinstance(call, ast.Attribute)
                and call.attr == "create"
                and isinstance(call.value, ast.Attribute)
                and call.value.attr == "objects"
                and isinstance(call.value.value, ast.Name)
                and call.value.value.id == "Table"
            ):
                makers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert makers == [f"games/services/tables.py:{_factory_line()}"]


def _factory_line() -> int:
    source = (ROOT / "games" / "services" / "tables.py").read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "new_table":
            returned = [n for n in ast.walk(node) if isinstance(n, ast.Return)]
            return returned[-1].value.lineno
    raise AssertionError("new_table not found")
