"""The canonical encoding of an event and its hash, chained to its predecessor's; JSON
normalised before it is stored, and decoded as it is read back."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from eventstore._shared import canonical_json

__all__ = ["RECORDED_AT_FORMAT", "canonical_json", "event_hash", "format_recorded_at"]

RECORDED_AT_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


# --- canonical encoding and hashing --------------------------------------------------------


def format_recorded_at(value: datetime) -> str:
    return value.astimezone(UTC).strftime(RECORDED_AT_FORMAT)


def event_hash(
    *,
    stream_id: str,
    version: int,
    type: str,
    schema_version: int,
    data: dict,
    metadata: dict,
    recorded_at: datetime,
    prev_hash: str,
) -> str:
    """sha256 hex of the canonical encoding of one event chained to its predecessor."""
    body = {
        "stream_id": stream_id,
        "version": version,
        "type": type,
        "schema_version": schema_version,
        "data": data,
        "metadata": metadata,
        "recorded_at": format_recorded_at(recorded_at),
        "prev": prev_hash,
    }
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
