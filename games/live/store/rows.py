"""A move's reads and writes, as SQL written once per process.

Every move reads the same few rows (its table, locked; the open deal with its
match; the table's seats; the presence of the seat to act next) and writes two
(the deal's actions, the table's version). At 50 busy tables Django rebuilt and
recompiled those queries on every move: a quarter of a Daphne's CPU.
Here each statement is plain SQL that PostgreSQL and SQLite both speak, and what
it reads becomes field values through the fields' own converters (in the order
Django's compiler applies them) and model instances through ``Model.from_db``:
the rest of the code gets exactly what the ORM would have built. What is not on
every move's path stays with the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model

from games.models import Deal, Match

M = TypeVar("M", bound=Model)
#: (position in the row, the converters in order, the column they convert)
Conversions = tuple[tuple[int, tuple[Callable[[Any, Any, Any], Any], ...], Any], ...]


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _conversions(fields: Sequence[Any], alias: str) -> Conversions:
    found = []
    for i, field in enumerate(fields):
        col = field.get_col(alias)
        # As Django's compiler does: the backend's converters, then the field's.
        chain = (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
        if chain:
            found.append((i, chain, col))
    return tuple(found)


def _convert(row: Sequence[Any], conversions: Conversions, start: int = 0) -> list[Any]:
    values = list(row[start:])
    for i, chain, col in conversions:
        for convert in chain:
            values[i] = convert(values[i], col, connection)
    return values


@dataclass(frozen=True)
class Shape:
    """A model's columns as a SELECT list under a table alias, and how a row of
    them becomes an instance."""

    model: type[Model]
    columns: str
    attnames: tuple[str, ...]
    conversions: Conversions

    def build(self, row: Sequence[Any], start: int = 0) -> Any:
        values = _convert(row[: start + len(self.attnames)], self.conversions, start)
        return self.model.from_db(connection.alias, self.attnames, values)


@cache
def _shape(model: type[Model], alias: str, vendor: str) -> Shape:
    fields = model._meta.concrete_fields
    columns = ", ".join(f"{quote(alias)}.{quote(f.column)}" for f in fields)
    return Shape(model, columns, tuple(f.attname for f in fields), _conversions(fields, alias))


def shape(model: type[Model], alias: str) -> Shape:
    return _shape(model, alias, connection.vendor)


def lock_clause() -> str:
    # SQLite has no row locks: its write transaction serialises moves instead.
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


def _fetch(sql: str, params: Sequence[Any]) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _table(model: type[Model]) -> str:
    return f"{quote(model._meta.db_table)} {quote('t')}"


def select(
    model: type[M], where: str, params: Sequence[Any], *, order_by: str = "", lock: bool = False
) -> list[M]:
    """The model's rows matching ``where`` (SQL on its columns, table alias ``t``)."""
    row_shape = shape(model, "t")
    sql = f"SELECT {row_shape.columns} FROM {_table(model)} WHERE {where}"
    if order_by:
        sql += f" ORDER BY {order_by}"
    if lock:
        sql += lock_clause()
    return [row_shape.build(row) for row in _fetch(sql, params)]


def select_values(
    model: type[Model], names: Sequence[str], where: str, params: Sequence[Any]
) -> list[list[Any]]:
    """``values_list(*names)`` of the model's rows matching ``where`` (alias ``t``)."""
    fields = [_column(model, name) for name in names]
    conversions = _conversions(fields, "t")
    columns = ", ".join(f"{quote('t')}.{quote(f.column)}" for f in fields)
    sql = f"SELECT {columns} FROM {_table(model)} WHERE {where}"
    return [_convert(row, conversions) for row in _fetch(sql, params)]


def _column(model: type[Model], name: str) -> Field[Any, Any]:
    """The field that is column ``name`` of ``model`` (the SQL here reads and writes
    plain columns only, never a relation's other side)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


def newest_open_deal(table_id: int) -> Deal | None:
    """The table's newest open deal, its match loaded with it (one query)."""
    deal_shape, match_shape = shape(Deal, "d"), shape(Match, "m")
    sql = (
        f"SELECT {deal_shape.columns}, {match_shape.columns} "
        f"FROM {quote(Deal._meta.db_table)} {quote('d')} "
        f"INNER JOIN {quote(Match._meta.db_table)} {quote('m')} "
        f"ON {quote('m')}.{quote('id')} = {quote('d')}.{quote('match_id')} "
        f"WHERE {quote('m')}.{quote('table_id')} = %s AND {quote('d')}.{quote('status')} = %s "
        f"ORDER BY {quote('d')}.{quote('match_id')} DESC, {quote('d')}.{quote('number')} DESC "
        "LIMIT 1"
    )
    found = _fetch(sql, [table_id, Deal.Status.PLAYING.value])
    if not found:
        return None
    deal = deal_shape.build(found[0])
    deal.match = match_shape.build(found[0], start=len(deal_shape.attnames))
    return deal


def update(instance: Model, fields: Sequence[str]) -> None:
    """``instance.save(update_fields=fields)`` in one statement, for plain fields
    of a model without ``pre_save`` work or save signals."""
    meta = type(instance)._meta
    assignments, params = [], []
    for name in fields:
        field = _column(type(instance), name)
        assignments.append(f"{quote(field.column)} = %s")
        params.append(field.get_db_prep_save(getattr(instance, field.attname), connection))
    params.append(instance.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)} "
            f"WHERE {quote(meta.pk.column)} = %s",
            params,
        )
