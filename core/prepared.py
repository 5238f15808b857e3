"""Named prepared statements for the few queries every game action runs, on PostgreSQL.

Planning a statement costs PostgreSQL more than running it for the small, hot queries of an
action (the locked match read: 190 us of server CPU planned every time, 80 us prepared).
Django's client-side binding plans every statement anew, so these few are prepared once
per connection with SQL `PREPARE` and run with `EXECUTE name(%s, ...)`, which still binds
its arguments on the client and so can share a round trip with other statements.

A prepared statement lives as long as the database session and is not undone by a
rollback. Connections are tracked by their driver object: a new connection (Django
reconnects after CONN_MAX_AGE, after an error, or when its health check finds it dead)
gets its statements prepared again.
Statements name their columns (no `*`), so that adding a column to a table does not make
running workers fail with "cached plan must not change result type".

Behind a pooler that hands a session's server connection to others between transactions
(pgbouncer in transaction mode), prepared statements do not follow the client: set
DB_PREPARED_STATEMENTS=false and the same statements are sent as plain SQL.
"""

from __future__ import annotations

import functools
import hashlib
import re
import weakref
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import connection, models

_prepared: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
_PLACEHOLDER = re.compile(r"\$(\d+)")


class PreparedStatement:
    """`sql` with PostgreSQL placeholders ($1, $2, ...; cast where the type is ambiguous),
    `arity` of them. `statement(params)` gives what to run in its place: (sql, params) for
    Django's cursor."""

    def __init__(self, name: str, sql: str, arity: int) -> None:
        # The name carries a digest of the text: a changed statement is a new one, so a
        # session never runs an older text under a reused name.
        digest = hashlib.sha1(sql.encode(), usedforsecurity=False).hexdigest()[:10]
        self.name, self.sql, self.arity = f"{name}_{digest}", sql, arity
        # The plain form: %s placeholders, one per use of a $n, and the order of the
        # arguments that fills them.
        self._plain = _PLACEHOLDER.sub("%s", sql.replace("%", "%%"))
        self._order = [int(n) - 1 for n in _PLACEHOLDER.findall(sql)]

    def statement(self, params: Sequence[Any]) -> tuple[str, list[Any]]:
        """(sql, params) running this statement: EXECUTE of the prepared statement (prepared
        on this connection first if need be), or the plain SQL when
        DB_PREPARED_STATEMENTS is off. PostgreSQL only."""
        if len(params) != self.arity:
            raise ValueError(f"{self.name} takes {self.arity} arguments, not {len(params)}")
        if not settings.DB_PREPARED_STATEMENTS:
            return self._plain, [params[i] for i in self._order]
        return self.execute_sql(), list(params)

    def execute_sql(self) -> str:
        """`EXECUTE name(%s, ...)`, after preparing the statement on this connection if it
        is not yet."""
        # A connection that died since its last use (a restarted server, a terminated
        # backend) is replaced by the health check of the request's first cursor
        # (CONN_HEALTH_CHECKS). Run that check now, before looking the statement up: looked
        # up against the dead connection, it would be EXECUTEd unprepared on its successor.
        connection.close_if_health_check_failed()
        connection.ensure_connection()
        names = _prepared.setdefault(connection.connection, set())
        if self.name not in names:
            with connection.cursor() as cursor:
                cursor.execute(f"PREPARE {self.name} AS {self.sql}")
            names.add(self.name)
        placeholders = ", ".join(["%s"] * self.arity)
        return f"EXECUTE {self.name}({placeholders})" if self.arity else f"EXECUTE {self.name}"


def model_columns(model: type[models.Model], alias: str) -> str:
    """The model's concrete columns, in field order, qualified by the table `alias`: the
    select list that `model_from_row` reads back."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


def row_lock(model: type[models.Model], pk: Any) -> tuple[str, list[Any]]:
    """The query (and its parameters) that reads the row `pk` of `model` as `model_columns`
    lists it and locks it until the end of the transaction, where the database locks rows:
    a stream repository's `lock` (eventstore.repository)."""
    quote = connection.ops.quote_name
    sql = (
        f"SELECT {model_columns(model, 't')} FROM {quote(model._meta.db_table)} AS t"
        " WHERE t.id = %s"
    )
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE OF t"
    return sql, [pk]


def model_from_row(model: type[models.Model], values: Sequence[Any]) -> models.Model:
    """An instance from the values of `model_columns` (extra trailing values are ignored),
    converted as the ORM converts what it reads (the backend's and the fields'
    converters)."""
    converted = []
    for value, (col, converters) in zip(
        values, _converters(model, connection.vendor), strict=False
    ):
        for convert in converters:
            value = convert(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, None, converted)


@functools.cache
def _converters(model: type[models.Model], vendor: str) -> list[tuple[Any, list[Any]]]:
    out = []
    for field in model._meta.concrete_fields:
        col = field.get_col(model._meta.db_table)
        out.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
    return out
