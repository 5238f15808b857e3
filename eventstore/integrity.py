"""Verification: every hash chain recomputed from the stored rows, every seal checked with
the key that made it (eventstore.seals, eventstore.keys) and every stream against its
signed checkpoints, to find any event changed, added or removed behind the store's back,
by someone without the key too. A seal made with a key this install does not have is
reported as such (`missing_keys`), never as forgery."""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from django.db import connection

from eventstore._shared import READ_FIELDS
from eventstore.encoding import event_hash
from eventstore.keys import KeyResolver, missing_key_reason
from eventstore.models import Checkpoint, StoredEvent
from eventstore.records import GENESIS_HASH
from eventstore.redaction import content_digest, redactions_of
from eventstore.seals import ChainKey, checkpoint_signature, seal_matches

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
    # (key id, events and checkpoints sealed with it, streams): keys this install lacks.
    # Their seals are not checked (not forged, not vouched for either); the chains are.
    missing_keys: tuple[tuple[str, int, int], ...] = ()
    # Events whose personal data was taken out (eventstore.redaction): their hash no longer
    # recomputes, and a sealed Redacted record vouches for exactly what they hold now.
    redacted: int = 0


# Verifying reads the same stored columns as reading does (the hash covers all but
# position and hash itself), and the seal and the writing transaction beside them.
_HASHED_FIELDS = tuple(k for k in READ_FIELDS if k not in ("position", "hash"))
_VERIFY_FIELDS = (*READ_FIELDS, "seal", "key_id", "tx_id")


def verify(
    *, stream_id: str | None = None, progress: Callable[[int], None] | None = None
) -> VerifyResult:
    """Recompute every hash chain (or one stream's) from the stored rows, and check each
    event's seal and each stream against its signed checkpoints (eventstore.seals).

    A stream is broken at its first event whose version does not follow the one before
    (missing or extra rows), whose stored hash differs from the recomputed one, whose seal
    is wrong or missing where one is due (a forged event: its author had no key), or that
    has no writing transaction on PostgreSQL (written around the store); or where a signed
    checkpoint says it went further, or through another event, than it now does. A seal or
    checkpoint made with a key this install does not have is not checked, and counted in
    `missing_keys` (the result is not ok): that is not forgery.
    `progress(n)` is called after every n events checked.
    """
    rows = StoredEvent.objects.order_by("stream_id", "version")
    checkpoints = Checkpoint.objects.order_by("stream_id", "version")
    if stream_id is not None:
        rows, checkpoints = (
            rows.filter(stream_id=stream_id),
            checkpoints.filter(stream_id=stream_id),
        )
    context = _Context(
        first_sealed=StoredEvent.objects.filter(seal__isnull=False)
        .order_by("position")
        .values_list("position", flat=True)
        .first(),
        tx_ids=connection.vendor == "postgresql",
        checkpoints=_by_stream_id(
            checkpoints.values_list("stream_id", "version", "hash", "signature", "key_id")
        ),
        keys=KeyResolver(),
        redactions=redactions_of(stream_id=stream_id),
    )
    broken: list[BrokenEvent] = []
    checked = streams = 0
    seen: set[str] = set()
    for stream_rows in _by_stream(rows.values(*_VERIFY_FIELDS).iterator(chunk_size=2000)):
        streams += 1
        seen.add(stream_rows[0]["stream_id"])
        found, count = _verify_stream(stream_rows, context)
        checked += count
        if progress is not None:
            progress(count)
        if found is not None:
            broken.append(found)
    for gone in sorted(set(context.checkpoints) - seen):
        # Every event of a stream that a checkpoint vouches for was deleted.
        version = context.checkpoints[gone][-1].version
        broken.append(
            BrokenEvent(gone, 1, 0, f"events 1 to {version} are missing: a signed checkpoint"
                        f" holds version {version}")
        )  # fmt: skip
    first = min(broken, key=lambda b: b.position) if broken else None
    missing = tuple(
        (key_id, count, len(context.missing_streams[key_id]))
        for key_id, count in sorted(context.missing.items())
    )
    return VerifyResult(
        ok=not broken and not missing,
        events_checked=checked,
        streams_checked=streams,
        first_broken=first,
        reason=first.reason if first else missing_key_reason(missing[0][0]) if missing else "",
        broken=tuple(broken),
        missing_keys=missing,
        redacted=context.redacted,
    )


@dataclass(frozen=True)
class _Signed:
    version: int
    hash: str
    signature: str
    key_id: str | None


@dataclass
class _Context:
    first_sealed: int | None  # the position of the first sealed event in the store
    tx_ids: bool  # events must have their writing transaction (PostgreSQL)
    checkpoints: dict[str, list[_Signed]]  # by stream
    keys: KeyResolver
    redactions: dict[tuple[str, int], set[tuple[str, str]]]
    redacted: int = 0
    missing: dict[str, int] = field(default_factory=dict)  # key id -> seals not checked
    missing_streams: dict[str, set[str]] = field(default_factory=dict)

    def key(self, key_id: str | None, stream_id: str) -> ChainKey | None:
        """The key of a seal, or None (counted) when this install lacks it."""
        key, named = self.keys.resolve(key_id)
        if key is None:
            self.missing[named] = self.missing.get(named, 0) + 1
            self.missing_streams.setdefault(named, set()).add(stream_id)
        return key


def _by_stream_id(rows: Iterable[tuple[str, int, str, str, str | None]]) -> dict[str, list]:
    out: dict[str, list] = {}
    for stream_id, version, digest, signature, key_id in rows:
        out.setdefault(stream_id, []).append(_Signed(version, digest, signature, key_id))
    return out


def _by_stream(rows: Iterator[dict]) -> Iterator[list[dict]]:
    current: list[dict] = []
    for row in rows:
        if current and row["stream_id"] != current[0]["stream_id"]:
            yield current
            current = []
        current.append(row)
    if current:
        yield current


def _verify_stream(rows: list[dict], context: _Context) -> tuple[BrokenEvent | None, int]:
    stream_id = rows[0]["stream_id"]
    checkpoints = context.checkpoints.get(stream_id, [])
    vouched_to = max((c.version for c in checkpoints), default=0)
    prev_hash, sealed_before = GENESIS_HASH, False
    hashes: dict[int, str] = {}
    for expected_version, row in enumerate(rows, start=1):
        reason = ""
        if row["version"] != expected_version:
            reason = f"expected version {expected_version}, found {row['version']}"
        elif event_hash(**{k: row[k] for k in _HASHED_FIELDS}, prev_hash=prev_hash) != row[
            "hash"
        ] and not _redacted(row, context):
            reason = "hash mismatch: the event or the one before it was altered"
        else:
            reason = _seal_problem(row, context, sealed_before or expected_version > vouched_to > 0)
        if not reason and context.tx_ids and row["tx_id"] is None:
            reason = (
                "no writing transaction (tx_id is NULL): the event was not written by the store"
            )
        if reason:
            return BrokenEvent(stream_id, row["version"], row["position"], reason), expected_version
        sealed_before = sealed_before or row["seal"] is not None
        prev_hash = hashes[row["version"]] = row["hash"]
    last = rows[-1]
    for checkpoint in checkpoints:
        reason = _checkpoint_problem(stream_id, checkpoint, hashes, context)
        if reason:
            at = min(checkpoint.version, len(rows) + 1)
            return BrokenEvent(stream_id, at, last["position"], reason), len(rows)
    return None, len(rows)


def _redacted(row: dict, context: _Context) -> bool:
    """A Redacted record vouches for this event's hash and its present content. Its link to
    the event before cannot be recomputed any more (the old hash covers it): the record was
    made from a chain that held, and the events after it still link to this hash."""
    vouched = context.redactions.get((row["stream_id"], row["version"]))
    if not vouched or (row["hash"], content_digest(row["data"], row["metadata"])) not in vouched:
        return False
    context.redacted += 1
    return True


def _seal_problem(row: dict, context: _Context, seal_due: bool) -> str:
    seal = row["seal"]
    if seal is not None:
        key = context.key(row["key_id"], row["stream_id"])
        if key is not None and not seal_matches(row["hash"], seal, key):
            return "seal mismatch: the event was forged or its chain recomputed without the key"
        return ""
    if seal_due or (context.first_sealed is not None and row["position"] > context.first_sealed):
        return "unsealed event where a seal is due: forged by someone without the key"
    return ""


def _checkpoint_problem(
    stream_id: str, checkpoint: _Signed, hashes: dict[int, str], context: _Context
) -> str:
    version, digest = checkpoint.version, checkpoint.hash
    key = context.key(checkpoint.key_id, stream_id)
    if key is not None and not hmac.compare_digest(
        checkpoint_signature(stream_id, version, digest, key), checkpoint.signature
    ):
        return f"the checkpoint at version {version} is not signed with the key: forged"
    if version not in hashes:
        head = max(hashes, default=0)
        return (
            f"events {head + 1} to {version} are missing: a signed checkpoint holds version"
            f" {version}"
        )
    if hashes[version] != digest:
        return (
            f"the event at version {version} is not the one a signed checkpoint holds: history"
            " was rewritten"
        )
    return ""
