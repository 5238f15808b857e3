"""The tournament read models re-derived from their events: releases before 821e58f
stamped registrations, rounds and a tournament's end with the time of the write, where
they now carry the time of their event (`verify_projections` reported each such row as a
difference). Each tournament's rows are rebuilt from its events, as
`verify_projections --rebuild` does; a tournament whose rows already agree is written
unchanged.

This runs this release's projection code, so it depends on every app's latest migration of
this release; a later release that changes these models makes it a no-op (databases older
than that upgrade through this release first: docs/operators/backup-restore.md, Upgrade)."""

from django.db import migrations


def rederive(apps, schema_editor):
    # A no-op since issue 40 added columns to these models (the capacity, a registration's
    # no_show): this release's projection code no longer fits this point of the history.
    # A database older than 821e58f upgrades through the release before issue 40 first.
    return


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_round_clock"),
        ("eventstore", "0004_purge_unsealed_snapshots"),
        ("games", "0012_table_entry_amended"),
        ("players", "0008_remove_player_rating"),
        ("ratings", "0002_history_without_single_key_indexes"),
        ("core", "0003_access_tokens"),
    ]

    operations = [migrations.RunPython(rederive, migrations.RunPython.noop, elidable=True)]
