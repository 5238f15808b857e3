"""The only code that loads a match for update and saves it.

A service loads a `MatchWrite` (`match_lock`, `match_new`), lets the engine decide, records
the events it decided (`MatchWrite.record`), then `match_save` stores them: the events with
their expected version, a snapshot at each deal, and the read models, in the caller's
transaction. What it returns (`MatchSaved`) says what happened, the stored events included,
so a caller reads "did the match finish?" from the events, not from a projected field.

The performance tricks of the write path live here and nowhere else (figures in
bench/README.md):
- the lock, the latest snapshot and the events since are one round trip of prepared
  statements (`match_lock`); the append and the match row's update are another;
- a worker remembers the latest state of the matches it wrote, and the next action there
  starts from it where the stream read vouches for it (`_remembered_state`), until the
  match ends or is left idle (settings.MATCH_CACHE_IDLE_SECONDS);
- the finished hands' records of a snapshot, most of a late one, are read once per worker
  and snapshot version (`_hand_results_at`) instead of on every action, the latest
  snapshot's of each stream, up to settings.HAND_RESULTS_CACHED_RECORDS records in all.
The action API's plain-body check, which spares it the input serializer, is beside this
module: games/fastpath.py.
"""

from __future__ import annotations

import functools
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_noop

import eventstore
from core.errors import NotFoundError, VersionConflictError
from core.memo import Memo
from core.prepared import PreparedStatement, model_columns, model_from_row
from eventstore import NewEvent, RecordedEvent, StreamTail
from games import projections
from games.engine.events import Event, HandDealt, event_from_dict, event_to_dict, event_type
from games.engine.match import MatchState, evolve, initial_state, replay
from games.engine.state import STATE_SCHEMA, state_from_dict, state_to_dict
from games.models import Match, MatchDealPlan
from players.models import Player

# Follows the engine's state shape: older snapshots are then simply ignored (and the state is
# replayed from the events).
SNAPSHOT_KIND = f"match-state-v{STATE_SCHEMA}"

# The events that end a match, and the one that reopens it (a correction).
FINISH_EVENT_TYPES = projections.FINISH_EVENT_TYPES


# The free text of match events (a person's words: a ruling's reason, a dispute's statement,
# a comment) and `by`, the name shown of who ruled or commented (a username or a player's
# name, as written then): kept outside the hashed log, erasable (eventstore.personal). The
# metadata names people by id (`actor`, `ruling_by`); every other field is a code, a
# number or an id.
FREE_TEXT: dict[str, tuple[str, ...]] = {
    "HandVoided": ("reason", "by"),
    "HandCorrected": ("reason", "by"),
    "ScoreAdjusted": ("reason", "by"),
    "MatchForfeited": ("reason", "by"),
    "MatchCancelled": ("reason", "by"),
    "DisputeOpened": ("statement",),
    "DisputeCommented": ("comment", "by"),
    "DisputeResolved": ("reason", "by"),
}


@dataclass
class MatchWrite:
    """A match being changed: its row, its state, the stream version they were loaded at,
    and the events decided since, not yet stored."""

    match: Match
    state: MatchState
    version: int
    # The hash of the event at `version` when read under the match's lock: the append
    # then need not read it again.
    head_hash: str | None = None
    pending: list[NewEvent] = field(default_factory=list)
    decided: list[Event] = field(default_factory=list)
    snapshots: list[tuple[int, MatchState]] = field(default_factory=list)

    @property
    def current_version(self) -> int:
        return self.version + len(self.pending)

    def record(self, events: Sequence[Event], metadata: dict[str, Any]) -> None:
        """Evolve the state by `events` (decided by the engine) and keep them to be saved."""
        for event in events:
            self.state = evolve(self.state, event)
            self.decided.append(event)
            type_ = event_type(event)
            self.pending.append(
                NewEvent(
                    type=type_,
                    data=event_to_dict(event),
                    metadata=metadata,
                    personal=FREE_TEXT.get(type_, ()),
                    author=str(metadata.get("actor") or ""),
                )
            )
            if isinstance(event, HandDealt):
                # Loading a match then costs at most one hand's events.
                self.snapshots.append((self.current_version, self.state))


@dataclass(frozen=True)
class MatchSaved:
    """What a save stored: the match (its row as projected), its state and version after
    the save, and the events stored (empty if there was nothing to store)."""

    match: Match
    state: MatchState
    version: int
    events: tuple[RecordedEvent, ...]

    @property
    def finished(self) -> bool:
        """True if these events ended the match (played out, forfeited, cancelled...)."""
        return any(e.type in FINISH_EVENT_TYPES for e in self.events)

    @property
    def result_changed(self) -> bool:
        """True if these events ended the match, or corrected a match that stays finished
        (its games or points, perhaps its winner, are now different)."""
        if self.finished:
            return True
        corrections = ("HandCorrected", "HandVoided")
        return self.state.status == "finished" and any(e.type in corrections for e in self.events)

    @property
    def reopened(self) -> bool:
        """True if these events put a finished match back into play (a correction)."""
        return any(e.type == "MatchReopened" for e in self.events)


# --- loading --------------------------------------------------------------------------------


def match_new(*, match: Match) -> MatchWrite:
    """A match just created (its row saved, its stream empty)."""
    return MatchWrite(match=match, state=initial_state(), version=0)


def match_lock(*, match_id: uuid.UUID | str) -> MatchWrite:
    """The match row, locked (one writer per match at a time; the append's expected
    version is the second guard), with its players' names, and its latest state: one round
    trip on PostgreSQL, of prepared statements. Written as SQL: on every action the ORM's
    building of the lock query cost as much again as running it."""
    try:
        key = uuid.UUID(str(match_id))
    except (ValueError, TypeError, AttributeError):
        # An unparsable id is simply not a match (as in selectors.match_get).
        raise NotFoundError("no such match", code="match_not_found") from None
    pk = Match._meta.pk.get_db_prep_value(key, connection)
    stream_id = f"match-{key}"
    rows, tail = eventstore.read_tail(
        stream_id=stream_id,
        kind=SNAPSHOT_KIND,
        without=unread_keys(hand_results=False),
        first=_lock_statement_for(pk),
    )
    if not rows:
        raise NotFoundError("no such match", code="match_not_found")
    match = _match_from_row(rows[0])
    if match.stream_id != stream_id:  # not a stream id match_create would have given
        state, version = match_state_at(match=match)
        return MatchWrite(match=match, state=state, version=version)
    state, version = match_state_from_tail(stream_id=stream_id, tail=tail)
    return MatchWrite(match=match, state=state, version=version, head_hash=tail.head[1])


def match_load_unlocked(*, match: Match) -> MatchWrite:
    """The match at its latest version without the row lock, for a caller that holds the
    match otherwise (bulk loading for benchmarks and tests); the append's expected
    version still refuses a concurrent writer."""
    state, version = match_state_at(match=match)
    return MatchWrite(match=match, state=state, version=version)


def match_deal_plan(*, match: Match) -> MatchDealPlan | None:
    """The decks or seed an organiser chose for the match's deals, if any."""
    return MatchDealPlan.objects.filter(match_id=match.pk).first()


def match_state_at(
    *, match: Match, version: int | None = None, hand_results: bool = False
) -> tuple[MatchState, int]:
    """The engine state at `version` (default: the latest) from the latest snapshot at or
    before it plus the events since. `hand_results`: read the finished-hand records with
    the snapshot, in the same query, for a caller that will show them."""
    if version is None:
        # The usual case, the latest state: snapshot and events in one round trip.
        tail = eventstore.read_tail(
            stream_id=match.stream_id, kind=SNAPSHOT_KIND, without=unread_keys(hand_results)
        )[1]
        return match_state_from_tail(stream_id=match.stream_id, tail=tail)
    state, at = initial_state(), 0
    snap = eventstore.snapshot_load(
        stream_id=match.stream_id,
        kind=SNAPSHOT_KIND,
        max_version=version,
        without=unread_keys(hand_results),
    )
    if snap is not None:
        at, data = snap
        state = _state_of_snapshot(match.stream_id, at, data)
    recorded = eventstore.load(stream_id=match.stream_id, after_version=at, up_to_version=version)
    if recorded:
        state = replay((event_from_dict(e.type, e.data) for e in recorded), state)
        at = recorded[-1].version
    return state, at


def match_state_from_tail(*, stream_id: str, tail: StreamTail) -> tuple[MatchState, int]:
    """The engine state at the head of a match's stream read by `eventstore.read_tail`
    (kind SNAPSHOT_KIND, without `unread_keys(...)`), and its version: from the state this
    process last remembered of the stream when the tail's events vouch for it, else from
    the tail's snapshot."""
    at = tail.snapshot[0] if tail.snapshot is not None else 0
    remembered = _remembered_state(stream_id, tail, at)
    if remembered is not None:
        version, state = remembered
        later = tail.events[version - at :]  # the tail's events are at + 1, ..., head
    else:
        state, later = initial_state(), tail.events
        if tail.snapshot is not None:
            state = _state_of_snapshot(stream_id, at, tail.snapshot[1])
    if later:
        state = replay((event_from_dict(e.type, e.data) for e in later), state)
    return state, tail.head[0]


def unread_keys(hand_results: bool) -> tuple[str, ...]:
    """The snapshot keys left unread: the finished-hand records, most of a late snapshot,
    are read only where looked at (views) or from this process's cache of them."""
    return () if hand_results else ("hand_results",)


def _state_of_snapshot(stream_id: str, version: int, data: dict[str, Any]) -> MatchState:
    if "hand_results" not in data:
        data = {**data, "hand_results": _hand_results_at(stream_id, version)}
    return state_from_dict(data)


def _hand_results_at(stream_id: str, version: int) -> tuple[dict[str, Any], ...]:
    """The finished-hand records of the snapshot at `version`, or, if it has been deleted
    since, of the state replayed from the events up to it.

    Cached in the process: the records of a stream at a version never change (events are
    immutable), and they are most of a late snapshot, which PostgreSQL would otherwise
    turn into text on every action. The records are shared: readers copy before changing
    anything. What is kept is bounded (bench/README.md, "Soak": what grew): one snapshot
    per stream, its latest looked at (a new hand's snapshot replaces the one before, which
    holds the same records but one); at most settings.HAND_RESULTS_CACHED_RECORDS records
    in all, the streams looked at longest ago going first; and none of a stream not looked
    at for settings.MATCH_CACHE_IDLE_SECONDS (a finished match, one played elsewhere)."""
    cached = _HAND_RESULTS.get(stream_id)
    if cached is not None and cached[0] == version:
        return cached[1]
    found = eventstore.snapshot_part(
        stream_id=stream_id, kind=SNAPSHOT_KIND, version=version, key="hand_results"
    )
    if found is None:
        recorded = eventstore.load(stream_id=stream_id, up_to_version=version)
        found = replay(event_from_dict(e.type, e.data) for e in recorded).hand_results
    records = tuple(found)
    # An earlier hand's (a replay, a view of the past) does not replace the latest.
    _HAND_RESULTS.put(stream_id, (version, records), unless=lambda held: held[0] > version)
    return records


def hand_results_forget() -> None:
    """Forget every cached snapshot's records (tests; nothing else needs to)."""
    _HAND_RESULTS.clear()


def hand_results_held() -> tuple[int, int]:
    """(streams, records) of the finished-hand records cached in this process."""
    return len(_HAND_RESULTS), _HAND_RESULTS.size()


# Per worker process, by stream: (snapshot version, its finished-hand records). A record is
# about 10 kB in memory (the deal's deck, hands, stock and melds), so the bound counts them.
_HAND_RESULTS: Memo[str, tuple[int, tuple[dict[str, Any], ...]]] = Memo(
    maxsize=lambda: settings.HAND_RESULTS_CACHED_RECORDS,
    idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS,
    sizeof=lambda kept: len(kept[1]),
)


# --- saving ---------------------------------------------------------------------------------


def match_save(write: MatchWrite) -> MatchSaved:
    """Store the events decided since the load, in the caller's transaction: appended with
    the version they were decided at (a concurrent writer gets VersionConflictError), a
    snapshot at each deal, and the match's read models. On PostgreSQL with the row
    locked, the append and the match row's update are one round trip."""
    match = write.match
    if not write.pending:
        return MatchSaved(match=match, state=write.state, version=write.version, events=())
    recorded_at = timezone.now()
    stand_ins = _stand_ins(write, recorded_at)
    locked = write.head_hash is not None
    projection = projections.match_project(
        match=match, state=write.state, events=stand_ins, row_known=locked
    )
    try:
        recorded = eventstore.append(
            stream_id=match.stream_id,
            expected_version=write.version,
            events=write.pending,
            head_hash=write.head_hash,
            recorded_at=recorded_at,
            also=projection.statements,
        )
    except eventstore.ConcurrencyError as exc:
        raise VersionConflictError(
            gettext_noop("the match is at version %(current)s, not %(expected)s"),
            params={"current": exc.current_version, "expected": exc.expected_version},
            extra={
                "stream_id": exc.stream_id,
                "current_version": exc.current_version,
                "expected_version": exc.expected_version,
            },
        ) from exc
    for version, state in write.snapshots:
        eventstore.snapshot_save(
            stream_id=match.stream_id,
            version=version,
            state=state_to_dict(state),
            kind=SNAPSHOT_KIND,
        )
    projection.save_rows()
    version, head_hash = recorded[-1].version, recorded[-1].hash
    # Safe even if this transaction rolls back: see match_state_remember.
    match_state_remember(
        stream_id=match.stream_id, version=version, head_hash=head_hash, state=write.state
    )
    write.version, write.head_hash = version, head_hash
    write.pending, write.decided, write.snapshots = [], [], []
    return MatchSaved(match=match, state=write.state, version=version, events=tuple(recorded))


@dataclass(frozen=True)
class _StandIn:
    """An event as it will be recorded, for the projection that goes with the append."""

    version: int
    type: str
    data: dict[str, Any]
    recorded_at: datetime


def _stand_ins(write: MatchWrite, recorded_at: datetime) -> list[_StandIn]:
    return [
        _StandIn(version=write.version + n, type=e.type, data=e.data, recorded_at=recorded_at)
        for n, e in enumerate(write.pending, start=1)
    ]


# --- remembered states ----------------------------------------------------------------------


def match_state_remember(
    *, stream_id: str, version: int, head_hash: str, state: MatchState
) -> None:
    """Keep `state`, the stream's state at `version` whose event has `head_hash`, for the
    next writer of the stream in this process (`match_state_from_tail`).

    A state at a version is a function of the events up to it, and the hash of the event at
    that version covers them all (the chain), so a remembered state is used only where the
    stream read holds an event of that version with that hash: one remembered from a
    transaction that rolled back, or of a stream changed since, is simply not used. An
    action in the same worker then replays only the events since its last one there
    instead of all those since the hand's snapshot (about 15), and decodes no snapshot.
    A finished match's state is not kept, nor one not used here (written or read) for
    settings.MATCH_CACHE_IDLE_SECONDS (core.memo): a match finished by another worker
    (or abandoned) would otherwise sit here until REMEMBERED_STATES newer ones pushed it
    out, hundreds of matches later (bench/README.md, "Soak": what grew)."""
    if state.status == "finished":
        # Nobody plays a finished match: its state (its largest, every hand's records)
        # would only sit here until pushed out. A correction reads it the usual way.
        _REMEMBERED.pop(stream_id)
        return
    _REMEMBERED.put(stream_id, (version, head_hash, state))


def match_states_forget() -> None:
    """Forget every remembered state (tests; nothing else needs to)."""
    _REMEMBERED.clear()


def _remembered_state(stream_id: str, tail: StreamTail, at: int) -> tuple[int, MatchState] | None:
    """The remembered (version, state) of the stream if the tail vouches for it: its
    version is the head's with the head's hash, or that of one of the tail's events (after
    the snapshot at `at`) with that event's hash."""
    remembered = _REMEMBERED.get(stream_id)
    if remembered is None:
        return None
    version, digest, state = remembered
    head_version, head_hash = tail.head
    if version == head_version:
        return (version, state) if digest == head_hash else None
    if not at < version < head_version:
        return None
    event = tail.events[version - at - 1]
    return (version, state) if event.version == version and event.hash == digest else None


# Per worker process: matches are spread over the workers, and a state is ~20 kB.
REMEMBERED_STATES = 256
# By stream: (version, its event's hash, the state).
_REMEMBERED: Memo[str, tuple[int, str, MatchState]] = Memo(
    maxsize=lambda: REMEMBERED_STATES, idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS
)


# --- followed streams: what the live stream reads after each commit ----------------------


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
    """The match's row and its stream up to the latest commit, for the stream's followers.

    A process serving live streams keeps a copy of each followed stream (events and the
    state at its head) and reads only what was appended since, from the copy's head on,
    whose hash must still match (a stream rewritten since is read again in full): after a
    move that is one round trip of the row and one to three events, where each follower
    used to read the row, the whole stream, the snapshot with the events since and the
    head's hash (figures in bench/README.md). NotFoundError if there is no such match."""
    try:
        key = uuid.UUID(str(match_id))
    except (ValueError, TypeError, AttributeError):
        raise NotFoundError("no such match", code="match_not_found") from None
    stream_id = f"match-{key}"
    with _FOLLOWED_LOCK:
        kept = _FOLLOWED.get(stream_id)
    copy = kept[0] if kept is not None else None
    start = copy.version if copy is not None and copy.version else 1
    row, events = _row_and_events(
        Match._meta.pk.get_db_prep_value(key, connection), stream_id, start
    )
    if row is None:
        raise NotFoundError("no such match", code="match_not_found")
    match = _match_from_row(row)
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
    now, idle = time.monotonic(), settings.MATCH_CACHE_IDLE_SECONDS
    with _FOLLOWED_LOCK:
        _FOLLOWED[stream_id] = (followed, now)
        _FOLLOWED.move_to_end(stream_id)
        while _FOLLOWED and (
            len(_FOLLOWED) > FOLLOWED_STREAMS or next(iter(_FOLLOWED.values()))[1] < now - idle
        ):
            _FOLLOWED.popitem(last=False)  # the least recently followed, or one left idle
    return followed


def match_followed_forget() -> None:
    """Forget every followed stream's copy (tests)."""
    with _FOLLOWED_LOCK:
        _FOLLOWED.clear()


def _row_and_events(
    pk: Any, stream_id: str, start: int
) -> tuple[tuple | None, list[RecordedEvent]]:
    """The match's row (as the lock query's, unlocked) and its stream's events from
    version `start` on: one round trip of prepared statements on PostgreSQL."""
    if connection.vendor == "postgresql":
        first = _followed_row_statement().statement([pk])
    else:
        first = (_lock_query("%s"), [pk])
    rows, events = eventstore.load_from(stream_id=stream_id, version=start, first=first)
    return (rows[0] if rows else None), events


@functools.cache
def _followed_row_statement() -> PreparedStatement:
    return PreparedStatement("match_followed_row", _lock_query("$1"), 1)


# Per stream-serving process: the matches followed there (100 in play at a club night);
# a stream of a long match is some hundreds of kB. By stream, in the order last read:
# (the copy, when read); a copy not read for settings.MATCH_CACHE_IDLE_SECONDS (a finished
# match, its followers gone) goes when another stream is read.
FOLLOWED_STREAMS = 256
_FOLLOWED: OrderedDict[str, tuple[MatchFollowed, float]] = OrderedDict()
_FOLLOWED_LOCK = threading.Lock()


# --- the lock query -------------------------------------------------------------------------


def _match_from_row(row: tuple) -> Match:
    """A Match from a row of the lock query, as the ORM would build it (the same conversions
    of database values), with its players (id and name; other fields load on access)."""
    match = model_from_row(Match, row)  # the columns in field order, then the two names
    using = connection.alias
    p1, p2 = row[-2:]
    match.player1 = Player.from_db(using, ["id", "name"], [match.player1_id, p1])
    match.player2 = Player.from_db(using, ["id", "name"], [match.player2_id, p2])
    return match


def _lock_statement_for(pk: Any) -> tuple[str, list[Any]]:
    if connection.vendor == "postgresql":
        return _lock_statement().statement([pk])
    return _lock_query("%s"), [pk]


@functools.cache
def _lock_statement() -> PreparedStatement:
    return PreparedStatement("match_lock", _lock_query("$1") + " FOR UPDATE OF m", 1)


@functools.cache
def _lock_query(placeholder: str) -> str:
    """The match row and its players' names; columns named (see core.prepared)."""
    return (
        f"SELECT {model_columns(Match, 'm')}, p1.name AS p1_name, p2.name AS p2_name"
        " FROM games_match AS m"
        " JOIN players_player AS p1 ON p1.id = m.player1_id"
        f" JOIN players_player AS p2 ON p2.id = m.player2_id WHERE m.id = {placeholder}"
    )
