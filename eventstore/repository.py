"""The one stream repository (STYLE 18): how every event-sourced aggregate is loaded for
update and saved, whatever it is (a match, a tournament).

`StreamRepository(aggregate).load(...)` takes the aggregate's row lock and reads its latest
state in one round trip; `save(write)` appends what was decided since, with the expected
version, and does, in the caller's transaction, everything that goes with it. The steps are
here once; what differs between aggregates is what each supplies (an `Aggregate`): how its
state folds from stored events and from a snapshot, its snapshot policy, its projections,
the jobs its events call for and what it announces after commit.

Loading, one round trip on PostgreSQL (prepared statements where the store has them):
- where this process remembers the stream's state from its last write here, the row lock
  and the stream's events from that state's version on (`eventstore.load_from`): the state
  is used only where the event at its version still has the hash it had (the hash covers
  every event before it: the chain), and brought up to the head by the events after it;
- else the row lock, the latest sound snapshot and the events after it (`read_tail`).
A remembered state the stream does not vouch for (a transaction that rolled back, a stream
rewritten since) costs a second round trip, the snapshot's.

Saving: append with the expected version (a stale one: the aggregate's conflict error); the
projections' statements run in the append's round trip, their rows after it; the states the
snapshot policy names are saved as (sealed) snapshots; the new state is remembered (or
forgotten, where the aggregate says it will not be written again); the jobs the events call
for go to the transactional outbox (core.outbox, through the aggregate's jobs module), and
the aggregate's announcement is sent after commit.

The figures of what the remembered state and the one round trip bought: bench/README.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from django.db import transaction
from django.utils import timezone

from core.memo import Memo
from eventstore import read
from eventstore.records import ConcurrencyError, NewEvent, RecordedEvent
from eventstore.snapshots import snapshot_save
from eventstore.tail import StreamTail, load_from, read_tail
from eventstore.write import Statement, append

R = TypeVar("R")  # the aggregate's row (the lock's)
S = TypeVar("S")  # the aggregate's state


@dataclass
class StreamWrite(Generic[R, S]):
    """An aggregate being changed: its row (locked), its state at `version` (whose event has
    `head_hash`, when it was read under the lock), and what was decided since, unsaved:
    the events (`pending`) and the states to snapshot (`snapshots`, (version, state))."""

    row: R
    stream_id: str
    state: S
    version: int
    head_hash: str | None = None
    pending: list[NewEvent] = field(default_factory=list)
    snapshots: list[tuple[int, S]] = field(default_factory=list)

    @property
    def current_version(self) -> int:
        return self.version + len(self.pending)


@dataclass(frozen=True)
class StandIn:
    """An event as it will be recorded (version, type, data, time), for the projections
    prepared before the append (their statements run in its round trip)."""

    version: int
    type: str
    data: dict[str, Any]
    recorded_at: datetime


def _nothing(state: Any) -> None:
    return None


@dataclass(frozen=True)
class Projected:
    """An aggregate's projections of a save: `statements` run in the append's round trip;
    `rows(state)` writes the rest after it, given the state after the events as stored."""

    statements: Sequence[Statement] = ()
    rows: Callable[[Any], None] = _nothing


class Aggregate(Generic[R, S]):
    """What an aggregate supplies to the repository: its specifics, nothing else.

    `snapshot_kind`: the kind its snapshots are stored under; `unread`: the snapshot keys a
    writer's load leaves unread (from_snapshot fills them in); `remembered`: the cache of its
    states remembered after a write, (version, hash of that event, state) by stream."""

    snapshot_kind: str
    unread: tuple[str, ...] = ()
    remembered: Memo[str, tuple[int, str, Any]]

    def initial(self) -> S:
        raise NotImplementedError

    def from_snapshot(self, stream_id: str, version: int, data: dict[str, Any]) -> S | None:
        """The state a snapshot holds, or None where it cannot be used (then every event
        is folded)."""
        raise NotImplementedError

    def to_snapshot(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    def replay(self, state: S, events: Sequence[RecordedEvent]) -> S:
        """`state` evolved by stored events (evolve: total, no checks)."""
        raise NotImplementedError

    def keep(self, state: S) -> bool:
        """Remember this state for the next write here? (Not one nobody will write again.)"""
        return True

    def project(self, write: StreamWrite[R, S], events: Sequence[StandIn]) -> Projected:
        """The read models the events change, in the same transaction."""
        return Projected()

    def settle(self, write: StreamWrite[R, S], recorded: Sequence[RecordedEvent]) -> S:
        """The state after the events as stored (default: the state the write evolved to
        while recording them)."""
        return write.state

    def snapshots(self, write: StreamWrite[R, S], state: S) -> list[tuple[int, S]]:
        """The snapshot policy: which states of this save to snapshot, (version, state)."""
        return list(write.snapshots)

    def jobs(self, write: StreamWrite[R, S], state: S, recorded: Sequence[RecordedEvent]) -> None:
        """Queue the jobs the events call for, through the outbox (core.outbox)."""

    def announce(
        self, write: StreamWrite[R, S], state: S, recorded: Sequence[RecordedEvent]
    ) -> Callable[[], None] | None:
        """What to tell other apps once the events commit (a signal), if anything."""
        return None

    def conflict(self, exc: ConcurrencyError) -> Exception:
        """The error a stale expected version raises (default: the store's own)."""
        return exc


@dataclass(frozen=True)
class StreamSaved(Generic[R, S]):
    """What a save stored: the row, the state and version after it, and the events."""

    row: R
    state: S
    version: int
    events: tuple[RecordedEvent, ...]


class StreamRepository(Generic[R, S]):
    """Load for update and save, for the aggregate given."""

    def __init__(self, aggregate: Aggregate[R, S]) -> None:
        self.aggregate = aggregate

    # --- loading ----------------------------------------------------------------------------

    def load(
        self, *, stream_id: str, lock: tuple[str, list[Any]]
    ) -> tuple[list[tuple], S, int, str]:
        """Run `lock` (the statement that locks the aggregate's row and reads it) and read
        the stream's state, in one round trip: (the lock's rows, state, version, hash of the
        head). The caller makes its row from the rows (none: no such aggregate)."""
        aggregate = self.aggregate
        remembered = aggregate.remembered.get(stream_id)
        if remembered is not None:
            rows, events = load_from(stream_id=stream_id, version=remembered[0], first=lock)
            if not rows:
                return rows, aggregate.initial(), 0, ""
            found = self._from_remembered(remembered, events)
            if found is not None:
                return (rows, *found)
            # Not vouched for (rolled back, rewritten): the snapshot's way, under the lock.
            tail = read_tail(
                stream_id=stream_id, kind=aggregate.snapshot_kind, without=aggregate.unread
            )[1]
        else:
            first_rows, tail = read_tail(
                stream_id=stream_id,
                kind=aggregate.snapshot_kind,
                without=aggregate.unread,
                first=lock,
            )
            rows = first_rows or []
            if not rows:
                return rows, aggregate.initial(), 0, ""
        state, version = self.state_from_tail(stream_id=stream_id, tail=tail)
        return rows, state, version, tail.head[1]

    def state(self, *, stream_id: str, remembered: bool = True) -> tuple[S, int]:
        """The stream's latest state and version, unlocked (a reader's): from the state
        remembered here where the stream vouches for it (`remembered`), else from its
        latest sound snapshot and the events since."""
        kept = self.aggregate.remembered.get(stream_id) if remembered else None
        if kept is not None:
            found = self._from_remembered(
                kept, read.load(stream_id=stream_id, after_version=kept[0] - 1)
            )
            if found is not None:
                return found[0], found[1]
        tail = read_tail(
            stream_id=stream_id, kind=self.aggregate.snapshot_kind, without=self.aggregate.unread
        )[1]
        return self.state_from_tail(stream_id=stream_id, tail=tail, remembered=remembered)

    def state_from_tail(
        self, *, stream_id: str, tail: StreamTail, remembered: bool = True
    ) -> tuple[S, int]:
        """The state at the head of a stream's tail (`read_tail` of the aggregate's kind,
        without its unread keys) and its version: from the state remembered here where the
        tail's events vouch for it, else from the tail's snapshot, else from every event."""
        aggregate = self.aggregate
        at = tail.snapshot[0] if tail.snapshot is not None else 0
        kept = self._vouched(stream_id, tail, at) if remembered else None
        if kept is not None:
            version, state = kept
            later = tail.events[version - at :]  # the tail's events are at + 1, ..., head
        elif tail.snapshot is None:
            state, later = aggregate.initial(), tail.events
        else:
            start = aggregate.from_snapshot(stream_id, at, tail.snapshot[1])
            if start is None:  # a snapshot that cannot be used: every event
                state, later = aggregate.initial(), read.load(stream_id=stream_id)
            else:
                state, later = start, tail.events
        if later:
            state = aggregate.replay(state, later)
        return state, tail.head[0]

    def _from_remembered(
        self, remembered: tuple[int, str, S], events: Sequence[RecordedEvent]
    ) -> tuple[S, int, str] | None:
        """The remembered state brought up to the head by `events` (read from its version
        on), if the event at its version is the one it was folded up to; else None."""
        version, digest, state = remembered
        if not events or events[0].version != version or events[0].hash != digest:
            return None
        later = events[1:]
        if later:
            state = self.aggregate.replay(state, later)
        return state, events[-1].version, events[-1].hash

    def _vouched(self, stream_id: str, tail: StreamTail, at: int) -> tuple[int, S] | None:
        """The remembered (version, state) if the tail vouches for it: its version is the
        head's with the head's hash, or that of one of the tail's events (after the
        snapshot at `at`) with that event's hash."""
        remembered = self.aggregate.remembered.get(stream_id)
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

    # --- remembering ------------------------------------------------------------------------

    def remember(self, *, stream_id: str, version: int, head_hash: str, state: S) -> None:
        """Keep `state`, the stream's state at `version` whose event has `head_hash`, for the
        next writer of the stream in this process. Safe even if the transaction that wrote
        it rolls back: a remembered state is used only where the stream vouches for it."""
        if self.aggregate.keep(state):
            self.aggregate.remembered.put(stream_id, (version, head_hash, state))
        else:
            self.aggregate.remembered.pop(stream_id)

    def forget(self) -> None:
        """Forget every remembered state (tests; a worker that wants a cold start)."""
        self.aggregate.remembered.clear()

    # --- saving -----------------------------------------------------------------------------

    def save(self, write: StreamWrite[R, S], *, at: datetime | None = None) -> StreamSaved[R, S]:
        """Store what `write` decided since its load, in the caller's transaction (see the
        module's doc). `at`: the time the events are recorded at (default now)."""
        aggregate = self.aggregate
        if not write.pending:
            return StreamSaved(write.row, write.state, write.version, ())
        recorded_at = at or timezone.now()
        stand_ins = [
            StandIn(write.version + n, e.type, e.data, recorded_at)
            for n, e in enumerate(write.pending, start=1)
        ]
        projected = aggregate.project(write, stand_ins)
        try:
            recorded = append(
                stream_id=write.stream_id,
                expected_version=write.version,
                events=write.pending,
                head_hash=write.head_hash,
                recorded_at=recorded_at,
                also=projected.statements,
            )
        except ConcurrencyError as exc:
            error = aggregate.conflict(exc)
            if error is exc:
                raise
            raise error from exc
        state = aggregate.settle(write, recorded)
        for version, snapshot in aggregate.snapshots(write, state):
            snapshot_save(
                stream_id=write.stream_id,
                version=version,
                state=aggregate.to_snapshot(snapshot),
                kind=aggregate.snapshot_kind,
            )
        projected.rows(state)
        version, head_hash = recorded[-1].version, recorded[-1].hash
        self.remember(stream_id=write.stream_id, version=version, head_hash=head_hash, state=state)
        aggregate.jobs(write, state, recorded)
        announcement = aggregate.announce(write, state, recorded)
        if announcement is not None:
            transaction.on_commit(announcement)
        write.state, write.version, write.head_hash = state, version, head_hash
        write.pending, write.snapshots = [], []
        return StreamSaved(write.row, state, version, tuple(recorded))
