"""Signed checkpoints of stream heads (eventstore.seals): "stream S had reached version V,
whose event's chain hash was H", signed with a key the database does not hold. Beat takes
them periodically (`eventstore.checkpoints_take`); `manage.py export_checkpoints` writes
them out for safe keeping elsewhere. A rewrite or a cut of history after a checkpoint no
longer matches it, here or in any copy held outside (`verify` checks the stored ones)."""

from __future__ import annotations

import datetime as dt
import hmac
import logging
from typing import Any

from django.db.models import Max, OuterRef, Q, Subquery
from django.utils import timezone

from eventstore.integrity import BrokenEvent
from eventstore.keys import KeyConflictError, chain_key_register, missing_key_reason
from eventstore.models import Checkpoint, StoredEvent
from eventstore.seals import checkpoint_signature, key_for, signing_key

logger = logging.getLogger("eventstore.checkpoints")


def checkpoints_take(*, stream_id: str | None = None) -> int:
    """Sign the head of every stream (or of one) that moved since its last checkpoint;
    returns how many were taken. Running it twice takes nothing more."""
    heads = StoredEvent.objects.values("stream_id").annotate(version=Max("version"))
    if stream_id is not None:
        heads = heads.filter(stream_id=stream_id)
    last = Checkpoint.objects.filter(stream_id=OuterRef("stream_id")).order_by("-version")
    heads = heads.annotate(checkpointed=Subquery(last.values("version")[:1]))
    moved = [(h["stream_id"], h["version"]) for h in heads if h["checkpointed"] != h["version"]]
    key = signing_key()
    try:
        chain_key_register(key=key)
    except KeyConflictError as exc:
        logger.error("checkpoints not taken: %s", exc)
        return 0
    rows = []
    for sid, version in moved:
        digest = StoredEvent.objects.get(stream_id=sid, version=version).hash
        rows.append(
            Checkpoint(
                stream_id=sid,
                version=version,
                hash=digest,
                signature=checkpoint_signature(sid, version, digest, key),
                key_id=key.key_id,
            )
        )
    Checkpoint.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def checkpoints_export(*, stream_id: str | None = None, latest_only: bool = False) -> list[dict]:
    """The checkpoints (every one, or the latest of each stream) as plain data: stream_id,
    version, hash, signature, key_id (when recorded), created_at (ISO 8601)."""
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
            **({"key_id": c.key_id} if c.key_id else {}),
            "created_at": _utc_text(c.created_at),
        }
        if isinstance(out, dict):
            out[c.stream_id] = item
        else:
            out.append(item)
    return list(out.values()) if isinstance(out, dict) else out


def checkpoint_valid(
    *,
    stream_id: str,
    version: int,
    hash: str,  # noqa: A002
    signature: str,
    key_id: str | None = None,
) -> bool:
    """Was this checkpoint (e.g. one a player kept) signed with the key `key_id` (None: the
    first key)? False too when this install lacks that key."""
    key = key_for(key_id)
    if key is None:
        return False
    return hmac.compare_digest(checkpoint_signature(stream_id, version, hash, key), signature)


# --- receipts: checkpoints handed out, kept outside, checked later ---------------------------


def receipt_sign(*, stream_id: str, version: int, digest: str | None = None) -> dict | None:
    """A receipt for the stream at `version`: a checkpoint signed now (not stored), in the
    shape `checkpoints_export` writes, for a reader to keep (players get one in their view
    of a match). `digest`: that event's hash, when the caller has just stored it (saves a
    query). None if the stream has no event at `version`."""
    if digest is None:
        digest = (
            StoredEvent.objects.filter(stream_id=stream_id, version=version)
            .values_list("hash", flat=True)
            .first()
        )
    if digest is None:
        return None
    key = signing_key()
    return {
        "stream_id": stream_id,
        "version": version,
        "hash": digest,
        "signature": checkpoint_signature(stream_id, version, digest, key),
        "key_id": key.key_id,
        "created_at": _utc_text(timezone.now()),
    }


def heads_sign(*, stream_ids: list[str], versions: dict[str, int] | None = None) -> list[dict]:
    """Receipts (signed now, as `receipt_sign`'s) of the heads of `stream_ids`, in their
    order, in two queries; `versions` pins a stream at an earlier version. A stream
    without events is left out. Anchors to hand out (a tournament's webhooks and page)."""
    heads = dict(
        StoredEvent.objects.filter(stream_id__in=stream_ids)
        .values("stream_id")
        .annotate(head=Max("version"))
        .values_list("stream_id", "head")
    )
    heads.update({s: v for s, v in (versions or {}).items() if s in heads and v <= heads[s]})
    wanted = Q(pk__in=[])
    for sid, version in heads.items():
        wanted |= Q(stream_id=sid, version=version)
    digests = dict(
        ((sid, version), digest)
        for sid, version, digest in StoredEvent.objects.filter(wanted).values_list(
            "stream_id", "version", "hash"
        )
    )
    now = _utc_text(timezone.now())
    key = signing_key()
    out = []
    for sid in stream_ids:
        version = heads.get(sid)
        digest = digests.get((sid, version)) if version is not None else None
        if digest is None:
            continue
        signature = checkpoint_signature(sid, version, digest, key)
        out.append(
            {"stream_id": sid, "version": version, "hash": digest, "signature": signature,
             "key_id": key.key_id, "created_at": now}
        )  # fmt: skip
    return out


def receipts_check(*, receipts: list[dict]) -> list[BrokenEvent]:
    """The kept receipts (or exported checkpoints) that the store no longer matches, each
    as the stream and version it names, with why: not signed with the key (made up), the
    event at its version is gone (history cut short) or is another one (rewritten). A
    rewrite by someone holding the key too, seals and checkpoints recomputed, still
    differs from what a reader kept."""
    wanted = [
        (str(r.get("stream_id")), r.get("version"), str(r.get("hash")), str(r.get("signature")),
         r.get("key_id"))
        for r in receipts
    ]  # fmt: skip
    streams = {w[0] for w in wanted}
    stored = StoredEvent.objects.filter(stream_id__in=streams).values_list(
        "stream_id", "version", "hash", "position"
    )
    rows = {(sid, version): (digest, pos) for sid, version, digest, pos in stored}
    broken = []
    for sid, version, digest, signature, key_id in wanted:
        key = key_for(key_id if isinstance(key_id, str) else None)
        if key is None:
            at = version if type(version) is int else 0
            broken.append(BrokenEvent(sid, at, 0, f"the receipt was {missing_key_reason(key_id)}"))
            continue
        if type(version) is not int or not hmac.compare_digest(
            checkpoint_signature(sid, version, digest, key), signature
        ):
            at = version if type(version) is int else 0
            broken.append(
                BrokenEvent(sid, at, 0, "the receipt is not signed with the key: not ours")
            )
            continue
        row = rows.get((sid, version))
        if row is None:
            head = max((v for s, v in rows if s == sid), default=0)
            reason = (
                f"events {head + 1} to {version} are missing: a kept receipt holds version"
                f" {version}"
            )
            broken.append(BrokenEvent(sid, version, 0, reason))
        elif row[0] != digest:
            reason = (
                f"the event at version {version} is not the one a kept receipt holds: history"
                " was rewritten"
            )
            broken.append(BrokenEvent(sid, version, row[1], reason))
    return broken


def _utc_text(value: dt.datetime) -> str:
    """ISO 8601 in UTC ending in `Z`, the API's one format for instants."""
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
