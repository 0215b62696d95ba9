"""The solver compiled with mypyc, used only while it matches its source.

``scripts/build-solver`` (run by ``make install``) compiles
:mod:`engine.solver.search` — the same Python source, untouched — into a C
extension beside it, and writes the digest of the sources it was compiled from
to :data:`STAMP`. Python imports an extension before a ``.py`` of the same
name, so a compiled module left over from older code would shadow an edited
source: :func:`choose` (run when :mod:`engine.solver` is imported) loads the
source itself instead whenever the digest differs, and when ``BLOT_SOLVER=source``
asks for it (to measure the interpreted solver). It imports nothing but the
standard library, so it runs before anything of the solver is loaded.

The compiled solver is about twice as fast (docs/performance.md) and has the
same rules: mypyc compiles the module that imports :mod:`engine.tricks` and
:mod:`engine.cards`; it does not rewrite them.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent
MODULE = "engine.solver.search"
SOURCE = ENGINE / "solver" / "search.py"
#: What the compiled module was built from: the solver and the modules whose
#: constants and functions it uses (mypyc may fold a ``Final`` constant in).
SOURCES = (SOURCE, ENGINE / "cards.py", ENGINE / "tricks.py")
STAMP = ENGINE / "solver" / "search.compiled-from"
#: Written by the build instead of a compiled module when this machine cannot
#: compile one (no mypyc, no C compiler): why, in one line.
NOT_COMPILED = ENGINE / "solver" / "search.not-compiled"
#: ``BLOT_SOLVER=source`` runs the interpreted solver even when a fresh
#: compiled one is there.
CHOICE_VARIABLE = "BLOT_SOLVER"


def source_digest() -> str:
    """One digest of :data:`SOURCES`, as the build writes it to :data:`STAMP`."""
    digest = hashlib.sha256()
    for path in SOURCES:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled_files() -> list[Path]:
    """The compiled module's files beside the source, if built."""
    folder = SOURCE.parent
    return [
        folder / f"search{suffix}"
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (folder / f"search{suffix}").exists()
    ]


def compiled_is_fresh() -> bool:
    """Whether a compiled module is there and was built from today's sources."""
    if not compiled_files() or not STAMP.exists():
        return False
    return STAMP.read_text().strip() == source_digest()


def why_not_compiled() -> str | None:
    """The build's reason for leaving no compiled module here, if it gave one."""
    if compiled_files() or not NOT_COMPILED.exists():
        return None
    return NOT_COMPILED.read_text().strip() or "not compiled"


def load_source(name: str = MODULE) -> object:
    """Import ``search.py`` itself (not the compiled module) under ``name``."""
    package, _, leaf = name.rpartition(".")
    parent = importlib.import_module(package)  # (mid-import when called by choose)
    spec = importlib.util.spec_from_file_location(name, SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    setattr(parent, leaf, module)
    return module


def choose() -> None:
    """Make ``import engine.solver.search`` give the source when the compiled
    module is stale or the source is asked for; else leave the compiled one to
    Python's import (which prefers it)."""
    if MODULE in sys.modules or not compiled_files():
        return
    if os.environ.get(CHOICE_VARIABLE) == "source":
        load_source()
    elif not compiled_is_fresh():
        warnings.warn(
            "The compiled solver is older than its source, so the source runs "
            "(slower); `make install` compiles it again.",
            RuntimeWarning,
            stacklevel=2,
        )
        load_source()


def in_use() -> str:
    """Which solver ``engine.solver.search`` is: ``"compiled"`` or ``"source"``."""
    module = sys.modules.get(MODULE)
    if module is None:
        import engine.solver.search as module
    return "source" if str(getattr(module, "__file__", "")).endswith(".py") else "compiled"
