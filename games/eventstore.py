"""The event store: the only code that reads or writes stored events.

One append-only table holds every stream ("match-<uuid>", a tournament's decisions, ...).
`append` writes all of a command's events or none, with optimistic concurrency on the
stream's version. Each event's hash covers a canonical encoding of the event and the hash
of the event before it in the same stream, so `verify` finds any row changed behind the
store's back. `read_all` follows the global order (writing transaction, then position)
without ever skipping an event whose transaction commits late, and without making appends
to different streams wait for each other. Old event shapes are upcast on read; snapshots
are a disposable cache of a stream's state.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import orjson
from django.db import (
    DEFAULT_DB_ALIAS,
    IntegrityError,
    connection,
    connections,
    transaction,
)
from django.utils import timezone

from config.errors import ValidationError, VersionConflictError
from config.prepared import PreparedStatement
from games.models.events import Snapshot, StoredEvent, Subscription

GENESIS_HASH = ""  # the "previous hash" of a stream's version 1
RECORDED_AT_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
MAX_STREAM_ID_LENGTH = 200


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: dict
    metadata: dict = field(default_factory=dict)
    schema_version: int = 1


@dataclass(frozen=True)
class RecordedEvent:
    position: int
    stream_id: str
    version: int
    type: str
    schema_version: int
    data: dict
    metadata: dict
    recorded_at: datetime
    hash: str


class ConcurrencyError(VersionConflictError):
    """The stream is not at the version the writer expected: someone else appended first."""

    def __init__(self, *, stream_id: str, expected_version: int, current_version: int) -> None:
        super().__init__(
            f"Stream {stream_id} is at version {current_version}, not {expected_version}.",
            extra={
                "stream_id": stream_id,
                "expected_version": expected_version,
                "current_version": current_version,
            },
        )
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.current_version = current_version


# --- canonical encoding and hashing --------------------------------------------------------


def canonical_json(value: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces, non-ASCII kept as is."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def format_recorded_at(value: datetime) -> str:
    return value.astimezone(UTC).strftime(RECORDED_AT_FORMAT)


def event_hash(
    *,
    stream_id: str,
    version: int,
    type: str,
    schema_version: int,
    data: dict,
    metadata: dict,
    recorded_at: datetime,
    prev_hash: str,
) -> str:
    """sha256 hex of the canonical encoding of one event chained to its predecessor."""
    body = {
        "stream_id": stream_id,
        "version": version,
        "type": type,
        "schema_version": schema_version,
        "data": data,
        "metadata": metadata,
        "recorded_at": format_recorded_at(recorded_at),
        "prev": prev_hash,
    }
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def _json_roundtrip(value: Any, what: str) -> Any:
    """Exactly what will be read back, so that the hash is computed over it: tuples become
    lists, keys strings, and floats that PostgreSQL's jsonb would print differently
    (-0.0, whole numbers of 1e16 and more, which come back as integers) are normalised."""
    try:
        text = canonical_json(value)
        text.encode("utf-8")  # lone surrogates cannot be stored (nor hashed)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"Event {what} is not JSON: {exc}") from exc
    if _ESCAPED_NUL.search(text):
        raise ValidationError(f"Event {what} contains a NUL character.")
    return json.loads(text, parse_float=_jsonb_float)


_ESCAPED_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")  # jsonb refuses NUL in strings


def _jsonb_float(text: str) -> float | int:
    number = float(text)
    if number == 0:
        return 0.0
    return int(number) if abs(number) >= 1e16 else number


# --- upcasting -----------------------------------------------------------------------------

_UPCASTERS: dict[tuple[str, int], Callable[[dict], dict]] = {}


def register_upcaster(*, type: str, from_schema: int, fn: Callable[[dict], dict]) -> None:
    """Register `fn` turning data of `type` at schema `from_schema` into schema + 1."""
    key = (type, from_schema)
    if _UPCASTERS.get(key, fn) is not fn:
        raise ValueError(f"An upcaster for {type} schema {from_schema} is already registered.")
    _UPCASTERS[key] = fn


def latest_schema(*, type: str) -> int:
    """The schema version events of `type` are read as (1 when no upcaster is registered)."""
    schema = 1
    while (type, schema) in _UPCASTERS:
        schema += 1
    return schema


def upcast(*, type: str, schema_version: int, data: dict) -> tuple[int, dict]:
    while (type, schema_version) in _UPCASTERS:
        data = _UPCASTERS[(type, schema_version)](data)
        schema_version += 1
    return schema_version, data


def _recorded(row: StoredEvent, *, upcasted: bool = True) -> RecordedEvent:
    schema_version, data = row.schema_version, row.data
    if upcasted:
        schema_version, data = upcast(type=row.type, schema_version=schema_version, data=data)
    return RecordedEvent(
        position=row.position,
        stream_id=row.stream_id,
        version=row.version,
        type=row.type,
        schema_version=schema_version,
        data=data,
        metadata=row.metadata,
        recorded_at=row.recorded_at,
        hash=row.hash,
    )


# --- writing -------------------------------------------------------------------------------


def append(
    *,
    stream_id: str,
    expected_version: int,
    events: Sequence[NewEvent],
    head_hash: str | None = None,
    then: Then | None = None,
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

    `then(events)` returns statements (sql, params) to run after the append, in its round
    trip where it has one: the read-model updates of the same transaction. It is given
    the events as they will be recorded, but for their positions, which are 0 there.
    """
    _check_append_args(stream_id, expected_version, events)
    prepared = [
        (e, _json_roundtrip(e.data, "data"), _json_roundtrip(e.metadata, "metadata"))
        for e in events
    ]
    if head_hash is not None and connection.vendor == "postgresql":
        return _append_pg_known_head(stream_id, expected_version, head_hash, prepared, then)
    try:
        with transaction.atomic():
            recorded = _append_in_transaction(stream_id, expected_version, prepared)
    except IntegrityError as exc:
        # The unique (stream_id, version) index refused us: another writer got there first
        # and the caller may retry.
        current = stream_version(stream_id=stream_id)
        if current == expected_version:
            raise
        raise ConcurrencyError(
            stream_id=stream_id, expected_version=expected_version, current_version=current
        ) from exc
    if then is not None:
        with connection.cursor() as cursor:
            for sql, params in then([replace(e, position=0) for e in recorded]):
                cursor.execute(sql, params)
    return recorded


# Statements to run after an append, from the events as they will be recorded.
Then = Callable[[list["RecordedEvent"]], Sequence[tuple[str, Sequence[Any]]]]
_Prepared = tuple[NewEvent, dict, dict]  # an event, its data and metadata as read back


def _check_append_args(stream_id: str, expected_version: int, events: Sequence[NewEvent]) -> None:
    if not stream_id or len(stream_id) > MAX_STREAM_ID_LENGTH:
        raise ValidationError(f"A stream id is 1 to {MAX_STREAM_ID_LENGTH} characters.")
    if expected_version < 0:
        raise ValidationError("expected_version must be 0 (new stream) or more.")
    if not events:
        raise ValidationError("Nothing to append.")
    for event in events:
        if not event.type or event.schema_version < 1:
            raise ValidationError(f"Bad event type or schema version: {event!r}.")
        if not isinstance(event.data, dict) or not isinstance(event.metadata, dict):
            raise ValidationError("Event data and metadata must be JSON objects.")


def _append_in_transaction(
    stream_id: str, expected_version: int, prepared: list[tuple[NewEvent, dict, dict]]
) -> list[RecordedEvent]:
    tx_id, current, prev_hash = _append_head(stream_id)
    if current != expected_version:
        raise ConcurrencyError(
            stream_id=stream_id, expected_version=expected_version, current_version=current
        )
    recorded_at = timezone.now()
    rows = []
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
        rows.append(
            StoredEvent(
                stream_id=stream_id,
                version=version,
                type=event.type,
                schema_version=event.schema_version,
                data=data,
                metadata=metadata,
                recorded_at=recorded_at,
                hash=digest,
                tx_id=tx_id,
            )
        )
        prev_hash = digest
    StoredEvent.objects.bulk_create(rows)
    return [_recorded(row, upcasted=False) for row in rows]


def _append_pg_known_head(
    stream_id: str,
    expected_version: int,
    prev_hash: str,
    prepared: list[_Prepared],
    then: Then | None,
) -> list[RecordedEvent]:
    recorded_at = timezone.now()
    values, params, rows = [], [], []
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
        values.append(_PG_INSERT_ROW)
        params += [stream_id, version, event.type, event.schema_version]
        params += [canonical_json(data), canonical_json(metadata), recorded_at, digest]
        rows.append(
            RecordedEvent(
                0,
                stream_id,
                version,
                event.type,
                event.schema_version,
                data,
                metadata,
                recorded_at,
                digest,
            )
        )
        prev_hash = digest
    # One round trip; the savepoint covers the statements that follow the INSERT too.
    sql = f"SAVEPOINT {_SAVEPOINT}; {_PG_INSERT}{', '.join(values)} RETURNING position"
    for more_sql, more_params in then(rows) if then is not None else ():
        sql, params = f"{sql}; {more_sql}", [*params, *more_params]
    sql += f"; RELEASE SAVEPOINT {_SAVEPOINT}"
    with connection.cursor() as cursor:
        try:
            cursor.execute(sql, params)
        except IntegrityError as exc:
            # Only a writer that ignored the caller's lock gets here: same answer as when
            # a race is lost in `append`.
            cursor.execute(f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}; RELEASE SAVEPOINT {_SAVEPOINT}")
            current = stream_version(stream_id=stream_id)
            if current == expected_version:
                raise
            raise ConcurrencyError(
                stream_id=stream_id, expected_version=expected_version, current_version=current
            ) from exc
        cursor.nextset()  # the INSERT's rows come after the SAVEPOINT's (none)
        positions = [position for (position,) in cursor.fetchall()]
    return [replace(e, position=p) for e, p in zip(rows, positions, strict=True)]


_SAVEPOINT = "games_eventstore_append"
_PG_INSERT = (
    "INSERT INTO games_storedevent (stream_id, version, type, schema_version, data, metadata,"
    " recorded_at, hash, tx_id) VALUES "
)
# The writing transaction's id, as `_append_head` reads it (see `read_all`).
_PG_INSERT_ROW = (
    "(%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, pg_current_xact_id()::text::bigint)"
)


def _stream_head(stream_id: str) -> tuple[int, str]:
    head = (
        StoredEvent.objects.filter(stream_id=stream_id)
        .order_by("-version")
        .values_list("version", "hash")
        .first()
    )
    return head if head is not None else (0, GENESIS_HASH)


def _append_head(stream_id: str) -> tuple[int | None, int, str]:
    """The writing transaction's id and the stream's head (version, hash), in one round trip.

    The id goes on every event of the append: `read_all` orders by (tx_id, position) and
    hands out only events of transactions older than any still running, which is what
    makes it gap-safe without serialising appends (see `read_all`). SQLite has no
    concurrent writers (its write lock lasts until commit): positions are the order there,
    and tx_id stays NULL.
    """
    if connection.vendor != "postgresql":
        return (None, *_stream_head(stream_id))
    with connection.cursor() as cursor:
        cursor.execute(_PG_APPEND_HEAD, [stream_id])
        tx_id, version, digest = cursor.fetchone()
    return (tx_id, version, digest) if version is not None else (tx_id, 0, GENESIS_HASH)


# pg_current_xact_id() is the top-level transaction's id even inside the append's savepoint.
_PG_APPEND_HEAD = (
    "SELECT pg_current_xact_id()::text::bigint, head.version, head.hash"
    " FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT version, hash FROM games_storedevent"
    " WHERE stream_id = %s ORDER BY version DESC LIMIT 1) AS head ON true"
)


# --- reading -------------------------------------------------------------------------------


def stream_version(*, stream_id: str) -> int:
    """The stream's latest version; 0 when the stream has no events."""
    return _stream_head(stream_id)[0]


def load(
    *, stream_id: str, after_version: int = 0, up_to_version: int | None = None
) -> list[RecordedEvent]:
    """The stream's events after `after_version` (up to `up_to_version`), upcast, in order."""
    if connection.vendor == "postgresql":
        where, params = "stream_id = %s AND version > %s", [stream_id, after_version]
        if up_to_version is not None:
            where, params = where + " AND version <= %s", [*params, up_to_version]
        return _read_pg(f"{where} ORDER BY version", params)
    rows = StoredEvent.objects.filter(stream_id=stream_id, version__gt=after_version)
    if up_to_version is not None:
        rows = rows.filter(version__lte=up_to_version)
    return _read_rows(rows.order_by("version"))


def read_all(*, after_position: int, limit: int = 1000) -> list[RecordedEvent]:
    """Events of every stream after the event at `after_position` (0: from the start), in
    global order, upcast. A follower checkpoints the position of the last event it got.

    Gap-safe without a global lock. On PostgreSQL the global order is (tx_id, position):
    the writing transaction's id, then the position. A position is taken when a row is
    inserted but only becomes visible at commit, so positions alone appear out of order;
    instead only events of transactions older than every transaction still running are
    handed out. Such a transaction has ended, and any transaction that commits later has
    a larger id than all of them, so nothing can ever appear before a checkpoint. (The
    reader's own transaction counts as ended for its own events, and transactions of
    other databases on the same server are not waited for.) A long transaction that has
    written to this database holds followers back until it ends. On SQLite writers are
    serialised until commit, so the position is the order.
    """
    if connection.vendor == "postgresql":
        after_tx = _tx_of(after_position)
        with connection.cursor() as cursor:
            # pg_stat_activity is cached per transaction; the horizon needs it fresh.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
        return _read_pg(_PG_READ_ALL, [after_tx, after_position, limit])
    rows = StoredEvent.objects.filter(position__gt=after_position).order_by("position")
    return _read_rows(rows[:limit])


def _tx_of(position: int) -> int:
    """The tx_id of the event at `position` (0 for position 0): half of a checkpoint."""
    if position == 0:
        return 0
    found = StoredEvent.objects.filter(position=position).values_list("tx_id", flat=True)
    if not found:
        raise ValidationError(f"No stored event at position {position}.")
    return found[0] or 0


def _global_order_key(position: int) -> tuple[int, int]:
    if connection.vendor != "postgresql":
        return (0, position)
    return (_tx_of(position), position)


# The horizon H: the oldest transaction of this database that may still be running when
# the statement's snapshot was taken: the least of the snapshot's in-progress ids (less
# those of backends known to be connected to another database; an id whose database is
# unknown counts), else the snapshot's xmax (no id from xmax on had ended). Every id below
# H has ended. A visible event with tx_id = H can only be the reader's own transaction's
# (the snapshot leaves it out of the in-progress ids), and it may then be handed out too:
# nothing can appear before it. pg_stat_activity shows 32-bit xids, hence the modulo.
_PG_HORIZON = (
    "(SELECT COALESCE(min(x::text::bigint),"
    " pg_snapshot_xmax(pg_current_snapshot())::text::bigint)"
    " FROM pg_snapshot_xip(pg_current_snapshot()) AS x"
    " WHERE x::text::bigint %% 4294967296 NOT IN (SELECT a.backend_xid::text::bigint"
    " FROM pg_stat_activity AS a WHERE a.backend_xid IS NOT NULL"
    " AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())))"
)
_PG_READ_ALL = (
    "tx_id IS NOT NULL AND (tx_id, position) > (%s, %s) AND tx_id <= "
    + _PG_HORIZON
    + " ORDER BY tx_id, position LIMIT %s"
)


# Reading builds RecordedEvents straight from row tuples: a model instance per row cost
# three times the database read itself on a full replay.
_READ_FIELDS = (
    "position",
    "stream_id",
    "version",
    "type",
    "schema_version",
    "data",
    "metadata",
    "recorded_at",
    "hash",
)
# recorded_at comes back as a UTC wall-clock time (a plain `timestamp`, decoded by the
# driver's C loader) and gets its time zone here: Django's Python timestamptz loader was
# a third of the read. Same instant, same tzinfo as the ORM gives.
_PG_SELECT = (
    "SELECT position, stream_id, version, type, schema_version, data, metadata,"
    " recorded_at AT TIME ZONE 'UTC', hash FROM games_storedevent WHERE "
)


def _read_pg(where: str, params: list[Any]) -> list[RecordedEvent]:
    with connection.cursor() as cursor:
        cursor.execute(_PG_SELECT + where, params)
        return _decode_rows(cursor.fetchall())


def _decode_rows(rows: list[tuple]) -> list[RecordedEvent]:
    out = []
    loads, upcasting = _loads, bool(_UPCASTERS)
    naive = aware = None
    for position, stream_id, version, type_, schema, data, metadata, at, digest in rows:
        if at != naive:  # the events of one append share their recorded_at
            naive, aware = at, at.replace(tzinfo=UTC)
        # Django reads jsonb as text and leaves decoding to the field, as we do here.
        if data.__class__ is str:
            data, metadata = loads(data), loads(metadata)
        if upcasting:
            schema, data = upcast(type=type_, schema_version=schema, data=data)
        out.append(
            RecordedEvent(
                position, stream_id, version, type_, schema, data, metadata, aware, digest
            )
        )
    return out


def _read_rows(rows: Any) -> list[RecordedEvent]:
    out = []
    upcasting = bool(_UPCASTERS)
    for position, stream_id, version, type_, schema, data, metadata, at, digest in rows.values_list(
        *_READ_FIELDS
    ):
        if upcasting:
            schema, data = upcast(type=type_, schema_version=schema, data=data)
        out.append(
            RecordedEvent(position, stream_id, version, type_, schema, data, metadata, at, digest)
        )
    return out


def subscription_position(*, name: str) -> int:
    """The last global position the follower `name` has processed (0 if none)."""
    found = Subscription.objects.filter(name=name).values_list("position", flat=True).first()
    return found or 0


def subscription_advance(*, name: str, position: int) -> None:
    """Move the follower's checkpoint forward to the event at `position` (never backwards
    in the global order of `read_all`, which is not the order of positions)."""
    with transaction.atomic():
        sub, created = Subscription.objects.select_for_update().get_or_create(
            name=name, defaults={"position": position}
        )
        if not created and _global_order_key(position) > _global_order_key(sub.position):
            sub.position = position
            sub.save(update_fields=["position", "updated_at"])


# --- snapshots -----------------------------------------------------------------------------


def snapshot_save(*, stream_id: str, version: int, state: dict, kind: str) -> None:
    """Cache `state` of the stream at `version`. `kind` names the state's shape (bump it
    when the shape changes: old snapshots are then ignored)."""
    # One INSERT ... ON CONFLICT DO UPDATE (update_or_create took a locked read and a
    # savepoint on top).
    row = Snapshot(
        stream_id=stream_id, kind=kind, version=version, state=_json_roundtrip(state, "snapshot")
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
        return (found[0], _json_value(found[1])) if found else None
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
        return _json_value(found[0]) if found and found[0] is not None else None
    state = (
        Snapshot.objects.filter(stream_id=stream_id, kind=kind, version=version)
        .values_list("state", flat=True)
        .first()
    )
    return state.get(key) if state else None


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
        sql = f"{_PG_TAIL_SNAPSHOT.execute_sql()}; {_PG_TAIL_EVENTS.execute_sql()}"
        params = [list(without), stream_id, kind, stream_id, kind]
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
            events = _decode_rows(cursor.fetchall())
        snapshot = (snapshot_row[0], _json_value(snapshot_row[1])) if snapshot_row else None
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
    "SELECT version, state - $1::text[] FROM games_snapshot WHERE stream_id = $2 AND kind = $3"
    " ORDER BY version DESC LIMIT 1",
    3,
)
_PG_TAIL_EVENTS = PreparedStatement(
    "eventstore_tail_events",
    _PG_SELECT + "stream_id = $1 AND version >= COALESCE((SELECT max(version) FROM games_snapshot"
    " WHERE stream_id = $1 AND kind = $2), 0) ORDER BY version",
    2,
)


def _read_tail_apart(stream_id: str, kind: str, without: Sequence[str]) -> StreamTail:
    snapshot = snapshot_load(stream_id=stream_id, kind=kind, without=without)
    at = snapshot[0] if snapshot else 0
    tail = _tail(stream_id, snapshot, load(stream_id=stream_id, after_version=max(at - 1, 0)))
    if tail is None:
        # The snapshot's own event is not there (its stream was wiped): no snapshot then.
        return StreamTail(None, load(stream_id=stream_id), _stream_head(stream_id))
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


def _json_value(value: Any) -> Any:
    # Django's PostgreSQL connections hand jsonb over as text, for the field to decode.
    return _loads(value) if isinstance(value, str) else value


def _loads(text: str) -> Any:
    """json.loads, by orjson (a third of the time on an action's events); the same values,
    but for integers beyond 64 bits, which orjson refuses and json reads."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def snapshot_delete(*, stream_id: str | None = None, kind: str | None = None) -> int:
    """Drop snapshots (all, or of one stream and/or kind); returns how many."""
    snapshots = Snapshot.objects.all()
    if stream_id is not None:
        snapshots = snapshots.filter(stream_id=stream_id)
    if kind is not None:
        snapshots = snapshots.filter(kind=kind)
    return snapshots.delete()[0]


# --- verification --------------------------------------------------------------------------


@dataclass(frozen=True)
class BrokenEvent:
    stream_id: str
    version: int
    position: int
    reason: str


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    events_checked: int
    streams_checked: int
    first_broken: BrokenEvent | None
    reason: str
    broken: tuple[BrokenEvent, ...] = ()  # the first broken event of every broken stream


# Verifying reads the same stored columns as reading does (the hash covers all but
# position and hash itself).
_VERIFY_FIELDS = _READ_FIELDS


def verify(
    *, stream_id: str | None = None, progress: Callable[[int], None] | None = None
) -> VerifyResult:
    """Recompute every hash chain (or one stream's) from the stored rows.

    A stream is broken at its first event whose version does not follow the one before
    (missing or extra rows) or whose stored hash differs from the recomputed one.
    `progress(n)` is called after every n events checked.
    """
    rows = StoredEvent.objects.order_by("stream_id", "version")
    if stream_id is not None:
        rows = rows.filter(stream_id=stream_id)
    broken: list[BrokenEvent] = []
    checked = streams = 0
    for stream_rows in _by_stream(rows.values(*_VERIFY_FIELDS).iterator(chunk_size=2000)):
        streams += 1
        found, count = _verify_stream(stream_rows)
        checked += count
        if progress is not None:
            progress(count)
        if found is not None:
            broken.append(found)
    first = min(broken, key=lambda b: b.position) if broken else None
    return VerifyResult(
        ok=not broken,
        events_checked=checked,
        streams_checked=streams,
        first_broken=first,
        reason=first.reason if first else "",
        broken=tuple(broken),
    )


def _by_stream(rows: Iterator[dict]) -> Iterator[list[dict]]:
    current: list[dict] = []
    for row in rows:
        if current and row["stream_id"] != current[0]["stream_id"]:
            yield current
            current = []
        current.append(row)
    if current:
        yield current


def _verify_stream(rows: list[dict]) -> tuple[BrokenEvent | None, int]:
    prev_hash = GENESIS_HASH
    for expected_version, row in enumerate(rows, start=1):
        reason = ""
        if row["version"] != expected_version:
            reason = f"expected version {expected_version}, found {row['version']}"
        else:
            fields = {k: row[k] for k in _VERIFY_FIELDS if k not in ("position", "hash")}
            if event_hash(**fields, prev_hash=prev_hash) != row["hash"]:
                reason = "hash mismatch: the event or the one before it was altered"
        if reason:
            broken = BrokenEvent(row["stream_id"], row["version"], row["position"], reason)
            return broken, expected_version
        prev_hash = row["hash"]
    return None, len(rows)


# --- maintenance ---------------------------------------------------------------------------

_PG_TRIGGERS = ("games_storedevent_append_only", "games_storedevent_no_truncate")
_SQLITE_TRIGGERS = {
    "games_storedevent_no_update": "UPDATE",
    "games_storedevent_no_delete": "DELETE",
}


@contextmanager
def immutability_suspended(*, using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Lift the append-only triggers inside one transaction, for wiping a whole database
    (`manage.py flush`, test teardown) or for tamper drills. Never for business code: the
    model still refuses changes, and `verify` will name any event altered meanwhile."""
    conn = connections[using]
    with transaction.atomic(using=using), conn.cursor() as cursor:
        lifted = _triggers_off(conn.vendor, cursor)
        yield
        _triggers_on(conn.vendor, cursor, lifted)


def _triggers_off(vendor: str, cursor: Any) -> list[str]:
    if vendor == "postgresql":
        cursor.execute(
            "SELECT tgname FROM pg_trigger"
            " WHERE tgrelid = to_regclass('games_storedevent') AND tgname = ANY(%s)",
            [list(_PG_TRIGGERS)],
        )
        names = [name for (name,) in cursor.fetchall()]
        for name in names:
            cursor.execute(f"ALTER TABLE games_storedevent DISABLE TRIGGER {name}")
        return names
    if vendor == "sqlite":
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
            ["games_storedevent"],
        )
        names = [name for (name,) in cursor.fetchall() if name in _SQLITE_TRIGGERS]
        for name in names:
            cursor.execute(f"DROP TRIGGER {name}")
        return names
    return []


def _triggers_on(vendor: str, cursor: Any, names: list[str]) -> None:
    for name in names:
        if vendor == "postgresql":
            cursor.execute(f"ALTER TABLE games_storedevent ENABLE TRIGGER {name}")
        else:
            operation = _SQLITE_TRIGGERS[name]
            cursor.execute(
                f"CREATE TRIGGER {name} BEFORE {operation} ON games_storedevent"
                f" BEGIN SELECT RAISE(ABORT, 'games_storedevent is append-only:"
                f" {operation} refused'); END"
            )
