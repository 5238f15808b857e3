"""Snapshots: a disposable cache of a stream's state, by kind (the state's shape) and version."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection

from eventstore._shared import json_roundtrip, json_value
from eventstore.models import Snapshot

# --- snapshots -----------------------------------------------------------------------------


def snapshot_save(*, stream_id: str, version: int, state: dict, kind: str) -> None:
    """Cache `state` of the stream at `version`. `kind` names the state's shape (bump it
    when the shape changes: old snapshots are then ignored)."""
    # One INSERT ... ON CONFLICT DO UPDATE (update_or_create took a locked read and a
    # savepoint on top).
    row = Snapshot(
        stream_id=stream_id, kind=kind, version=version, state=json_roundtrip(state, "snapshot")
    )
    Snapshot.objects.bulk_create(
        [row],
        update_conflicts=True,
        unique_fields=["stream_id", "kind", "version"],
        update_fields=["state", "created_at"],
    )


def snapshot_load(
    *, stream_id: str, kind: str, max_version: int | None = None, without: Sequence[str] = ()
) -> tuple[int, dict] | None:
    """(version, state) of the latest snapshot of that kind, at or before `max_version`.

    `without` names top-level keys of the state to leave out (on PostgreSQL they are not
    even sent): a large part the reader may never need can be read later, if at all,
    with `snapshot_part`.
    """
    if connection.vendor == "postgresql":
        sql = "SELECT version, state - %s::text[] FROM games_snapshot WHERE stream_id = %s"
        params: list[Any] = [list(without), stream_id]
        sql, params = sql + " AND kind = %s", [*params, kind]
        if max_version is not None:
            sql, params = sql + " AND version <= %s", [*params, max_version]
        with connection.cursor() as cursor:
            cursor.execute(sql + " ORDER BY version DESC LIMIT 1", params)
            found = cursor.fetchone()
        return (found[0], json_value(found[1])) if found else None
    snapshots = Snapshot.objects.filter(stream_id=stream_id, kind=kind)
    if max_version is not None:
        snapshots = snapshots.filter(version__lte=max_version)
    found = snapshots.order_by("-version").values_list("version", "state").first()
    if not found:
        return None
    state = found[1]
    for key in without:
        state.pop(key, None)
    return found[0], state


def snapshot_part(*, stream_id: str, kind: str, version: int, key: str) -> Any:
    """One top-level key of the state of one snapshot; None when that snapshot (or key) is
    not there (snapshots may be deleted at any time)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT state -> %s FROM games_snapshot"
                " WHERE stream_id = %s AND kind = %s AND version = %s",
                [key, stream_id, kind, version],
            )
            found = cursor.fetchone()
        return json_value(found[0]) if found and found[0] is not None else None
    state = (
        Snapshot.objects.filter(stream_id=stream_id, kind=kind, version=version)
        .values_list("state", flat=True)
        .first()
    )
    return state.get(key) if state else None


def snapshot_delete(*, stream_id: str | None = None, kind: str | None = None) -> int:
    """Drop snapshots (all, or of one stream and/or kind); returns how many."""
    snapshots = Snapshot.objects.all()
    if stream_id is not None:
        snapshots = snapshots.filter(stream_id=stream_id)
    if kind is not None:
        snapshots = snapshots.filter(kind=kind)
    return snapshots.delete()[0]
