"""The stored events, snapshots and subscriptions move from the games app to the event store:
the tables (made by games 0001 to 0006, triggers and indexes included) are kept as they are,
only Django's record of which app owns the models changes. No data moves."""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [("games", "0006_matchhand_unfinished")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Subscription",
                    fields=[
                        ("name", models.CharField(max_length=100, primary_key=True, serialize=False)),
                        ("position", models.BigIntegerField(default=0)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                    ],
                    options={"db_table": "games_subscription"},
                ),
                migrations.CreateModel(
                    name="Snapshot",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("stream_id", models.CharField(max_length=200)),
                        ("kind", models.CharField(max_length=60)),
                        ("version", models.PositiveIntegerField()),
                        ("state", models.JSONField()),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "games_snapshot",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("stream_id", "kind", "version"),
                                name="games_snapshot_stream_kind_version",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="StoredEvent",
                    fields=[
                        ("position", models.BigAutoField(primary_key=True, serialize=False)),
                        ("stream_id", models.CharField(max_length=200)),
                        ("version", models.PositiveIntegerField()),
                        ("type", models.CharField(max_length=100)),
                        ("schema_version", models.PositiveSmallIntegerField(default=1)),
                        ("data", models.JSONField()),
                        ("metadata", models.JSONField(default=dict)),
                        ("recorded_at", models.DateTimeField()),
                        ("hash", models.CharField(max_length=64)),
                        ("tx_id", models.BigIntegerField(blank=True, null=True)),
                    ],
                    options={
                        "db_table": "games_storedevent",
                        "ordering": ["position"],
                        "indexes": [models.Index(fields=["type"], name="games_stored_type_idx")],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("stream_id", "version"),
                                name="games_storedevent_stream_version_uniq",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("version__gte", 1)),
                                name="games_storedevent_version_gte_1",
                            ),
                        ],
                    },
                ),
            ],
        )
    ]
