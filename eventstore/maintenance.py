"""Maintenance: the append-only triggers lifted for a while, to wipe a whole database or for
tamper drills."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction

# --- maintenance ---------------------------------------------------------------------------

_PG_TRIGGERS = ("games_storedevent_append_only", "games_storedevent_no_truncate")
_SQLITE_TRIGGERS = {
    "games_storedevent_no_update": "UPDATE",
    "games_storedevent_no_delete": "DELETE",
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


def _triggers_off(vendor: str, cursor: Any) -> list[str]:
    if vendor == "postgresql":
        cursor.execute(
            "SELECT tgname FROM pg_trigger"
            " WHERE tgrelid = to_regclass('games_storedevent') AND tgname = ANY(%s)",
            [list(_PG_TRIGGERS)],
        )
        names = [name for (name,) in cursor.fetchall()]
        for name in names:
            cursor.execute(f"ALTER TABLE games_storedevent DISABLE TRIGGER {name}")
        return names
    if vendor == "sqlite":
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
            ["games_storedevent"],
        )
        names = [name for (name,) in cursor.fetchall() if name in _SQLITE_TRIGGERS]
        for name in names:
            cursor.execute(f"DROP TRIGGER {name}")
        return names
    return []


def _triggers_on(vendor: str, cursor: Any, names: list[str]) -> None:
    for name in names:
        if vendor == "postgresql":
            cursor.execute(f"ALTER TABLE games_storedevent ENABLE TRIGGER {name}")
        else:
            operation = _SQLITE_TRIGGERS[name]
            cursor.execute(
                f"CREATE TRIGGER {name} BEFORE {operation} ON games_storedevent"
                f" BEGIN SELECT RAISE(ABORT, 'games_storedevent is append-only:"
                f" {operation} refused'); END"
            )
