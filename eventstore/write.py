"""Writing: `append`, all of a command's events or none, with optimistic concurrency on the
stream's version and each event's hash chained to the one before it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.metrics import events_appended_on_commit
from eventstore import personal
from eventstore._shared import canonical_json, json_roundtrip, recorded, stream_head
from eventstore.encoding import event_hash
from eventstore.errors import InvalidEventError
from eventstore.models import StoredEvent
from eventstore.read import stream_version
from eventstore.records import (
    GENESIS_HASH,
    MAX_STREAM_ID_LENGTH,
    ConcurrencyError,
    NewEvent,
    RecordedEvent,
)
from eventstore.seals import event_seal, signing_key

# --- writing -------------------------------------------------------------------------------


def append(
    *,
    stream_id: str,
    expected_version: int,
    events: Sequence[NewEvent],
    head_hash: str | None = None,
    recorded_at: datetime | None = None,
    also: Sequence[Statement] = (),
) -> list[RecordedEvent]:
    """Append `events` to `stream_id`, which must be at `expected_version` (0 = new stream).

    All or nothing; joins the caller's transaction (as a savepoint). Raises ConcurrencyError
    when the stream has moved on, including when a concurrent writer commits first. Appends
    to different streams never wait for each other.

    `head_hash`: the hash of the event at `expected_version`, for a caller that has just
    read it in this transaction (`read_tail`) under a lock that keeps the stream's other
    writers out. On PostgreSQL the append is then one round trip instead of four (no head
    read; the savepoint travels with the INSERT). A writer that ignored the lock still
    cannot fork the stream: the unique (stream_id, version) index refuses it.

    `recorded_at`: the time the events are recorded at (default: now), for a caller that
    prepares statements about them before the append. `also`: statements (sql, params) to
    run right after the append, in its round trip where it has one, inside the same
    savepoint: typically the read-model updates of the same transaction.
    """
    _check_append_args(stream_id, expected_version, events)
    if any(e.personal for e in events):
        # Free text out of the hashed log (eventstore.personal), in the same savepoint.
        with transaction.atomic():
            stored, taken = personal.externalise(stream_id, events)
            appended = append(
                stream_id=stream_id,
                expected_version=expected_version,
                events=stored,
                head_hash=head_hash,
                recorded_at=recorded_at,
                also=also,
            )
            return personal.restore(appended, taken)
    if connection.vendor == "postgresql":
        # Live followers (core.live) are woken when the transaction commits; PostgreSQL
        # sends nothing if it rolls back, and one notice per stream and transaction.
        also = (*also, (_PG_NOTIFY, [NOTIFY_CHANNEL, stream_id]))
    prepared = [
        (e, json_roundtrip(e.data, "data"), json_roundtrip(e.metadata, "metadata")) for e in events
    ]
    events_appended_on_commit(e.type for e in events)  # counted when the caller commits
    if head_hash is not None and connection.vendor == "postgresql":
        return _append_pg_known_head(
            stream_id, expected_version, head_hash, prepared, recorded_at, also
        )
    try:
        with transaction.atomic():
            recorded = _append_in_transaction(stream_id, expected_version, prepared, recorded_at)
    except IntegrityError as exc:
        # The unique (stream_id, version) index refused us: another writer got there first
        # and the caller may retry.
        conflict = _conflict(stream_id, expected_version)
        if conflict is None:
            raise
        raise conflict from exc
    if also:
        with connection.cursor() as cursor:
            for sql, params in also:
                cursor.execute(sql, params)
    return recorded


# The PostgreSQL channel told the id of every stream appended to, at commit.
NOTIFY_CHANNEL = "eventstore_appended"
_PG_NOTIFY = "SELECT pg_notify(%s, %s)"

# A statement to run with an append: (sql, params).
Statement = tuple[str, Sequence[Any]]
_Prepared = tuple[NewEvent, dict, dict]  # an event, its data and metadata as read back


def _check_append_args(stream_id: str, expected_version: int, events: Sequence[NewEvent]) -> None:
    if not stream_id or len(stream_id) > MAX_STREAM_ID_LENGTH:
        raise InvalidEventError(
            gettext_noop("A stream id is 1 to %(most)s characters."), most=MAX_STREAM_ID_LENGTH
        )
    if expected_version < 0:
        raise InvalidEventError(gettext_noop("expected_version must be 0 (new stream) or more."))
    if not events:
        raise InvalidEventError(gettext_noop("Nothing to append."))
    for event in events:
        if not event.type or event.schema_version < 1:
            raise InvalidEventError(
                gettext_noop("Bad event type or schema version: %(event)r."), event=event
            )
        if not isinstance(event.data, dict) or not isinstance(event.metadata, dict):
            raise InvalidEventError(gettext_noop("Event data and metadata must be JSON objects."))


def _append_in_transaction(
    stream_id: str,
    expected_version: int,
    prepared: list[tuple[NewEvent, dict, dict]],
    recorded_at: datetime | None,
) -> list[RecordedEvent]:
    tx_id, current, prev_hash = _append_head(stream_id)
    if current != expected_version:
        raise ConcurrencyError(
            stream_id=stream_id, expected_version=expected_version, current_version=current
        )
    key = signing_key()
    rows = [
        StoredEvent(
            stream_id=e.stream_id,
            version=e.version,
            type=e.type,
            schema_version=e.schema_version,
            data=e.data,
            metadata=e.metadata,
            recorded_at=e.recorded_at,
            hash=e.hash,
            tx_id=tx_id,
            seal=event_seal(e.hash, key),
            key_id=key.key_id,
        )
        for e in _chained(stream_id, expected_version, prev_hash, prepared, recorded_at)
    ]
    StoredEvent.objects.bulk_create(rows)
    return [recorded(row, upcasted=False) for row in rows]


def _chained(
    stream_id: str,
    expected_version: int,
    prev_hash: str,
    prepared: list[_Prepared],
    recorded_at: datetime | None,
) -> list[RecordedEvent]:
    """The events as they will be recorded (at `recorded_at`, default now), each hash
    chained to the one before; their positions (0 here) are the database's to give."""
    if recorded_at is None:
        recorded_at = timezone.now()
    out = []
    for offset, (event, data, metadata) in enumerate(prepared):
        version = expected_version + offset + 1
        digest = event_hash(
            stream_id=stream_id,
            version=version,
            type=event.type,
            schema_version=event.schema_version,
            data=data,
            metadata=metadata,
            recorded_at=recorded_at,
            prev_hash=prev_hash,
        )
        out.append(
            RecordedEvent(
                0, stream_id, version, event.type, event.schema_version, data, metadata,
                recorded_at, digest,
            )
        )  # fmt: skip
        prev_hash = digest
    return out


def _append_pg_known_head(
    stream_id: str,
    expected_version: int,
    prev_hash: str,
    prepared: list[_Prepared],
    recorded_at: datetime | None,
    also: Sequence[Statement],
) -> list[RecordedEvent]:
    rows = _chained(stream_id, expected_version, prev_hash, prepared, recorded_at)
    params: list[Any] = []
    key = signing_key()
    for e in rows:
        params += [stream_id, e.version, e.type, e.schema_version, canonical_json(e.data)]
        params += [canonical_json(e.metadata), e.recorded_at, e.hash, event_seal(e.hash, key)]
        params.append(key.key_id)
    values = ", ".join([_PG_INSERT_ROW] * len(rows))
    # One round trip; the savepoint covers the statements that follow the INSERT too.
    sql = f"SAVEPOINT {_SAVEPOINT}; {_PG_INSERT}{values} RETURNING position"
    for more_sql, more_params in also:
        sql, params = f"{sql}; {more_sql}", [*params, *more_params]
    sql += f"; RELEASE SAVEPOINT {_SAVEPOINT}"
    with connection.cursor() as cursor:
        try:
            cursor.execute(sql, params)
        except IntegrityError as exc:
            # Only a writer that ignored the caller's lock gets here: same answer as when
            # a race is lost in `append`.
            cursor.execute(f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}; RELEASE SAVEPOINT {_SAVEPOINT}")
            conflict = _conflict(stream_id, expected_version)
            if conflict is None:
                raise
            raise conflict from exc
        cursor.nextset()  # the INSERT's rows come after the SAVEPOINT's (none)
        positions = [position for (position,) in cursor.fetchall()]
    return [replace(e, position=p) for e, p in zip(rows, positions, strict=True)]


def _conflict(stream_id: str, expected_version: int) -> ConcurrencyError | None:
    """After the unique (stream_id, version) index refused an append: the conflict to report
    if the stream has moved on; None if it has not (the refusal was something else)."""
    current = stream_version(stream_id=stream_id)
    if current == expected_version:
        return None
    return ConcurrencyError(
        stream_id=stream_id, expected_version=expected_version, current_version=current
    )


_SAVEPOINT = "games_eventstore_append"
_PG_INSERT = (
    "INSERT INTO eventstore_event (stream_id, version, type, schema_version, data, metadata,"
    " recorded_at, hash, seal, key_id, tx_id) VALUES "
)
# The writing transaction's id, as `_append_head` reads it (see `read_all`).
_PG_INSERT_ROW = (
    "(%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, %s, %s, pg_current_xact_id()::text::bigint)"
)


def _append_head(stream_id: str) -> tuple[int | None, int, str]:
    """The writing transaction's id and the stream's head (version, hash), in one round trip.

    The id goes on every event of the append: `read_all` orders by (tx_id, position) and
    hands out only events of transactions older than any still running, which is what
    makes it gap-safe without serialising appends (see `read_all`). SQLite has no
    concurrent writers (its write lock lasts until commit): positions are the order there,
    and tx_id stays NULL.
    """
    if connection.vendor != "postgresql":
        return (None, *stream_head(stream_id))
    with connection.cursor() as cursor:
        cursor.execute(_PG_APPEND_HEAD, [stream_id])
        tx_id, version, digest = cursor.fetchone()
    return (tx_id, version, digest) if version is not None else (tx_id, 0, GENESIS_HASH)


# pg_current_xact_id() is the top-level transaction's id even inside the append's savepoint.
_PG_APPEND_HEAD = (
    "SELECT pg_current_xact_id()::text::bigint, head.version, head.hash"
    " FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT version, hash FROM eventstore_event"
    " WHERE stream_id = %s ORDER BY version DESC LIMIT 1) AS head ON true"
)
