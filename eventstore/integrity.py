"""Verification: every hash chain recomputed from the stored rows, to find any event
changed, added or removed behind the store's back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from eventstore._shared import READ_FIELDS
from eventstore.encoding import event_hash
from eventstore.models import StoredEvent
from eventstore.records import GENESIS_HASH

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
_VERIFY_FIELDS = READ_FIELDS


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
