"""Maintenance: the append-only triggers lifted for a while, to wipe a whole database or for
tamper drills."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction

# --- maintenance ---------------------------------------------------------------------------

_TABLE = "eventstore_event"
_PG_TRIGGERS = ("eventstore_event_append_only", "eventstore_event_no_truncate")
_SQLITE_TRIGGERS = {
    "eventstore_event_no_update": "UPDATE",
    "eventstore_event_no_delete": "DELETE",
}


@contextmanager
def immutability_suspended(*, using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Lift the append-only triggers inside one transaction, for wiping a whole database
    (`manage.py flush`, test teardown) or for tamper drills. Never for business code: the
    model still refuses changes, and `verify` will name any event altered meanwhile."""
    conn = connections[using]
    with transaction.atomic(using=using), conn.cursor() as cursor:
        lifted = _triggers_off(conn.vendor, cursor)
        yield
        _triggers_on(conn.vendor, cursor, lifted)


def _triggers_off(vendor: str, cursor: Any) -> list[tuple[str, str]]:
    """(table, trigger) of each trigger lifted. On PostgreSQL the table is partitioned:
    its row trigger has a clone on each partition, and each partition has a TRUNCATE trigger
    of its own; each is lifted on its own table (ONLY), so none is missed or lifted twice."""
    if vendor == "postgresql":
        cursor.execute(
            "SELECT c.relname, t.tgname FROM pg_trigger AS t JOIN pg_class AS c"
            " ON c.oid = t.tgrelid WHERE t.tgname = ANY(%s) AND t.tgrelid IN"
            " (SELECT relid FROM pg_partition_tree(to_regclass(%s)))"
            " ORDER BY c.relname, t.tgname",
            [list(_PG_TRIGGERS), _TABLE],
        )
        lifted = [(table, name) for table, name in cursor.fetchall()]
        for table, name in lifted:
            cursor.execute(f"ALTER TABLE ONLY {table} DISABLE TRIGGER {name}")
        return lifted
    if vendor == "sqlite":
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [_TABLE]
        )
        names = [name for (name,) in cursor.fetchall() if name in _SQLITE_TRIGGERS]
        for name in names:
            cursor.execute(f"DROP TRIGGER {name}")
        return [(_TABLE, name) for name in names]
    return []


def _triggers_on(vendor: str, cursor: Any, lifted: list[tuple[str, str]]) -> None:
    for table, name in lifted:
        if vendor == "postgresql":
            cursor.execute(f"ALTER TABLE ONLY {table} ENABLE TRIGGER {name}")
        else:
            operation = _SQLITE_TRIGGERS[name]
            cursor.execute(
                f"CREATE TRIGGER {name} BEFORE {operation} ON {table}"
                f" BEGIN SELECT RAISE(ABORT, '{table} is append-only:"
                f" {operation} refused'); END"
            )
