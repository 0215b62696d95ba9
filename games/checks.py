"""System checks that need the database (run by ``migrate``, and by ``check --database``)."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from django.core.checks import CheckMessage, Error, Tags, register
from django.db import connections
from django.db.migrations.recorder import MigrationRecorder

INITIAL = "0001_initial"


@register(Tags.database)
def old_migrations_applied_whole(
    app_configs: Iterable[Any] | None = None,
    databases: Iterable[str] | None = None,
    **kwargs: Any,
) -> list[CheckMessage]:
    """A database that applied only part of the migrations games/migrations/0001_initial.py
    replaces would otherwise be migrated silently as if games had no migrations, and
    keep a half-built schema (docs/DECISIONS.md P-48)."""
    replaced = {
        name
        for _, name in importlib.import_module(f"games.migrations.{INITIAL}").Migration.replaces
    }
    errors: list[CheckMessage] = []
    for alias in databases or ():
        recorder = MigrationRecorder(connections[alias])
        if not recorder.has_table():
            continue
        applied = set(recorder.migration_qs.filter(app="games").values_list("name", flat=True))
        done = applied & replaced
        if done == replaced or not (done or INITIAL in applied):
            continue
        errors.append(
            Error(
                f"The database {alias!r} applied {len(done | (applied & {INITIAL}))} of the "
                f"{len(replaced) + 1} games migrations that games/migrations/{INITIAL}.py "
                "replaces.",
                hint="Migrate it with the release that still has them first "
                "(docs/DECISIONS.md P-48 names it).",
                id="games.E001",
            )
        )
    return errors
