"""Snapshots: a disposable cache of a stream's state, by kind (the state's shape) and version.

A snapshot carries the chain hash of the event it stands at, a digest of each top-level key
of its state and a seal over all of them under the key the database does not hold
(eventstore.seals). Readers check what they read (the keys they read, even a part of the
state) and ignore a snapshot that fails, reading the events instead, with a warning in the
log; `snapshots_check` (`manage.py verify_events`) reports every failing one.

Seals came in for events and snapshots together, so the events' rule (eventstore.integrity:
unsealed after sealed = forged) holds for snapshots too: a snapshot without a seal where one
is due (`snapshot_seal_due`) was written by someone without the key and is never loaded.
Only a snapshot from before seals (of a stream written before them) is trusted without
one; `verify_events --deep` replays those."""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import BooleanField, Case, Exists, OuterRef, Q, Subquery, When

from eventstore._shared import canonical_json, json_roundtrip, json_value
from eventstore.keys import KeyResolver, missing_key_reason
from eventstore.models import Snapshot, StoredEvent
from eventstore.seals import key_for, signing_key, snapshot_seal

logger = logging.getLogger("eventstore.snapshots")

# --- writing -------------------------------------------------------------------------------


def snapshot_save(*, stream_id: str, version: int, state: dict, kind: str) -> None:
    """Cache `state` of the stream at `version`. `kind` names the state's shape (bump it
    when the shape changes: old snapshots are then ignored)."""
    # One INSERT ... ON CONFLICT DO UPDATE (update_or_create took a locked read and a
    # savepoint on top), after one query for the hash of the snapshot's event.
    stored = json_roundtrip(state, "snapshot")
    event_hash = (
        StoredEvent.objects.filter(stream_id=stream_id, version=version)
        .values_list("hash", flat=True)
        .first()
    )
    digests = state_digests(stored)
    seal = key_id = None
    if event_hash is not None:
        key = signing_key()
        seal = snapshot_seal(stream_id, kind, version, event_hash, canonical_json(digests), key)
        key_id = key.key_id
    row = Snapshot(
        stream_id=stream_id, kind=kind, version=version, state=stored, event_hash=event_hash,
        digests=digests, seal=seal, key_id=key_id,
    )  # fmt: skip
    Snapshot.objects.bulk_create(
        [row],
        update_conflicts=True,
        unique_fields=["stream_id", "kind", "version"],
        update_fields=["state", "created_at", "event_hash", "digests", "seal", "key_id"],
    )


def state_digests(state: dict) -> dict[str, str]:
    """sha256 of the canonical JSON of each top-level key of a state."""
    return {
        key: hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()
        for key, value in state.items()
    }


# --- checking what is read -----------------------------------------------------------------


@dataclass(frozen=True)
class SealedSnapshot:
    """What vouches for a snapshot as stored beside it."""

    stream_id: str
    kind: str
    version: int
    event_hash: str | None
    digests: dict | None
    seal: str | None
    key_id: str | None = None  # of the seal's key; None: the first key


UNSEALED_WHERE_DUE = (
    "unsealed in a stream whose events are sealed: forged by someone without the key"
)


def snapshot_seal_due(*, stream_id: str, version: int) -> bool:
    """Must a snapshot of the stream at `version` carry a seal? Yes once an event of the
    stream up to that version is sealed, or the event it stands at was written once seals
    were in use in the store (after the first sealed event): every snapshot saved since
    is sealed, so one without is forged. One query; readers ask only of unsealed
    snapshots. A repository that reads snapshots other than through `snapshot_load`,
    `snapshot_part` or `read_tail` (which apply it) must ask it too."""
    return _seal_due(StoredEvent.objects.filter(stream_id=stream_id), version).exists()


def _seal_due(events: Any, version: Any) -> Any:
    """The events of `events` (one stream's) that make a seal due on a snapshot at `version`."""
    first_sealed = (
        StoredEvent.objects.filter(seal__isnull=False).order_by("position").values("position")[:1]
    )
    return events.filter(version__lte=version).filter(
        Q(seal__isnull=False) | Q(version=version, position__gt=Subquery(first_sealed))
    )


def snapshot_problem(
    sealed: SealedSnapshot,
    state: dict,
    *,
    actual_event_hash: str | None = None,
    seal_due: bool | None = None,
    keys: KeyResolver | None = None,
) -> str:
    """Why the (possibly partial) `state` read from this snapshot must not be trusted, or
    "" if it may be: its seal (or its lack where one is due: `seal_due`, asked of the store
    when not given), the digests of the keys read, and (when given) the hash of the event
    it stands at now. `keys`: the verifier's (a key id checked against the database's
    record of it); readers look the key up by id alone."""
    if sealed.seal is None:
        if seal_due is None:
            seal_due = snapshot_seal_due(stream_id=sealed.stream_id, version=sealed.version)
        return UNSEALED_WHERE_DUE if seal_due else ""  # else from before seals
    digests = sealed.digests if isinstance(sealed.digests, dict) else {}
    if keys is not None:
        key, named = keys.resolve(sealed.key_id)
    else:
        key, named = key_for(sealed.key_id), sealed.key_id or ""
    if key is None:
        return missing_key_reason(named)
    expected = snapshot_seal(
        sealed.stream_id, sealed.kind, sealed.version, sealed.event_hash or "",
        canonical_json(digests), key,
    )  # fmt: skip
    if not hmac.compare_digest(expected, sealed.seal):
        return "seal mismatch: the snapshot was changed"
    if actual_event_hash is not None and actual_event_hash != sealed.event_hash:
        return "the event it stands at is not the one it was taken at"
    if set(state) - set(digests):
        return "its state has keys it was not taken with"
    for key, digest in state_digests(state).items():
        if digests.get(key) != digest:
            return f"seal mismatch: its state ({key}) was changed"
    return ""


def ignored(sealed: SealedSnapshot, problem: str) -> None:
    logger.warning(
        "snapshot %s %s at version %s ignored: %s",
        sealed.stream_id, sealed.kind, sealed.version, problem,
    )  # fmt: skip


def _sealed(stream_id: str, kind: str, row: Sequence[Any]) -> SealedSnapshot:
    """From (version, event_hash, digests, seal, key_id)."""
    version, event_hash, digests, seal, key_id = row
    return SealedSnapshot(stream_id, kind, version, event_hash, json_value(digests), seal, key_id)


# --- reading -------------------------------------------------------------------------------

SEAL_COLUMNS = "event_hash, digests, seal, key_id"


def snapshot_load(
    *, stream_id: str, kind: str, max_version: int | None = None, without: Sequence[str] = ()
) -> tuple[int, dict] | None:
    """(version, state) of the latest snapshot of that kind, at or before `max_version`.

    `without` names top-level keys of the state to leave out (on PostgreSQL they are not
    even sent): a large part the reader may never need can be read later, if at all,
    with `snapshot_part`. A snapshot that fails its check is ignored (None).
    """
    if connection.vendor == "postgresql":
        # The hash of the snapshot's event now, in the same query, to check it against.
        sql = (
            f"SELECT version, state - %s::text[], {SEAL_COLUMNS}, (SELECT e.hash FROM"
            " eventstore_event AS e WHERE e.stream_id = s.stream_id AND e.version = s.version)"
            " FROM eventstore_snapshot AS s WHERE stream_id = %s"
        )
        params: list[Any] = [list(without), stream_id]
        sql, params = sql + " AND kind = %s", [*params, kind]
        if max_version is not None:
            sql, params = sql + " AND version <= %s", [*params, max_version]
        with connection.cursor() as cursor:
            cursor.execute(sql + " ORDER BY version DESC LIMIT 1", params)
            found = cursor.fetchone()
        if not found:
            return None
        version, state, actual = found[0], json_value(found[1]), found[6]
        sealed = _sealed(stream_id, kind, (found[0], *found[2:6]))
    else:
        snapshots = Snapshot.objects.filter(stream_id=stream_id, kind=kind)
        if max_version is not None:
            snapshots = snapshots.filter(version__lte=max_version)
        current = StoredEvent.objects.filter(
            stream_id=OuterRef("stream_id"), version=OuterRef("version")
        ).values("hash")[:1]
        row = (
            snapshots.order_by("-version")
            .annotate(actual=Subquery(current))
            .values_list("version", "state", "event_hash", "digests", "seal", "key_id", "actual")
            .first()
        )
        if not row:
            return None
        version, state, actual = row[0], row[1], row[6]
        for key in without:
            state.pop(key, None)
        sealed = _sealed(stream_id, kind, (row[0], *row[2:6]))
    problem = snapshot_problem(sealed, state, actual_event_hash=actual or "")
    if problem:
        ignored(sealed, problem)
        return None
    return version, state


def snapshot_part(*, stream_id: str, kind: str, version: int, key: str) -> Any:
    """One top-level key of the state of one snapshot; None when that snapshot (or key) is
    not there (snapshots may be deleted at any time) or fails its check."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT state -> %s, {SEAL_COLUMNS} FROM eventstore_snapshot"
                " WHERE stream_id = %s AND kind = %s AND version = %s",
                [key, stream_id, kind, version],
            )
            found = cursor.fetchone()
        if not found or found[0] is None:
            return None
        value, sealed = json_value(found[0]), _sealed(stream_id, kind, (version, *found[1:]))
    else:
        row = (
            Snapshot.objects.filter(stream_id=stream_id, kind=kind, version=version)
            .values_list("state", "event_hash", "digests", "seal", "key_id")
            .first()
        )
        if not row or key not in (row[0] or {}):
            return None
        value, sealed = row[0][key], _sealed(stream_id, kind, (version, *row[1:]))
    problem = snapshot_problem(sealed, {key: value})
    if problem:
        ignored(sealed, problem)
        return None
    return value


def snapshot_delete(*, stream_id: str | None = None, kind: str | None = None) -> int:
    """Drop snapshots (all, or of one stream and/or kind); returns how many."""
    snapshots = Snapshot.objects.all()
    if stream_id is not None:
        snapshots = snapshots.filter(stream_id=stream_id)
    if kind is not None:
        snapshots = snapshots.filter(kind=kind)
    return snapshots.delete()[0]


# --- superseded snapshots ------------------------------------------------------------------

# family (a kind's prefix, e.g. "match-state-v") -> the kind its app reads now.
_current_kinds: dict[str, str] = {}


def snapshot_kind_register(*, family: str, kind: str) -> None:
    """An app's snapshots of `family` are read as `kind` now: others of that family are of
    an older shape, ignored by readers (superseded), for `snapshots_prune` to delete."""
    _current_kinds[family] = kind


def snapshots_superseded(*, stream_id: str | None = None) -> list[tuple[str, str, int]]:
    """(stream id, kind, version) of every snapshot of a registered family but not of its
    current kind."""
    wanted = Q(pk__in=[])
    for family, kind in _current_kinds.items():
        wanted |= Q(kind__startswith=family) & ~Q(kind=kind)
    rows = Snapshot.objects.filter(wanted).order_by("stream_id", "kind", "version")
    if stream_id is not None:
        rows = rows.filter(stream_id=stream_id)
    return list(rows.values_list("stream_id", "kind", "version"))


def snapshots_delete(*, keys: Sequence[tuple[str, str, int]]) -> int:
    """Delete the snapshots named by (stream id, kind, version); returns how many."""
    deleted = 0
    for start in range(0, len(keys), 500):
        wanted = Q(pk__in=[])
        for sid, kind, version in keys[start : start + 500]:
            wanted |= Q(stream_id=sid, kind=kind, version=version)
        deleted += Snapshot.objects.filter(wanted).delete()[0]
    return deleted


def snapshots_as_stored(
    *, kind: str, stream_id: str | None = None
) -> Iterator[tuple[str, int, dict]]:
    """(stream id, version, state as stored) of every snapshot of `kind` (of one stream),
    by stream then version, read in chunks: for an app that checks its snapshots against
    a replay of the events (sealed or not, unlike `snapshot_load`)."""
    snapshots = Snapshot.objects.filter(kind=kind).order_by("stream_id", "version")
    if stream_id is not None:
        snapshots = snapshots.filter(stream_id=stream_id)
    yield from snapshots.values_list("stream_id", "version", "state").iterator(chunk_size=100)


# --- verification --------------------------------------------------------------------------


@dataclass(frozen=True)
class BadSnapshot:
    stream_id: str
    kind: str
    version: int
    reason: str


def snapshots_check(*, stream_id: str | None = None) -> list[BadSnapshot]:
    """Snapshots that fail their check against their whole state and the event they stand
    at now (or whose event is gone), and unsealed ones where a seal is due. Unsealed
    snapshots from before seals are left to a replay (`verify_events --deep`)."""
    snapshots = Snapshot.objects.order_by("stream_id", "kind", "version")
    if stream_id is not None:
        snapshots = snapshots.filter(stream_id=stream_id)
    current = StoredEvent.objects.filter(
        stream_id=OuterRef("stream_id"), version=OuterRef("version")
    ).values("hash")[:1]
    due = Exists(_seal_due(StoredEvent.objects.filter(stream_id=OuterRef("stream_id")),
                           OuterRef("version")))  # fmt: skip
    rows = snapshots.annotate(
        current_hash=Subquery(current),
        # Asked of unsealed snapshots only (CASE runs it for those alone).
        seal_due=Case(
            When(seal__isnull=True, then=due), default=False, output_field=BooleanField()
        ),
    ).values_list(
        "stream_id", "kind", "version", "state", "event_hash", "digests", "seal", "key_id",
        "current_hash", "seal_due",
    )  # fmt: skip
    bad = []
    keys = KeyResolver()
    for row in rows.iterator(chunk_size=200):
        sid, kind, version, state, event_hash, digests, seal, key_id, current_hash, seal_due = row
        if seal is None and not seal_due:
            continue  # from before seals: a replay's to check (--deep)
        sealed = SealedSnapshot(sid, kind, version, event_hash, digests, seal, key_id)
        reason = "the event it stands at is gone" if current_hash is None else ""
        reason = reason or snapshot_problem(
            sealed, state, actual_event_hash=current_hash, seal_due=seal_due, keys=keys
        )
        if not reason and set(state) != set(digests or {}):
            reason = "its state lacks keys it was taken with"
        if reason:
            bad.append(BadSnapshot(sid, kind, version, reason))
    return bad
