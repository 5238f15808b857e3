"""The idempotency record now belongs to `core` (its migration 0001): players forgets the
model without touching its table or rows."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_idempotency_record"),
        ("core", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="IdempotencyRecord")],
        )
    ]
