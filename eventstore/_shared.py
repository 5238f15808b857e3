"""What the event store's public modules share: canonical JSON and its decoding, the upcaster
registry, and the row decoding of reads. Internal to the store: nothing outside `eventstore`
imports it (import-linter says so)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC
from typing import Any

import orjson
from django.db import connection
from django.utils.translation import gettext_noop

from eventstore.errors import InvalidEventError
from eventstore.models import StoredEvent
from eventstore.personal import resolve
from eventstore.records import GENESIS_HASH, RecordedEvent

# --- canonical JSON ------------------------------------------------------------------------


def canonical_json(value: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces, non-ASCII kept as is."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def json_roundtrip(value: Any, what: str) -> Any:
    """Exactly what will be read back, so that the hash is computed over it: tuples become
    lists, keys strings, and floats that PostgreSQL's jsonb would print differently
    (-0.0, whole numbers of 1e16 and more, which come back as integers) are normalised."""
    try:
        text = canonical_json(value)
        text.encode("utf-8")  # lone surrogates cannot be stored (nor hashed)
    except (TypeError, ValueError) as exc:
        raise InvalidEventError(
            gettext_noop("Event %(what)s is not JSON: %(error)s"), what=what, error=exc
        ) from exc
    if _ESCAPED_NUL.search(text):
        raise InvalidEventError(gettext_noop("Event %(what)s contains a NUL character."), what=what)
    return json.loads(text, parse_float=_jsonb_float)


_ESCAPED_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")  # jsonb refuses NUL in strings


def _jsonb_float(text: str) -> float | int:
    number = float(text)
    if number == 0:
        return 0.0
    return int(number) if abs(number) >= 1e16 else number


# --- decoding what was read ----------------------------------------------------------------


def json_value(value: Any) -> Any:
    # Django's PostgreSQL connections hand jsonb over as text, for the field to decode.
    return loads(value) if isinstance(value, str) else value


def loads(text: str) -> Any:
    """json.loads, by orjson (a third of the time on an action's events); the same values,
    but for integers beyond 64 bits, which orjson refuses and json reads."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


# --- upcasting -----------------------------------------------------------------------------
# The one registry: the store's other modules import this dict, so it is filled and emptied
# in place, never replaced.
UPCASTERS: dict[tuple[str, int], Callable[[dict], dict]] = {}


def upcast(*, type: str, schema_version: int, data: dict) -> tuple[int, dict]:
    while (type, schema_version) in UPCASTERS:
        data = UPCASTERS[(type, schema_version)](data)
        schema_version += 1
    return schema_version, data


def recorded(row: StoredEvent, *, upcasted: bool = True) -> RecordedEvent:
    schema_version, data = row.schema_version, row.data
    if upcasted:
        schema_version, data = upcast(type=row.type, schema_version=schema_version, data=data)
    event = RecordedEvent(
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
    return resolve([event])[0] if upcasted else event


# --- reading rows ----------------------------------------------------------------------------


def stream_head(stream_id: str) -> tuple[int, str]:
    head = (
        StoredEvent.objects.filter(stream_id=stream_id)
        .order_by("-version")
        .values_list("version", "hash")
        .first()
    )
    return head if head is not None else (0, GENESIS_HASH)


# Reading builds RecordedEvents straight from row tuples: a model instance per row cost
# three times the database read itself on a full replay.
READ_FIELDS = (
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
PG_SELECT = (
    "SELECT position, stream_id, version, type, schema_version, data, metadata,"
    " recorded_at AT TIME ZONE 'UTC', hash FROM eventstore_event WHERE "
)


def read_pg(where: str, params: list[Any]) -> list[RecordedEvent]:
    with connection.cursor() as cursor:
        cursor.execute(PG_SELECT + where, params)
        return decode_rows(cursor.fetchall())


def decode_rows(rows: list[tuple]) -> list[RecordedEvent]:
    out = []
    decode, upcasting = loads, bool(UPCASTERS)
    naive = aware = None
    for position, stream_id, version, type_, schema, data, metadata, at, digest in rows:
        if at != naive:  # the events of one append share their recorded_at
            naive, aware = at, at.replace(tzinfo=UTC)
        # Django reads jsonb as text and leaves decoding to the field, as we do here.
        if data.__class__ is str:
            data, metadata = decode(data), decode(metadata)
        if upcasting:
            schema, data = upcast(type=type_, schema_version=schema, data=data)
        out.append(
            RecordedEvent(
                position, stream_id, version, type_, schema, data, metadata, aware, digest
            )
        )
    return resolve(out)  # free text kept outside the log (eventstore.personal)


def read_rows(rows: Any) -> list[RecordedEvent]:
    out = []
    upcasting = bool(UPCASTERS)
    for position, stream_id, version, type_, schema, data, metadata, at, digest in rows.values_list(
        *READ_FIELDS
    ):
        if upcasting:
            schema, data = upcast(type=type_, schema_version=schema, data=data)
        out.append(
            RecordedEvent(position, stream_id, version, type_, schema, data, metadata, at, digest)
        )
    return resolve(out)
