"""What a match's live stream reads after each commit: the read side's copy of followed
streams (the write repository keeps none of it).

A process serving live streams keeps a copy of each followed stream (events and the state
at its head) and reads only what was appended since, from the copy's head on, whose hash
must still match (a stream rewritten since is read again in full): after a move that is one
round trip of the row and one to three events, where each follower used to read the row,
the whole stream, the snapshot with the events since and the head's hash (figures in
bench/README.md). The copies are a `core.memo.Memo`: at most FOLLOWED_STREAMS, the least
recently followed going first, and none not followed for settings.MATCH_CACHE_IDLE_SECONDS
(a finished match, its followers gone).
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection

import eventstore
from core.errors import NotFoundError
from core.memo import Memo
from core.prepared import PreparedStatement
from eventstore import RecordedEvent
from games.engine.events import event_from_dict
from games.engine.match import MatchState, replay
from games.models import Match
from games.repository import match_from_row, match_row_query


@dataclass(frozen=True)
class MatchFollowed:
    """A match as its live stream's followers need it after a commit: the row (with its
    players' names), the whole stream, and the state at its head with the head's hash."""

    match: Match
    events: tuple[RecordedEvent, ...]
    state: MatchState
    version: int
    head_hash: str


def match_followed(*, match_id: uuid.UUID | str) -> MatchFollowed:
    """The match's row and its stream up to the latest commit, for the stream's followers
    (from this process's copy, see the module's doc). NotFoundError if there is no such
    match."""
    try:
        key = uuid.UUID(str(match_id))
    except (ValueError, TypeError, AttributeError):
        raise NotFoundError("no such match", code="match_not_found") from None
    stream_id = f"match-{key}"
    copy = _FOLLOWED.get(stream_id)
    start = copy.version if copy is not None and copy.version else 1
    row, events = _row_and_events(
        Match._meta.pk.get_db_prep_value(key, connection), stream_id, start
    )
    if row is None:
        raise NotFoundError("no such match", code="match_not_found")
    match = match_from_row(row)
    if match.stream_id != stream_id:  # not a stream id match_create would have given
        stream_id, copy = match.stream_id, None
        events = eventstore.load(stream_id=stream_id)
    elif copy is not None and copy.version:
        if not events or events[0].version != copy.version or events[0].hash != copy.head_hash:
            copy, events = None, eventstore.load(stream_id=stream_id)  # rewritten: read anew
        else:
            events = events[1:]
    if copy is None:
        state, known = replay(event_from_dict(e.type, e.data) for e in events), ()
    else:
        known = copy.events
        state = replay((event_from_dict(e.type, e.data) for e in events), copy.state)
    every = (*known, *events)
    head = (every[-1].version, every[-1].hash) if every else (0, eventstore.GENESIS_HASH)
    followed = MatchFollowed(match, every, state, head[0], head[1])
    _FOLLOWED.put(stream_id, followed)
    return followed


def match_followed_forget() -> None:
    """Forget every followed stream's copy (tests)."""
    _FOLLOWED.clear()


def _row_and_events(
    pk: Any, stream_id: str, start: int
) -> tuple[tuple | None, list[RecordedEvent]]:
    """The match's row (as the lock query's, unlocked) and its stream's events from
    version `start` on: one round trip of prepared statements on PostgreSQL."""
    if connection.vendor == "postgresql":
        first = _followed_row_statement().statement([pk])
    else:
        first = (match_row_query("%s"), [pk])
    rows, events = eventstore.load_from(stream_id=stream_id, version=start, first=first)
    return (rows[0] if rows else None), events


@functools.cache
def _followed_row_statement() -> PreparedStatement:
    return PreparedStatement("match_followed_row", match_row_query("$1"), 1)


# Per stream-serving process: the matches followed there (100 in play at a club night);
# a stream of a long match is some hundreds of kB. By stream.
FOLLOWED_STREAMS = 256
_FOLLOWED: Memo[str, MatchFollowed] = Memo(
    maxsize=lambda: FOLLOWED_STREAMS, idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS
)
