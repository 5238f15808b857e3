"""What a writer of a stream reads before it decides: the latest snapshot, the events after
it and the stream's head, in one round trip on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from core.prepared import PreparedStatement
from eventstore._shared import PG_SELECT, decode_rows, json_value, stream_head
from eventstore.read import load
from eventstore.records import GENESIS_HASH, RecordedEvent
from eventstore.snapshots import (
    SEAL_COLUMNS,
    SealedSnapshot,
    ignored,
    snapshot_load,
    snapshot_problem,
)


@dataclass(frozen=True)
class StreamTail:
    """What a writer of a stream needs to go on: its latest snapshot of one kind (or None),
    the events after it, and the stream's head (version, hash; (0, GENESIS_HASH) if empty)."""

    snapshot: tuple[int, dict] | None
    events: list[RecordedEvent]
    head: tuple[int, str]


def read_tail(
    *,
    stream_id: str,
    kind: str,
    without: Sequence[str] = (),
    first: tuple[str, list[Any]] | None = None,
) -> tuple[list[tuple] | None, StreamTail]:
    """The stream's latest snapshot of `kind` (less the keys `without`, as `snapshot_load`),
    the events after it, and its head, in one round trip on PostgreSQL.

    `first` is a statement (sql, params) run before them in the same round trip, typically
    the lock on the row that guards the stream; its rows are returned with the tail (None
    without `first`).
    """
    if connection.vendor == "postgresql":
        snapshot_sql, params = _PG_TAIL_SNAPSHOT.statement([list(without), stream_id, kind])
        events_sql, events_params = _PG_TAIL_EVENTS.statement([stream_id, kind])
        sql, params = f"{snapshot_sql}; {events_sql}", [*params, *events_params]
        if first is not None:
            sql, params = f"{first[0]}; {sql}", [*first[1], *params]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            first_rows = None
            if first is not None:
                first_rows = cursor.fetchall()
                cursor.nextset()
            snapshot_row = cursor.fetchone()
            cursor.nextset()
            events = decode_rows(cursor.fetchall())
        snapshot = (snapshot_row[0], json_value(snapshot_row[1])) if snapshot_row else None
        if snapshot is not None and _untrusted(stream_id, kind, snapshot_row, snapshot, events):
            return first_rows, _tail_without_snapshot(stream_id)
        tail = _tail(stream_id, snapshot, events)
        if tail is not None:
            return first_rows, tail
        # A snapshot was saved between the two reads: read again, the slow way.
        return first_rows, _read_tail_apart(stream_id, kind, without)
    first_rows = None
    if first is not None:
        with connection.cursor() as cursor:
            cursor.execute(*first)
            first_rows = cursor.fetchall()
    return first_rows, _read_tail_apart(stream_id, kind, without)


# The snapshot, then the events from the snapshot's own one (for its hash) on. Prepared:
# every action runs them, and planning them cost PostgreSQL more than running them.
_PG_TAIL_SNAPSHOT = PreparedStatement(
    "eventstore_tail_snapshot",
    f"SELECT version, state - $1::text[], {SEAL_COLUMNS} FROM eventstore_snapshot"
    " WHERE stream_id = $2 AND kind = $3 ORDER BY version DESC LIMIT 1",
    3,
)


def _untrusted(
    stream_id: str,
    kind: str,
    row: Sequence[Any],
    snapshot: tuple[int, dict],
    events: list[RecordedEvent],
) -> bool:
    """Does the snapshot read with the tail fail its check (eventstore.snapshots)? The
    events read with it start at its own event, whose hash it must carry."""
    at = snapshot[0]
    actual = events[0].hash if events and events[0].version == at else None
    sealed = SealedSnapshot(stream_id, kind, at, row[2], json_value(row[3]), row[4], row[5])
    problem = snapshot_problem(sealed, snapshot[1], actual_event_hash=actual)
    if problem:
        ignored(sealed, problem)
    return bool(problem)


def _tail_without_snapshot(stream_id: str) -> StreamTail:
    return StreamTail(None, load(stream_id=stream_id), stream_head(stream_id))


_PG_TAIL_EVENTS = PreparedStatement(
    "eventstore_tail_events",
    PG_SELECT
    + "stream_id = $1 AND version >= COALESCE((SELECT max(version) FROM eventstore_snapshot"
    " WHERE stream_id = $1 AND kind = $2), 0) ORDER BY version",
    2,
)


def _read_tail_apart(stream_id: str, kind: str, without: Sequence[str]) -> StreamTail:
    snapshot = snapshot_load(stream_id=stream_id, kind=kind, without=without)
    at = snapshot[0] if snapshot else 0
    tail = _tail(stream_id, snapshot, load(stream_id=stream_id, after_version=max(at - 1, 0)))
    if tail is None:
        # The snapshot's own event is not there (its stream was wiped): no snapshot then.
        return _tail_without_snapshot(stream_id)
    return tail


def _tail(
    stream_id: str, snapshot: tuple[int, dict] | None, events: list[RecordedEvent]
) -> StreamTail | None:
    """The tail from a snapshot and the events from the snapshot's own on; None when they
    do not meet (the events start after the snapshot's version)."""
    at = snapshot[0] if snapshot else 0
    start = at if at else 1
    if events and events[0].version != start or not events and at:
        return None
    head = (events[-1].version, events[-1].hash) if events else (0, GENESIS_HASH)
    return StreamTail(snapshot, events[1:] if at else events, head)


def load_from(
    *, stream_id: str, version: int, first: tuple[str, list[Any]]
) -> tuple[list[tuple], list[RecordedEvent]]:
    """The rows of `first` (a statement: sql, params) and the stream's events from
    `version` on (that one included), in one round trip on PostgreSQL: what a live
    stream's follower reads after each commit, from the head it holds (whose hash it checks)."""
    if connection.vendor == "postgresql":
        events_sql, events_params = _PG_EVENTS_FROM.statement([stream_id, version])
        with connection.cursor() as cursor:
            cursor.execute(f"{first[0]}; {events_sql}", [*first[1], *events_params])
            first_rows = cursor.fetchall()
            cursor.nextset()
            return first_rows, decode_rows(cursor.fetchall())
    with connection.cursor() as cursor:
        cursor.execute(*first)
        first_rows = cursor.fetchall()
    return first_rows, load(stream_id=stream_id, after_version=version - 1)


_PG_EVENTS_FROM = PreparedStatement(
    "eventstore_events_from", PG_SELECT + "stream_id = $1 AND version >= $2 ORDER BY version", 2
)
