"""Old event shapes are upcast on read: a registry of functions, each taking the data of one
event type from one schema version to the next. Stored rows keep their original shape, so
their hashes still verify."""

from __future__ import annotations

from collections.abc import Callable

from games.eventstore.records import RecordedEvent
from games.models.events import StoredEvent

# --- upcasting -----------------------------------------------------------------------------
# The one registry: the store's other modules import this dict, so it is filled and emptied
# in place, never replaced.
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
