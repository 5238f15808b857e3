"""The Match read model is updated on every action: let PostgreSQL do it in place.

An update is HOT (no new index entries, the old row version pruned within its page) when
no indexed column changes and the page has room. `turn_player` changes on almost every
action, so it loses its index (nothing looks matches up by whose turn it is), and the
table leaves a fifth of each page free for the new row versions.
"""

import django.db.models.deletion
from django.db import migrations, models


def set_fillfactor(apps, schema_editor, percent=80):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE games_match SET (fillfactor = {percent})")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_match RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_storedevent_global_order_index"),
        ("players", "0002_idempotency_record"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="turn_player",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="players.player",
            ),
        ),
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
