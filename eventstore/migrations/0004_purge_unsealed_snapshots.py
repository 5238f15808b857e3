"""Snapshots written before seals (seal NULL) are deleted: they are a cache of an older
state shape (`verify_events --deep` found them "superseded", and older releases reported
them as bad), and the one kind of snapshot readers trusted without a seal. Readers replay
the events and write sealed snapshots as they go. Events are not touched."""

from django.db import migrations


def purge_unsealed(apps, schema_editor):
    Snapshot = apps.get_model("eventstore", "Snapshot")
    Snapshot.objects.filter(seal__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0003_chain_key_ids")]

    operations = [migrations.RunPython(purge_unsealed, migrations.RunPython.noop, elidable=True)]
