"""The snapshot and subscription tables take the event store's own names, `eventstore_snapshot`
and `eventstore_subscription` (they were `games_snapshot` and `games_subscription` since before
the store left the games app), as the event table did in 0006. No row moves: a rename is a
change of the catalogue, instant on a populated table once its lock is granted.

PostgreSQL: each table is renamed with its primary key, its constraints, its sequence and its
index; the unique constraint takes the event store's name. A view named like each old table
keeps the previous release's processes, still running while `migrate` runs, reading and
writing snapshots and subscription positions (simple views: PostgreSQL passes their INSERT
... ON CONFLICT, UPDATE, DELETE and SELECT ... FOR UPDATE to the table). A later release drops
them (docs/contributing/migrations.md, "Contract one release later").

SQLite (`make run`): the tables renamed, no views (one process at a time, no rolling
upgrade); SQLite keeps an inline constraint's name as written, which nothing reads.
The SQL is frozen here on purpose (migrations are history)."""

from django.db import migrations, models

PG_FORWARD = [
    "ALTER TABLE games_snapshot RENAME TO eventstore_snapshot",
    "ALTER TABLE eventstore_snapshot RENAME CONSTRAINT games_snapshot_pkey"
    " TO eventstore_snapshot_pkey",
    "ALTER TABLE eventstore_snapshot RENAME CONSTRAINT games_snapshot_stream_kind_version"
    " TO eventstore_snapshot_stream_kind_version",
    "ALTER TABLE eventstore_snapshot RENAME CONSTRAINT games_snapshot_version_check"
    " TO eventstore_snapshot_version_check",
    "ALTER SEQUENCE IF EXISTS games_snapshot_id_seq RENAME TO eventstore_snapshot_id_seq",
    "ALTER TABLE games_subscription RENAME TO eventstore_subscription",
    "ALTER TABLE eventstore_subscription RENAME CONSTRAINT games_subscription_pkey"
    " TO eventstore_subscription_pkey",
    "ALTER INDEX IF EXISTS games_subscription_name_96d10349_like"
    " RENAME TO eventstore_subscription_name_like",
    # For the previous release's processes during the upgrade; a later release drops them.
    "CREATE VIEW games_snapshot AS SELECT * FROM eventstore_snapshot",
    "CREATE VIEW games_subscription AS SELECT * FROM eventstore_subscription",
]

PG_BACKWARD = [
    "DROP VIEW IF EXISTS games_snapshot",
    "DROP VIEW IF EXISTS games_subscription",
    "ALTER TABLE eventstore_snapshot RENAME TO games_snapshot",
    "ALTER TABLE games_snapshot RENAME CONSTRAINT eventstore_snapshot_pkey TO games_snapshot_pkey",
    "ALTER TABLE games_snapshot RENAME CONSTRAINT eventstore_snapshot_stream_kind_version"
    " TO games_snapshot_stream_kind_version",
    "ALTER TABLE games_snapshot RENAME CONSTRAINT eventstore_snapshot_version_check"
    " TO games_snapshot_version_check",
    "ALTER SEQUENCE IF EXISTS eventstore_snapshot_id_seq RENAME TO games_snapshot_id_seq",
    "ALTER TABLE eventstore_subscription RENAME TO games_subscription",
    "ALTER TABLE games_subscription RENAME CONSTRAINT eventstore_subscription_pkey"
    " TO games_subscription_pkey",
    "ALTER INDEX IF EXISTS eventstore_subscription_name_like"
    " RENAME TO games_subscription_name_96d10349_like",
]

SQLITE_FORWARD = [
    "ALTER TABLE games_snapshot RENAME TO eventstore_snapshot",
    "ALTER TABLE games_subscription RENAME TO eventstore_subscription",
]
SQLITE_BACKWARD = [
    "ALTER TABLE eventstore_snapshot RENAME TO games_snapshot",
    "ALTER TABLE eventstore_subscription RENAME TO games_subscription",
]


def _run(schema_editor, statements: list[str]) -> None:
    for statement in statements:
        schema_editor.execute(statement, params=None)


def forward(apps, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, PG_FORWARD)
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_FORWARD)


def backward(apps, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, PG_BACKWARD)
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0006_event_table_renamed_and_partitioned_by_stream")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(forward, backward)],
            state_operations=[
                migrations.AlterModelTable(name="snapshot", table="eventstore_snapshot"),
                migrations.AlterModelTable(name="subscription", table="eventstore_subscription"),
                migrations.RemoveConstraint(
                    model_name="snapshot", name="games_snapshot_stream_kind_version"
                ),
                migrations.AddConstraint(
                    model_name="snapshot",
                    constraint=models.UniqueConstraint(
                        fields=("stream_id", "kind", "version"),
                        name="eventstore_snapshot_stream_kind_version",
                    ),
                ),
            ],
        )
    ]
