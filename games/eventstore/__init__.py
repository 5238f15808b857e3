"""The event store: the only code that reads or writes stored events.

One append-only table holds every stream ("match-<uuid>", a tournament's decisions, ...).
`append` writes all of a command's events or none, with optimistic concurrency on the
stream's version. Each event's hash covers a canonical encoding of the event and the hash
of the event before it in the same stream, so `verify` finds any row changed behind the
store's back. `read_all` follows the global order (writing transaction, then position)
without ever skipping an event whose transaction commits late, and without making appends
to different streams wait for each other. Old event shapes are upcast on read; snapshots
are a disposable cache of a stream's state.

Callers use the names exported here (`from games import eventstore`). The modules:
`records` (what goes in and comes out), `encoding` (canonical JSON, hashing), `upcasting`,
`write` (`append`), `read` (`load`, `read_all`, follower checkpoints), `snapshots`, `tail`
(`read_tail`: snapshot, events and head in one round trip), `integrity` (`verify`) and
`maintenance` (`immutability_suspended`).
"""

from games.eventstore.encoding import (
    RECORDED_AT_FORMAT,
    canonical_json,
    event_hash,
    format_recorded_at,
)
from games.eventstore.integrity import BrokenEvent, VerifyResult, verify
from games.eventstore.maintenance import immutability_suspended
from games.eventstore.read import (
    load,
    read_all,
    stream_version,
    stream_version_expression,
    subscription_advance,
    subscription_position,
)
from games.eventstore.records import (
    GENESIS_HASH,
    MAX_STREAM_ID_LENGTH,
    ConcurrencyError,
    NewEvent,
    RecordedEvent,
)
from games.eventstore.snapshots import (
    snapshot_delete,
    snapshot_load,
    snapshot_part,
    snapshot_save,
)
from games.eventstore.tail import StreamTail, read_tail
from games.eventstore.upcasting import latest_schema, register_upcaster, upcast
from games.eventstore.write import Then, append

__all__ = [
    "GENESIS_HASH",
    "MAX_STREAM_ID_LENGTH",
    "RECORDED_AT_FORMAT",
    "BrokenEvent",
    "ConcurrencyError",
    "NewEvent",
    "RecordedEvent",
    "StreamTail",
    "Then",
    "VerifyResult",
    "append",
    "canonical_json",
    "event_hash",
    "format_recorded_at",
    "immutability_suspended",
    "latest_schema",
    "load",
    "read_all",
    "read_tail",
    "register_upcaster",
    "snapshot_delete",
    "snapshot_load",
    "snapshot_part",
    "snapshot_save",
    "stream_version",
    "stream_version_expression",
    "subscription_advance",
    "subscription_position",
    "upcast",
    "verify",
]
