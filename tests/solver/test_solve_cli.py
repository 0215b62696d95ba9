"""``python -m engine solve -`` as an outside check calls it (docs/hooks.md)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

from engine.actions import PLAY
from engine.record import DealRecord, rebuild
from tests.engine.test_records import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]


def solve(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "solve", "-"],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=280, check=False,
    )


def check_lines(record: dict[str, object], out: str) -> None:
    """One line per card played; each played card's value is what perfect play
    gives from the next step on; the last one is what the deal's cards scored."""
    actions = record["actions"]
    assert isinstance(actions, list)
    lines = [json.loads(line) for line in out.splitlines()]
    plays = [i for i, a in enumerate(actions) if a["type"] == PLAY]
    assert [line["step"] for line in lines] == plays
    for line in lines:
        action = actions[line["step"]]
        assert line["seat"] == action["seat"]
        assert action["card"] in line["values"]
        assert all(isinstance(v, int) and 0 <= v <= 162 for v in line["values"].values())
    for here, after in itertools.pairwise(lines):
        chosen = here["values"][actions[here["step"]]["card"]]
        best_next = max(after["values"].values())
        same_side = here["seat"] % 2 == after["seat"] % 2  # Open Blot: the side is the seat
        assert chosen == (best_next if same_side else 162 - best_next)
    final = rebuild(DealRecord.from_dict(record)).result()
    assert final is not None
    last = lines[-1]
    assert last["values"][actions[last["step"]]["card"]] == final.card_points[last["seat"] % 2]


def test_it_prints_one_exact_line_per_card_of_the_worked_examples() -> None:
    for name in ("belote-made-with-belote", "open-blot-declarations"):
        text = (EXAMPLES / f"{name}.record.json").read_text()
        out = solve(text)
        assert out.returncode == 0, out.stderr
        check_lines(json.loads(text), out.stdout)


def test_a_void_deal_has_no_card_to_solve() -> None:
    out = solve((EXAMPLES / "belote-void.record.json").read_text())
    assert (out.returncode, out.stdout) == (0, "")


def test_it_refuses_an_illegal_or_unfinished_record_with_one_line() -> None:
    illegal = solve((EXAMPLES / "belote-illegal-card.record.json").read_text())
    assert illegal.returncode == 2 and illegal.stdout == ""
    assert "action 3" in illegal.stderr and len(illegal.stderr.splitlines()) == 1
    record = json.loads((EXAMPLES / "belote-made-with-belote.record.json").read_text())
    record["actions"] = record["actions"][:-1]
    unfinished = solve(json.dumps(record))
    assert unfinished.returncode == 2 and "not finished" in unfinished.stderr
    assert solve("{").returncode == 2
