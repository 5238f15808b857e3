"""The event models now belong to the `eventstore` app (its migration 0001): the games app
forgets them without touching their tables."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_matchhand_unfinished"),
        ("eventstore", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="StoredEvent"),
                migrations.DeleteModel(name="Snapshot"),
                migrations.DeleteModel(name="Subscription"),
            ],
        )
    ]
