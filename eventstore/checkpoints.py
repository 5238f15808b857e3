"""Signed checkpoints of stream heads (eventstore.seals): "stream S had reached version V,
whose event's chain hash was H", signed with a key the database does not hold. Beat takes
them periodically (`eventstore.checkpoints_take`); `manage.py export_checkpoints` writes
them out for safe keeping elsewhere. A rewrite or a cut of history after a checkpoint no
longer matches it, here or in any copy held outside (`verify` checks the stored ones)."""

from __future__ import annotations

import hmac
from typing import Any

from django.db.models import Max, OuterRef, Subquery

from eventstore.models import Checkpoint, StoredEvent
from eventstore.seals import checkpoint_signature


def checkpoints_take(*, stream_id: str | None = None) -> int:
    """Sign the head of every stream (or of one) that moved since its last checkpoint;
    returns how many were taken. Running it twice takes nothing more."""
    heads = StoredEvent.objects.values("stream_id").annotate(version=Max("version"))
    if stream_id is not None:
        heads = heads.filter(stream_id=stream_id)
    last = Checkpoint.objects.filter(stream_id=OuterRef("stream_id")).order_by("-version")
    heads = heads.annotate(checkpointed=Subquery(last.values("version")[:1]))
    moved = [(h["stream_id"], h["version"]) for h in heads if h["checkpointed"] != h["version"]]
    rows = []
    for sid, version in moved:
        digest = StoredEvent.objects.get(stream_id=sid, version=version).hash
        rows.append(
            Checkpoint(
                stream_id=sid,
                version=version,
                hash=digest,
                signature=checkpoint_signature(sid, version, digest),
            )
        )
    Checkpoint.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def checkpoints_export(*, stream_id: str | None = None, latest_only: bool = False) -> list[dict]:
    """The checkpoints (every one, or the latest of each stream) as plain data: stream_id,
    version, hash, signature, created_at (ISO 8601)."""
    rows = Checkpoint.objects.order_by("stream_id", "version")
    if stream_id is not None:
        rows = rows.filter(stream_id=stream_id)
    out: dict[Any, dict] | list[dict] = {} if latest_only else []
    for c in rows.iterator(chunk_size=2000):
        item = {
            "stream_id": c.stream_id,
            "version": c.version,
            "hash": c.hash,
            "signature": c.signature,
            "created_at": c.created_at.isoformat(),
        }
        if isinstance(out, dict):
            out[c.stream_id] = item
        else:
            out.append(item)
    return list(out.values()) if isinstance(out, dict) else out


def checkpoint_valid(*, stream_id: str, version: int, hash: str, signature: str) -> bool:  # noqa: A002
    """Was this checkpoint (e.g. one a player kept) signed with the key?"""
    return hmac.compare_digest(checkpoint_signature(stream_id, version, hash), signature)
