"""A database that applied the games migrations the site had before its one
initial migration counts that migration as applied, and migrate leaves it as it
is (docs/DECISIONS.md P-48)."""

from __future__ import annotations

import importlib

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

pytestmark = pytest.mark.django_db

INITIAL = ("games", "0001_initial")
REPLACED = importlib.import_module("games.migrations.0001_initial").Migration.replaces
#: What django_migrations holds for games on a database migrated before: the old
#: files were removed, so only these rows and the list the initial migration
#: replaces still name them (kept there, with the strings the migrations stored).
OLD_CHAIN = [INITIAL[1]] + [name for _, name in REPLACED]


def recorded_games_migrations(names: list[str]) -> None:
    """Make django_migrations say games applied exactly these (rolled back with the test)."""
    recorded = MigrationRecorder(connection).migration_qs
    recorded.filter(app="games").delete()
    recorded.bulk_create(MigrationRecorder.Migration(app="games", name=name) for name in names)


def test_the_initial_migration_replaces_the_other_old_migrations_not_itself():
    """Its own name is recorded by every such database already, and a migration
    listed among those it replaces would be dropped from Django's graph."""
    assert INITIAL not in REPLACED
    assert {app for app, _ in REPLACED} == {"games"}
    assert len(set(OLD_CHAIN)) == 27


def test_a_database_that_applied_the_old_chain_has_nothing_to_migrate():
    recorded_games_migrations(OLD_CHAIN)
    loader = MigrationLoader(connection)
    assert loader.graph.leaf_nodes("games") == [INITIAL]
    assert INITIAL in loader.applied_migrations
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes("games")) == []
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []


def test_a_new_database_records_the_same_names_as_one_migrated_before():
    """The test database was made by migrate with the new initial migration."""
    recorded = MigrationRecorder(connection).migration_qs.filter(app="games")
    assert sorted(recorded.values_list("name", flat=True)) == sorted(OLD_CHAIN)


@pytest.mark.parametrize("applied", [10, 26, 1])
def test_a_database_part_way_through_the_old_chain_is_stopped_before_migrating(applied):
    """Django would take games for an app without migrations and leave its schema
    half-built; migrate runs the database checks first."""
    recorded_games_migrations(OLD_CHAIN[:applied])
    with pytest.raises(SystemCheckError, match=f"applied {applied} of the 27 games migrations"):
        call_command("check", "--database", "default")


def test_a_database_with_the_whole_old_chain_passes_the_checks():
    recorded_games_migrations(OLD_CHAIN)
    call_command("check", "--database", "default")
