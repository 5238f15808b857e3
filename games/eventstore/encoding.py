"""The canonical encoding of an event and its hash, chained to its predecessor's; JSON
normalised before it is stored, and decoded as it is read back."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any

import orjson

from config.errors import ValidationError

RECORDED_AT_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


# --- canonical encoding and hashing --------------------------------------------------------


def canonical_json(value: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces, non-ASCII kept as is."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


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


def _json_roundtrip(value: Any, what: str) -> Any:
    """Exactly what will be read back, so that the hash is computed over it: tuples become
    lists, keys strings, and floats that PostgreSQL's jsonb would print differently
    (-0.0, whole numbers of 1e16 and more, which come back as integers) are normalised."""
    try:
        text = canonical_json(value)
        text.encode("utf-8")  # lone surrogates cannot be stored (nor hashed)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"Event {what} is not JSON: {exc}") from exc
    if _ESCAPED_NUL.search(text):
        raise ValidationError(f"Event {what} contains a NUL character.")
    return json.loads(text, parse_float=_jsonb_float)


_ESCAPED_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")  # jsonb refuses NUL in strings


def _jsonb_float(text: str) -> float | int:
    number = float(text)
    if number == 0:
        return 0.0
    return int(number) if abs(number) >= 1e16 else number


# --- decoding what was read ----------------------------------------------------------------


def _json_value(value: Any) -> Any:
    # Django's PostgreSQL connections hand jsonb over as text, for the field to decode.
    return _loads(value) if isinstance(value, str) else value


def _loads(text: str) -> Any:
    """json.loads, by orjson (a third of the time on an action's events); the same values,
    but for integers beyond 64 bits, which orjson refuses and json reads."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
