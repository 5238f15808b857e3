"""The tournament read models re-derived from their events, as 0007 did before this release
made it a no-op: releases before 821e58f stamped registrations, rounds and a tournament's
end with the time of the write, where they now carry the time of their event
(`verify_projections` reported each such row as a difference). Each tournament's rows are
rebuilt from its events, as `verify_projections --rebuild` does; a tournament whose rows
already agree is written unchanged.

It runs this release's projection code, so it comes after every app's latest migration of
this release; a later release that changes these models makes it a no-op and moves it
after its own, as this one did with 0007."""

from django.db import migrations


def rederive(apps, schema_editor):
    from tournaments.models import Tournament
    from tournaments.projections import tournament_rebuild_in_tx

    for tournament in Tournament.objects.order_by("pk").iterator(chunk_size=100):
        tournament_rebuild_in_tx(tournament=tournament)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_entry_fees"),
        ("eventstore", "0006_event_table_renamed_and_partitioned_by_stream"),
        ("games", "0012_table_entry_amended"),
        ("players", "0010_player_erased_at"),
        ("ratings", "0002_history_without_single_key_indexes"),
        ("core", "0006_idempotency_reference"),
    ]

    operations = [migrations.RunPython(rederive, migrations.RunPython.noop, elidable=True)]
