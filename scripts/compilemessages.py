"""Compile every locale/*/LC_MESSAGES/*.po into its .mo, in pure Python (polib).

Django's own ``compilemessages`` needs GNU msgfmt; this needs only the project's
dev install. Fuzzy entries are left out, as msgfmt does. ``--check`` compiles
nothing and exits 1 when a shipped .mo is missing or differs from its .po —
tests/i18n runs the same check.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"


def catalogue_pairs() -> list[tuple[Path, Path]]:
    return [(po, po.with_suffix(".mo")) for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))]


def compiled(po_path: Path) -> bytes:
    """The .mo bytes for ``po_path`` (deterministic: same .po, same bytes)."""
    po = polib.pofile(str(po_path))
    mo = polib.MOFile(encoding="utf-8")
    mo.metadata = po.metadata
    # msgfmt's rule: only translated, non-fuzzy, non-obsolete entries are compiled.
    mo.extend(
        entry
        for entry in po
        if entry.translated() and "fuzzy" not in entry.flags and not entry.obsolete
    )
    return mo.to_binary()


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for po, mo in catalogue_pairs():
        data = compiled(po)
        if mo.exists() and mo.read_bytes() == data:
            continue
        if check:
            stale.append(mo.relative_to(ROOT))
        else:
            mo.write_bytes(data)
            print(f"compiled {mo.relative_to(ROOT)}")
    if stale:
        print("out of date (run `make messages`):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
