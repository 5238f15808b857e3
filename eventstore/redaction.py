"""Redacting old events: personal data that an event already holds in clear (a username in
`by`, a statement written before eventstore.personal existed) taken out of the row, never
silently (issue 34; docs/operators/privacy.md, "Old events").

`redact_in_tx` rewrites the rows' data and metadata (the append-only triggers lifted for
that statement only, in the caller's transaction) and appends a `Redacted` event to the
stream "redactions-<stream id>": for each rewritten event its version, its chain hash (the
row keeps it: the next event's link, its seal and every signed checkpoint still hold), the
digest of what it held and of what it holds now, and which fields were removed. The
`Redacted` event is itself chained and sealed with the chain key, so it cannot be made
without the key. `verify` accepts an event whose hash no longer recomputes only when such a
record vouches for exactly its present content and its hash; it counts it as redacted.

What this cannot do: the old chain hash is computed over the old content, so a person who
guesses the removed value exactly (a username is easy to guess) can confirm the guess by
recomputing the hash. Events written since personal data left the log do not have that
weakness (their text's digest is salted, and the salt is erased with the text).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.db.models import Q, TextField
from django.db.models.functions import Cast

from eventstore._shared import READ_FIELDS, canonical_json, json_roundtrip
from eventstore.maintenance import immutability_suspended
from eventstore.models import StoredEvent
from eventstore.personal import resolve
from eventstore.read import stream_version
from eventstore.records import NewEvent, RecordedEvent
from eventstore.write import append

__all__ = [
    "REDACTED",
    "REDACTIONS_PREFIX",
    "Redaction",
    "content_digest",
    "events_naming",
    "redact_in_tx",
    "redaction_entries",
    "redactions_of",
]

REDACTED = "Redacted"
REDACTIONS_PREFIX = "redactions-"


@dataclass(frozen=True)
class Redaction:
    """One event's new content: its data and metadata without the personal fields, and the
    paths of what was removed ("data.by.username", "metadata.request_id", ...)."""

    version: int
    data: dict
    metadata: dict
    removed: tuple[str, ...]


def content_digest(data: Any, metadata: Any) -> str:
    """sha256 hex of canonical_json({"data", "metadata"}): what a Redacted record vouches for."""
    body = canonical_json({"data": data, "metadata": metadata})
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def events_naming(
    *,
    terms: Iterable[str] = (),
    actors: Iterable[str] = (),
    data: Iterable[tuple[str, Any]] = (),
    resolved: bool = False,
) -> list[RecordedEvent]:
    """Every event, exactly as stored (`resolved`: as read, texts put back), whose data or
    metadata holds one of `terms` (case-insensitive, as JSON text), whose metadata's `actor`
    is one of `actors`, or whose data has one of the (key path, value) pairs of `data`
    ("by__id", 7). A scan of the whole log: for an erasure or a person's own data, which
    are rare."""
    query = Q(metadata__actor__in=list(actors))
    for path, value in data:
        query |= Q(**{f"data__{path}": value})
    for term in terms:
        if term:
            query |= Q(_data_text__icontains=term) | Q(_meta_text__icontains=term)
    rows = (
        StoredEvent.objects.annotate(
            _data_text=Cast("data", TextField()), _meta_text=Cast("metadata", TextField())
        )
        .filter(query)
        .exclude(stream_id__startswith=REDACTIONS_PREFIX)
        .order_by("stream_id", "version")
        .values_list(*READ_FIELDS)
    )
    events = [RecordedEvent(*row) for row in rows]
    return resolve(events) if resolved else events


def redact_in_tx(
    *, stream_id: str, redactions: Sequence[Redaction], by: str, erasure: str
) -> RecordedEvent:
    """Rewrite these events of `stream_id` and record it (module docstring), in the caller's
    transaction. `by`: who erased ("user:<id>"); `erasure`: the stream of the erasure that
    asked for it. Returns the `Redacted` event."""
    assert transaction.get_connection().in_atomic_block, "redact_in_tx runs in a transaction"
    versions = [r.version for r in redactions]
    rows = {
        row.version: row
        for row in StoredEvent.objects.select_for_update().filter(
            stream_id=stream_id, version__in=versions
        )
    }
    entries = []
    with immutability_suspended():
        for redaction in redactions:
            row = rows[redaction.version]
            data = json_roundtrip(redaction.data, "data")
            metadata = json_roundtrip(redaction.metadata, "metadata")
            entries.append(
                {
                    "version": row.version,
                    "hash": row.hash,
                    "old_digest": content_digest(row.data, row.metadata),
                    "digest": content_digest(data, metadata),
                    "removed": sorted(redaction.removed),
                }
            )
            # The model refuses changes (on purpose); the plain queryset is the one way.
            models.QuerySet(model=StoredEvent).filter(pk=row.pk).update(
                data=data, metadata=metadata
            )
    target = REDACTIONS_PREFIX + stream_id
    return append(
        stream_id=target,
        expected_version=stream_version(stream_id=target),
        events=[
            NewEvent(
                type=REDACTED,
                data={"stream_id": stream_id, "by": by, "erasure": erasure, "events": entries},
                metadata={"actor": by},
            )
        ],
    )[0]


def redactions_of(*, stream_id: str | None = None) -> dict[tuple[str, int], set[tuple[str, str]]]:
    """(stream id, version) -> the (chain hash, content digest) pairs Redacted records vouch
    for (all streams', or one's)."""
    rows = StoredEvent.objects.filter(type=REDACTED, stream_id__startswith=REDACTIONS_PREFIX)
    if stream_id is not None:
        rows = rows.filter(stream_id=REDACTIONS_PREFIX + stream_id)
    out: dict[tuple[str, int], set[tuple[str, str]]] = {}
    for data in rows.values_list("data", flat=True):
        for entry in data.get("events", []):
            key = (data["stream_id"], entry["version"])
            out.setdefault(key, set()).add((entry["hash"], entry["digest"]))
    return out


def redaction_entries(*, stream_id: str) -> list[dict[str, Any]]:
    """What the Redacted records of a stream say, one entry per event redacted: its version,
    the chain hash it keeps, the digest of what it holds now, the fields removed, and the
    record itself (its stream, version and chain hash): for an audit bundle."""
    rows = StoredEvent.objects.filter(
        type=REDACTED, stream_id=REDACTIONS_PREFIX + stream_id
    ).order_by("version")
    out = []
    for version, digest, data in rows.values_list("version", "hash", "data"):
        record = {"stream_id": REDACTIONS_PREFIX + stream_id, "version": version, "hash": digest}
        for entry in data.get("events", []):
            out.append(
                {
                    "version": entry["version"],
                    "hash": entry["hash"],
                    "digest": entry["digest"],
                    "removed": entry["removed"],
                    "record": record,
                }
            )
    return out
