"""``python -m engine replay|verify|bench`` run as a user would, in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import commit, shuffled_deck
from engine.cards import CODES
from tests.engine.test_records import EXAMPLES, canonical

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )


def test_it_replays_a_record_file() -> None:
    path = EXAMPLES / "open-blot-no-trump.record.json"
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    expected = json.loads((EXAMPLES / "open-blot-no-trump.replay.json").read_text())
    assert canonical(json.loads(out.stdout)) == canonical(expected)


def test_it_replays_a_record_from_standard_input() -> None:
    text = (EXAMPLES / "belote-void.record.json").read_text()
    out = run("replay", "-", stdin=text)
    assert out.returncode == 0
    assert json.loads(out.stdout)["result"]["void"] is True


def test_it_exits_zero_with_the_error_index_for_an_illegal_action() -> None:
    out = run("replay", str(EXAMPLES / "belote-illegal-card.record.json"))
    assert out.returncode == 0
    report = json.loads(out.stdout)
    assert report["error"]["index"] == 3 and report["result"] is None


def test_it_exits_non_zero_with_one_line_for_malformed_json() -> None:
    out = run("replay", "-", stdin="{not json")
    assert out.returncode != 0
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1


def test_it_exits_non_zero_for_an_unknown_setting() -> None:
    record = json.loads((EXAMPLES / "belote-void.record.json").read_text())
    record["rules"] = {"kapout_points": 210}
    out = run("replay", "-", stdin=json.dumps(record))
    assert out.returncode != 0
    assert "kapout_points" in out.stderr


def test_it_exits_non_zero_for_a_missing_file(tmp_path: Path) -> None:
    out = run("replay", str(tmp_path / "nope.json"))
    assert out.returncode != 0 and "cannot read" in out.stderr


def committed_record(tmp_path: Path, tamper: bool = False) -> Path:
    deck = shuffled_deck()
    promise = commit(deck)
    codes = [CODES[c] for c in deck]
    if tamper:
        codes[0], codes[1] = codes[1], codes[0]
    record = {"variant": "belote", "dealer": 0, "rules": {}, "deck": codes, "actions": [],
              "salt": promise.salt, "commitment": promise.digest}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    return path


def test_it_verifies_a_deck_against_its_commitment(tmp_path: Path) -> None:
    out = run("verify", str(committed_record(tmp_path)))
    assert out.returncode == 0 and out.stdout.startswith("ok")


def test_it_detects_a_deck_that_differs_from_its_commitment(tmp_path: Path) -> None:
    out = run("verify", str(committed_record(tmp_path, tamper=True)))
    assert out.returncode == 1 and "MISMATCH" in out.stdout


def test_it_ends_the_bench_with_one_json_line_per_variant() -> None:
    out = run("bench", "--seconds", "0.2")
    assert out.returncode == 0
    report = json.loads(out.stdout.strip().splitlines()[-1])
    for variant in ("belote", "open_blot"):
        assert report[variant]["deals_per_s"] > 0
        assert report[variant]["us_per_action"] > 0
        playouts = report["playouts"][variant]
        assert playouts["engine_playouts_per_s"] > 0 and playouts["bare_playouts_per_s"] > 0
        assert playouts["ratio"] == pytest.approx(
            playouts["engine_playouts_per_s"] / playouts["bare_playouts_per_s"], abs=0.01
        )
    assert report["coinche"]["deals_per_s"] > 0
    coinche = report["playouts"]["coinche"]
    assert coinche["coinche_vs_classic"] == pytest.approx(
        coinche["engine_playouts_per_s"] / report["playouts"]["belote"]["engine_playouts_per_s"],
        abs=0.01,
    )


@pytest.mark.parametrize("command", ["replay", "verify", "solve"])
def test_it_exits_with_one_line_for_json_nested_too_deeply(command: str) -> None:
    out = run(command, "-", stdin="[" * 200_000)
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr[-300:]
    assert "nested too deeply" in out.stderr
