"""The event store: the only code that reads or writes stored events.

One append-only table holds every stream ("match-<uuid>", a tournament's decisions, ...).
`append` writes all of a command's events or none, with optimistic concurrency on the
stream's version. Each event's hash covers a canonical encoding of the event and the hash
of the event before it in the same stream, so `verify` finds any row changed behind the
store's back. `read_all` follows the global order (writing transaction, then position)
without ever skipping an event whose transaction commits late, and without making appends
to different streams wait for each other. Old event shapes are upcast on read; snapshots
are a disposable cache of a stream's state.

Callers use the names exported here (`import eventstore`; `eventstore.append(...)`); they
load on first use, so the app itself can be imported before Django's models are ready. The modules:
`records` (what goes in and comes out), `encoding` (canonical JSON, hashing), `upcasting`,
`write` (`append`), `read` (`load`, `read_all`, follower checkpoints), `snapshots`, `tail`
(`read_tail`: snapshot, events and head in one round trip), `integrity` (`verify`) and
`maintenance` (`immutability_suspended`), `seals` (the key the database does not hold) and
`checkpoints` (signed stream heads).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# name -> the module that defines it
_EXPORTS = {
    "BrokenEvent": "integrity",
    "ConcurrencyError": "records",
    "EventStoreError": "errors",
    "GENESIS_HASH": "records",
    "ImmutableEventError": "errors",
    "InvalidEventError": "errors",
    "MAX_STREAM_ID_LENGTH": "records",
    "NewEvent": "records",
    "NOTIFY_CHANNEL": "write",
    "RECORDED_AT_FORMAT": "encoding",
    "RecordedEvent": "records",
    "StreamTail": "tail",
    "Statement": "write",
    "VerifyResult": "integrity",
    "append": "write",
    "canonical_json": "encoding",
    "checkpoint_valid": "checkpoints",
    "checkpoints_export": "checkpoints",
    "checkpoints_take": "checkpoints",
    "event_hash": "encoding",
    "format_recorded_at": "encoding",
    "immutability_suspended": "maintenance",
    "latest_schema": "upcasting",
    "load": "read",
    "load_of_types": "read",
    "read_all": "read",
    "read_tail": "tail",
    "receipt_sign": "checkpoints",
    "receipts_check": "checkpoints",
    "recorded_heads_register": "heads",
    "register_upcaster": "upcasting",
    "snapshot_delete": "snapshots",
    "snapshot_load": "snapshots",
    "snapshot_part": "snapshots",
    "snapshot_save": "snapshots",
    "snapshot_seal_due": "snapshots",
    "snapshots_check": "snapshots",
    "BadSnapshot": "snapshots",
    "stream_heads": "read",
    "stream_version": "read",
    "streams_as_stored": "read",
    "first_metadata": "read",
    "stream_version_expression": "read",
    "streams_cut_short": "heads",
    "subscription_advance": "read",
    "subscription_position": "read",
    "upcast": "upcasting",
    "verify": "integrity",
}

__all__ = [
    "BrokenEvent",
    "ConcurrencyError",
    "EventStoreError",
    "GENESIS_HASH",
    "ImmutableEventError",
    "InvalidEventError",
    "MAX_STREAM_ID_LENGTH",
    "NewEvent",
    "NOTIFY_CHANNEL",
    "RECORDED_AT_FORMAT",
    "RecordedEvent",
    "StreamTail",
    "Statement",
    "VerifyResult",
    "append",
    "canonical_json",
    "checkpoint_valid",
    "checkpoints_export",
    "checkpoints_take",
    "event_hash",
    "format_recorded_at",
    "immutability_suspended",
    "latest_schema",
    "load",
    "load_of_types",
    "read_all",
    "read_tail",
    "receipt_sign",
    "receipts_check",
    "recorded_heads_register",
    "register_upcaster",
    "snapshot_delete",
    "snapshot_load",
    "snapshot_part",
    "snapshot_save",
    "snapshot_seal_due",
    "snapshots_check",
    "BadSnapshot",
    "first_metadata",
    "stream_heads",
    "stream_version",
    "stream_version_expression",
    "streams_as_stored",
    "streams_cut_short",
    "subscription_advance",
    "subscription_position",
    "upcast",
    "verify",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'eventstore' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"eventstore.{module}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # for type checkers and editors: the same names, imported eagerly
    from eventstore.checkpoints import (
        checkpoint_valid,
        checkpoints_export,
        checkpoints_take,
        receipt_sign,
        receipts_check,
    )
    from eventstore.encoding import (
        RECORDED_AT_FORMAT,
        canonical_json,
        event_hash,
        format_recorded_at,
    )
    from eventstore.errors import EventStoreError, ImmutableEventError, InvalidEventError
    from eventstore.heads import recorded_heads_register, streams_cut_short
    from eventstore.integrity import BrokenEvent, VerifyResult, verify
    from eventstore.maintenance import immutability_suspended
    from eventstore.read import (
        first_metadata,
        load,
        load_of_types,
        read_all,
        stream_heads,
        stream_version,
        stream_version_expression,
        streams_as_stored,
        subscription_advance,
        subscription_position,
    )
    from eventstore.records import (
        GENESIS_HASH,
        MAX_STREAM_ID_LENGTH,
        ConcurrencyError,
        NewEvent,
        RecordedEvent,
    )
    from eventstore.snapshots import (
        BadSnapshot,
        snapshot_delete,
        snapshot_load,
        snapshot_part,
        snapshot_save,
        snapshot_seal_due,
        snapshots_check,
    )
    from eventstore.tail import StreamTail, read_tail
    from eventstore.upcasting import latest_schema, register_upcaster, upcast
    from eventstore.write import NOTIFY_CHANNEL, Statement, append
