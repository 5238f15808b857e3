"""Database triggers that make games_storedevent append-only.

PostgreSQL: a trigger function refuses UPDATE and DELETE (row level) and TRUNCATE.
SQLite: BEFORE UPDATE / BEFORE DELETE triggers abort. The SQL is frozen here on purpose
(migrations are history); eventstore keeps the copy it uses for maintenance.
"""

from django.db import migrations

PG_CREATE = """
CREATE OR REPLACE FUNCTION games_storedevent_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'games_storedevent is append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation',
              HINT = 'Record a new event instead of changing history.';
END;
$$;
CREATE TRIGGER games_storedevent_append_only
    BEFORE UPDATE OR DELETE ON games_storedevent
    FOR EACH ROW EXECUTE FUNCTION games_storedevent_refuse_change();
CREATE TRIGGER games_storedevent_no_truncate
    BEFORE TRUNCATE ON games_storedevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_storedevent_refuse_change();
"""

PG_DROP = """
DROP TRIGGER IF EXISTS games_storedevent_no_truncate ON games_storedevent;
DROP TRIGGER IF EXISTS games_storedevent_append_only ON games_storedevent;
DROP FUNCTION IF EXISTS games_storedevent_refuse_change();
"""

SQLITE_CREATE = [
    """
    CREATE TRIGGER IF NOT EXISTS games_storedevent_no_update
    BEFORE UPDATE ON games_storedevent
    BEGIN SELECT RAISE(ABORT, 'games_storedevent is append-only: UPDATE refused'); END;
    """,
    """
    CREATE TRIGGER IF NOT EXISTS games_storedevent_no_delete
    BEFORE DELETE ON games_storedevent
    BEGIN SELECT RAISE(ABORT, 'games_storedevent is append-only: DELETE refused'); END;
    """,
]

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS games_storedevent_no_update;",
    "DROP TRIGGER IF EXISTS games_storedevent_no_delete;",
]


def _run(schema_editor, statements: list[str]) -> None:
    for statement in statements:
        schema_editor.execute(statement, params=None)


def create_triggers(apps, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, [PG_CREATE])
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_CREATE)
    # Other databases are not supported by this project; the model still refuses changes.


def drop_triggers(apps, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, [PG_DROP])
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_DROP)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_events")]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
