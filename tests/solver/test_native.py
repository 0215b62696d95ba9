"""The solver compiled with mypyc: in use after ``make install``, the same values
as its source, and never used once its source has changed."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules import BELOTE, OPEN_BLOT
from engine.solver import native
from engine.solver.solve import _masks
from tests.solver.test_exact import random_ending

ROOT = Path(__file__).resolve().parents[2]

#: On a machine that cannot compile (no mypyc or no C compiler: the build says
#: which) there is nothing compiled to test; the source is tested everywhere.
needs_compiled = pytest.mark.skipif(
    native.why_not_compiled() is not None,
    reason=f"the solver is not compiled here: {native.why_not_compiled()}",
)


@needs_compiled
def test_the_solver_in_use_is_compiled_from_todays_sources() -> None:
    # `make install` compiles it (scripts/build-solver); the interpreted solver
    # runs only when asked for.
    if os.environ.get(native.CHOICE_VARIABLE) == "source":
        assert native.in_use() == "source"
        return
    assert native.in_use() == "compiled", "run `make install` (scripts/build-solver)"
    assert native.compiled_is_fresh()


@pytest.fixture(scope="module")
def source_search() -> object:
    return native.load_source("engine.solver._search_source_under_test")


@needs_compiled
@pytest.mark.parametrize("variant", [BELOTE, OPEN_BLOT])
def test_compiled_and_source_solvers_value_every_card_alike(
    variant: str, source_search: object
) -> None:
    # Longer endings than brute force reaches: the two must agree card for card.
    import engine.solver.search as in_use

    rng = random.Random(7)
    seats = 4 if variant == BELOTE else 2
    for _ in range(4):
        deal = random_ending(variant, rng.randrange(2**32), 6, rng.randrange(seats))
        assert deal.trump is not None and deal.to_act is not None
        under = getattr(deal, "under", None)
        hands, down = _masks(deal)
        solvers = [
            module.Solver(deal.seats, deal.trump, under)  # type: ignore[attr-defined]
            for module in (in_use, source_search)
        ]
        compiled, source = (s.values(hands, down, deal.to_act, deal.trick) for s in solvers)
        assert compiled == source


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", code],
        cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=60,
    )


def test_a_compiled_solver_older_than_its_source_gives_way_to_the_source(
    tmp_path: Path,
) -> None:
    stale = tmp_path / "stamp"
    stale.write_text("0" * 64 + "\n")  # the digest of other sources
    code = f"""
import importlib.util, pathlib
spec = importlib.util.spec_from_file_location("alone", "engine/solver/native.py")
alone = importlib.util.module_from_spec(spec)
spec.loader.exec_module(alone)
alone.STAMP = pathlib.Path({str(stale)!r})
alone.choose()
import engine.solver.search
print(engine.solver.search.__file__)
"""
    done = run_python(code, **{native.CHOICE_VARIABLE: ""})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("search.py")
    if native.compiled_files():
        assert "older than its source" in done.stderr


def test_the_source_runs_when_asked_for() -> None:
    done = run_python(
        "from engine.solver import native; print(native.in_use())",
        **{native.CHOICE_VARIABLE: "source"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "source"
