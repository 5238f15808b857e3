"""Named prepared statements for the few queries every game action runs, on PostgreSQL.

Planning a statement costs PostgreSQL more than running it for the small, hot queries of an
action (the locked match read: 190 us of server CPU planned every time, 80 us prepared).
Django's client-side binding plans every statement anew, so these few are prepared once
per connection with SQL `PREPARE` and run with `EXECUTE name(%s, ...)`, which still binds
its arguments on the client and so can share a round trip with other statements.

A prepared statement lives as long as the database session and is not undone by a
rollback. Connections are tracked by their driver object: a new connection (Django
reconnects after CONN_MAX_AGE, or after an error) gets its statements prepared again.
Statements name their columns (no `*`), so that adding a column to a table does not make
running workers fail with "cached plan must not change result type".
"""

from __future__ import annotations

import hashlib
import weakref
from typing import Any

from django.db import connection

_prepared: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


class PreparedStatement:
    """`sql` with PostgreSQL placeholders ($1, $2, ...; cast where the type is ambiguous),
    `arity` of them. `execute_sql()` is the text to run in its place, with `arity` %s
    placeholders for Django's cursor."""

    def __init__(self, name: str, sql: str, arity: int) -> None:
        # The name carries a digest of the text: a changed statement is a new one, so a
        # session never runs an older text under a reused name.
        digest = hashlib.sha1(sql.encode(), usedforsecurity=False).hexdigest()[:10]
        self.name, self.sql, self.arity = f"{name}_{digest}", sql, arity

    def execute_sql(self) -> str:
        """`EXECUTE name(%s, ...)`, after preparing the statement on this connection if it
        is not yet. PostgreSQL only."""
        connection.ensure_connection()
        names = _prepared.setdefault(connection.connection, set())
        if self.name not in names:
            with connection.cursor() as cursor:
                cursor.execute(f"PREPARE {self.name} AS {self.sql}")
            names.add(self.name)
        placeholders = ", ".join(["%s"] * self.arity)
        return f"EXECUTE {self.name}({placeholders})" if self.arity else f"EXECUTE {self.name}"
