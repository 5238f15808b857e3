"""What goes into the store and what comes out of it: new events, recorded events, and the
error a writer gets when the stream has moved on (defined in `errors`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from eventstore.errors import ConcurrencyError

__all__ = ["GENESIS_HASH", "MAX_STREAM_ID_LENGTH", "ConcurrencyError", "NewEvent", "RecordedEvent"]

GENESIS_HASH = ""  # the "previous hash" of a stream's version 1
MAX_STREAM_ID_LENGTH = 200


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: dict
    metadata: dict = field(default_factory=dict)
    schema_version: int = 1
    # The keys of `data` holding free text a person wrote (reasons, statements, comments):
    # stored outside the hashed log, the event holding a salted digest (eventstore.personal).
    personal: tuple[str, ...] = ()
    # Who wrote that text: "user:<id>" or "player:<id>" (erasing them erases it).
    author: str = ""


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
    # The stored form of the free-text keys read back as text (eventstore.personal): key ->
    # {"$text": id, "sha256": digest}; None when the event holds none.
    personal: dict | None = field(default=None, compare=False)
