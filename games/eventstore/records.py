"""What goes into the store and what comes out of it: new events, recorded events, and the
error a writer gets when the stream has moved on."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from config.errors import VersionConflictError

GENESIS_HASH = ""  # the "previous hash" of a stream's version 1
MAX_STREAM_ID_LENGTH = 200


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: dict
    metadata: dict = field(default_factory=dict)
    schema_version: int = 1


@dataclass(frozen=True)
class RecordedEvent:
    position: int
    stream_id: str
    version: int
    type: str
    schema_version: int
    data: dict
    metadata: dict
    recorded_at: datetime
    hash: str


class ConcurrencyError(VersionConflictError):
    """The stream is not at the version the writer expected: someone else appended first."""

    def __init__(self, *, stream_id: str, expected_version: int, current_version: int) -> None:
        super().__init__(
            f"Stream {stream_id} is at version {current_version}, not {expected_version}.",
            extra={
                "stream_id": stream_id,
                "expected_version": expected_version,
                "current_version": current_version,
            },
        )
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.current_version = current_version
