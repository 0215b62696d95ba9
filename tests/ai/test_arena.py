"""A short arena run end to end: the last line is the JSON summary."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("variant", "a", "b", "extra"),
    [
        ("belote", "normal", "easy", ["--deals", "6", "--jobs", "2"]),
        ("open_blot", "hard", "normal", ["--deals", "2", "--budget", "0.01"]),
        ("belote", "hard", "easy", ["--deals", "2", "--budget", "0.01", "--rules", "coinche"]),
    ],
)
def test_arena_ends_with_one_json_summary_line(
    variant: str, a: str, b: str, extra: list[str]
) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--variant", variant, "--a", a, "--b", b,
         "--seed", "1", *extra],
        capture_output=True, text=True, timeout=120, check=True,
    )
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert set(summary) == {
        "variant", "rules", "a", "b", "deals", "clock", "points_per_deal", "ci95",
        "match_win_rate_a", "decision_ms", "contracts",
    }
    assert (summary["variant"], summary["a"], summary["b"]) == (variant, a, b)
    assert summary["deals"] == int(extra[1])
    lo, hi = summary["ci95"]
    assert lo <= summary["points_per_deal"] <= hi
    rate = summary["match_win_rate_a"]
    assert rate is None or 0 <= rate <= 1
    for level, t in summary["decision_ms"].items():
        assert level in (a, b) and set(t) == {"p50", "p95"} and t["p50"] <= t["p95"]
    assert "deals" in run.stderr  # the progress bar
    for player, c in summary["contracts"].items():
        assert player in (a, b) and 0 <= c["made"] <= c["taken"]
        assert 0 <= c["coinches_won"] <= c["coinched"]
    if "--rules" in extra:
        assert summary["rules"] == {
            "coinche": True, "announcements": True, "all_trump": True, "no_trump": True
        }


def test_arena_stops_starting_deals_after_its_time_and_reports_those_played() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--variant", "belote", "--a", "normal", "--b",
         "easy", "--deals", "50", "--seconds", "0"],
        capture_output=True, text=True, timeout=120, check=True,
    )
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["deals"] == 1


def test_the_perfect_player_and_the_fixed_work_hard_bot_play_in_the_arena() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--variant", "open_blot", "--a", "perfect",
         "--b", "hard-work", "--deals", "1", "--budget", "0.005", "--clock", "cpu"],
        capture_output=True, text=True, timeout=240, check=True,
    )
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert (summary["a"], summary["b"], summary["clock"]) == ("perfect", "hard-work", "cpu")
    assert set(summary["decision_ms"]) == {"perfect", "hard-work"}


def test_arena_refuses_a_rule_set_the_rules_refuse_in_one_line() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--a", "normal", "--b", "easy",
         "--rules", '{"all_trump": true}'],
        capture_output=True, text=True, timeout=60,
    )
    assert run.returncode != 0
    assert "all_trump" in run.stderr.strip().splitlines()[-1]
