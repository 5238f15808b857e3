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
(`read_tail`: snapshot, events and head in one round trip), `repository` (the one stream
repository: load for update and save, for every aggregate), `integrity` (`verify`) and
`maintenance` (`immutability_suspended`), `seals` (the keys the database does not hold),
`keys` (which key made a seal, and whether this install has it), `checkpoints` (signed
stream heads), `backups` (`manage.py backup` and `restore`), `display` (what an app
registers so that the admin names and links its streams), `personal` (free text kept
outside the hashed log, by reference and salted digest, erasable) and `redaction` (old
events' personal data removed under a sealed `Redacted` record that `verify` accepts).
No module outside the store imports `eventstore.models` (an import-linter contract says
so).
"""

from __future__ import annotations

import importlib
from typing import Any

# Each name the store exports -> the module that defines it; listed here once.
_EXPORTS = {
    # records: what goes in and comes out
    "ConcurrencyError": "records",
    "GENESIS_HASH": "records",
    "MAX_STREAM_ID_LENGTH": "records",
    "NewEvent": "records",
    "RecordedEvent": "records",
    # errors
    "EventStoreError": "errors",
    "ImmutableEventError": "errors",
    "InvalidEventError": "errors",
    # encoding
    "RECORDED_AT_FORMAT": "encoding",
    "canonical_json": "encoding",
    "event_hash": "encoding",
    "format_recorded_at": "encoding",
    # write
    "NOTIFY_CHANNEL": "write",
    "Statement": "write",
    "append": "write",
    # read
    "event_count": "read",
    "first_metadata": "read",
    "load": "read",
    "load_of_types": "read",
    "read_all": "read",
    "stream_heads": "read",
    "stream_version": "read",
    "stream_version_expression": "read",
    "streams_as_stored": "read",
    "streams_with_type": "read",
    "subscription_advance": "read",
    "subscription_position": "read",
    # tail
    "StreamTail": "tail",
    "read_tail": "tail",
    "load_from": "tail",
    # repository: load for update and save, for every aggregate (its specifics supplied)
    "Aggregate": "repository",
    "Projected": "repository",
    "StandIn": "repository",
    "StreamRepository": "repository",
    "StreamSaved": "repository",
    "StreamWrite": "repository",
    # snapshots
    "BadSnapshot": "snapshots",
    "snapshot_delete": "snapshots",
    "snapshot_load": "snapshots",
    "snapshot_part": "snapshots",
    "snapshot_save": "snapshots",
    "snapshot_kind_register": "snapshots",
    "snapshot_seal_due": "snapshots",
    "snapshots_delete": "snapshots",
    "snapshots_superseded": "snapshots",
    "snapshots_as_stored": "snapshots",
    "snapshots_check": "snapshots",
    # upcasting
    "latest_schema": "upcasting",
    "register_upcaster": "upcasting",
    "upcast": "upcasting",
    # integrity, heads, checkpoints, maintenance
    "BrokenEvent": "integrity",
    "VerifyResult": "integrity",
    "verify": "integrity",
    "recorded_heads_register": "heads",
    "streams_cut_short": "heads",
    "checkpoint_valid": "checkpoints",
    "checkpoints_export": "checkpoints",
    "checkpoints_take": "checkpoints",
    "heads_sign": "checkpoints",
    "receipt_sign": "checkpoints",
    "receipts_check": "checkpoints",
    # keys: which chain key made a seal, and whether this install has it
    "KeyConflictError": "keys",
    "chain_key_register": "keys",
    "missing_key_reason": "keys",
    "immutability_suspended": "maintenance",
    # personal data out of the log, and old events redacted (issue 34)
    "personal_texts_by": "personal",
    "personal_texts_erase": "personal",
    "personal_texts_export": "personal",
    "personal_texts_import": "personal",
    "personal_texts_of": "personal",
    "text_digest": "personal",
    "REDACTED": "redaction",
    "REDACTIONS_PREFIX": "redaction",
    "Redaction": "redaction",
    "content_digest": "redaction",
    "events_naming": "redaction",
    "redact_in_tx": "redaction",
    "redaction_entries": "redaction",
    "redactions_of": "redaction",
    # display: how the admin names and links the streams of the apps that register them
    "actor_display_register": "display",
    "stream_display_register": "display",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'eventstore' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"eventstore.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
