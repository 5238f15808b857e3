"""Matches in the one stream repository (eventstore.repository): what a match supplies to
it, and the entry points the services call.

A service loads a `MatchWrite` (`match_lock`, `match_new`), lets the engine decide, records
the events it decided (`MatchWrite.record`, which evolves the state and notes a snapshot at
each deal), then `match_save` stores them through the stream repository: the append with the
expected version, the snapshots, the read models (the match row's UPDATE in the append's
round trip), the remembered state, and after commit the match's announcement
(`games.signals`: finished, reopened). What it returns (`MatchSaved`) says what happened,
the stored events included, so a caller reads "did the match finish?" from the events.

What a match adds to the repository's performance (figures in bench/README.md): the lock is
a prepared statement that reads the row with its players' names; the finished hands'
records of a snapshot, most of a late one, are left unread by the writer's load and read
once per worker and snapshot version (`_hand_results_at`), the latest snapshot's of each
stream, up to settings.HAND_RESULTS_CACHED_RECORDS records in all. The action API's
plain-body check, which spares it the input serializer, is beside this module:
games/fastpath.py. A live stream's followers read through `games.selectors.followed`.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils.translation import gettext_noop

import eventstore
from core.errors import NotFoundError, VersionConflictError
from core.memo import Memo
from core.prepared import PreparedStatement, model_columns, model_from_row
from eventstore import (
    Aggregate,
    NewEvent,
    Projected,
    RecordedEvent,
    StandIn,
    StreamRepository,
    StreamTail,
    StreamWrite,
)
from games import projections
from games.engine.events import Event, HandDealt, event_from_dict, event_to_dict, event_type
from games.engine.match import MatchState, evolve, initial_state, replay
from games.engine.state import STATE_SCHEMA, state_from_dict, state_to_dict
from games.models import Match, MatchDealPlan
from games.signals import dispute_resolved, match_finished, match_reopened
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
class MatchWrite(StreamWrite[Match, MatchState]):
    """A match being changed: its row, its state, the stream version they were loaded at
    (and, read under the match's lock, the hash of its event: the append then need not
    read it again), and the events decided since, not yet stored."""

    decided: list[Event] = field(default_factory=list)

    @property
    def match(self) -> Match:
        return self.row

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
        return _finished(self.events)

    @property
    def reopened(self) -> bool:
        """True if these events put a finished match back into play (a correction)."""
        return _reopened(self.events)


def _finished(events: Sequence[RecordedEvent]) -> bool:
    return any(e.type in FINISH_EVENT_TYPES for e in events)


def _result_changed(state: MatchState, events: Sequence[RecordedEvent]) -> bool:
    """These events ended the match, or corrected one that stays finished (its games or
    points, perhaps its winner, are now different)."""
    if _finished(events):
        return True
    corrections = ("HandCorrected", "HandVoided")
    return state.status == "finished" and any(e.type in corrections for e in events)


def _each(calls: Sequence[Callable[[], Any]]) -> None:
    for call in calls:
        call()


def _reopened(events: Sequence[RecordedEvent]) -> bool:
    return any(e.type == "MatchReopened" for e in events)


# --- what a match supplies to the stream repository ----------------------------------------


class _Matches(Aggregate[Match, MatchState]):
    snapshot_kind = SNAPSHOT_KIND
    # The finished-hand records, most of a late snapshot: read where looked at (views), or
    # from this process's cache of them (`_hand_results_at`).
    unread = ("hand_results",)

    def __init__(self) -> None:
        # Per worker process: matches are spread over the workers, and a state is ~20 kB.
        # A state not used here (written or read) for settings.MATCH_CACHE_IDLE_SECONDS
        # goes: a match finished by another worker (or abandoned) would otherwise sit here
        # until REMEMBERED_STATES newer ones pushed it out (bench/README.md, "Soak").
        self.remembered = _REMEMBERED

    def initial(self) -> MatchState:
        return initial_state()

    def from_snapshot(self, stream_id: str, version: int, data: dict[str, Any]) -> MatchState:
        if "hand_results" not in data:
            data = {**data, "hand_results": _hand_results_at(stream_id, version)}
        return state_from_dict(data)

    def to_snapshot(self, state: MatchState) -> dict[str, Any]:
        return state_to_dict(state)

    def replay(self, state: MatchState, events: Sequence[RecordedEvent]) -> MatchState:
        return replay((event_from_dict(e.type, e.data) for e in events), state)

    def keep(self, state: MatchState) -> bool:
        # Nobody plays a finished match: its state (its largest, every hand's records)
        # would only sit here until pushed out. A correction reads it the usual way.
        return state.status != "finished"

    def project(
        self, write: StreamWrite[Match, MatchState], events: Sequence[StandIn]
    ) -> Projected:
        # With the row locked, the match row's UPDATE rides in the append's round trip.
        projection = projections.match_project(
            match=write.row, state=write.state, events=events, row_known=write.head_hash is not None
        )
        return Projected(
            statements=projection.statements, rows=lambda state: projection.save_rows()
        )

    def announce(
        self,
        write: StreamWrite[Match, MatchState],
        state: MatchState,
        recorded: Sequence[RecordedEvent],
    ) -> Callable[[], None] | None:
        """match_reopened for a correction that put it back in play; match_finished for
        events that ended it, or changed the result of a finished match (once more);
        dispute_resolved for each dispute case resolved."""
        match_id = write.row.id
        sends: list[Callable[[], Any]] = [
            functools.partial(
                dispute_resolved.send, sender=Match, match_id=match_id, version=e.version
            )
            for e in recorded
            if e.type == "DisputeResolved"
        ]
        if _reopened(recorded):
            sends.append(functools.partial(match_reopened.send, sender=Match, match_id=match_id))
        elif _result_changed(state, recorded):
            sends.append(functools.partial(match_finished.send, sender=Match, match_id=match_id))
        return functools.partial(_each, sends) if sends else None

    def conflict(self, exc: eventstore.ConcurrencyError) -> Exception:
        return VersionConflictError(
            gettext_noop("the match is at version %(current)s, not %(expected)s"),
            params={"current": exc.current_version, "expected": exc.expected_version},
            extra={
                "stream_id": exc.stream_id,
                "current_version": exc.current_version,
                "expected_version": exc.expected_version,
            },
        )


REMEMBERED_STATES = 256
# By stream: (version, its event's hash, the state).
_REMEMBERED: Memo[str, tuple[int, str, MatchState]] = Memo(
    maxsize=lambda: REMEMBERED_STATES, idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS
)
_REPOSITORY: StreamRepository[Match, MatchState] = StreamRepository(_Matches())


# --- loading --------------------------------------------------------------------------------


def match_new(*, match: Match) -> MatchWrite:
    """A match just created (its row saved, its stream empty)."""
    return MatchWrite(row=match, stream_id=match.stream_id, state=initial_state(), version=0)


def match_lock(*, match_id: uuid.UUID | str) -> MatchWrite:
    """The match row, locked (one writer per match at a time; the append's expected
    version is the second guard), with its players' names, and its latest state: one round
    trip of prepared statements on PostgreSQL (eventstore.repository). Written as SQL: on
    every action the ORM's building of the lock query cost as much again as running it."""
    key = _match_key(match_id)
    pk = Match._meta.pk.get_db_prep_value(key, connection)
    stream_id = f"match-{key}"
    rows, state, version, head_hash = _REPOSITORY.load(
        stream_id=stream_id, lock=_lock_statement_for(pk)
    )
    if not rows:
        raise NotFoundError("no such match", code="match_not_found")
    match = match_from_row(rows[0])
    if match.stream_id != stream_id:  # not a stream id match_create would have given
        state, version = match_state_at(match=match)
        return MatchWrite(row=match, stream_id=match.stream_id, state=state, version=version)
    return MatchWrite(
        row=match, stream_id=stream_id, state=state, version=version, head_hash=head_hash
    )


def _match_key(match_id: uuid.UUID | str) -> uuid.UUID:
    try:
        return uuid.UUID(str(match_id))
    except (ValueError, TypeError, AttributeError):
        # An unparsable id is simply not a match (as in selectors.match_get).
        raise NotFoundError("no such match", code="match_not_found") from None


def match_load_unlocked(*, match: Match) -> MatchWrite:
    """The match at its latest version without the row lock, for a caller that holds the
    match otherwise (bulk loading for benchmarks and tests); the append's expected
    version still refuses a concurrent writer."""
    state, version = match_state_at(match=match)
    return MatchWrite(row=match, stream_id=match.stream_id, state=state, version=version)


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
        state = _REPOSITORY.aggregate.from_snapshot(match.stream_id, at, data)
    recorded = eventstore.load(stream_id=match.stream_id, after_version=at, up_to_version=version)
    if recorded:
        state = replay((event_from_dict(e.type, e.data) for e in recorded), state)
        at = recorded[-1].version
    return state, at


def match_state_from_tail(*, stream_id: str, tail: StreamTail) -> tuple[MatchState, int]:
    """The engine state at the head of a match's stream read by `eventstore.read_tail`
    (kind SNAPSHOT_KIND, without `unread_keys(...)`), and its version: from the state this
    process remembers of the stream when the tail's events vouch for it, else from the
    tail's snapshot."""
    return _REPOSITORY.state_from_tail(stream_id=stream_id, tail=tail)


def unread_keys(hand_results: bool) -> tuple[str, ...]:
    """The snapshot keys left unread: the finished-hand records, most of a late snapshot,
    are read only where looked at (views) or from this process's cache of them."""
    return () if hand_results else _Matches.unread


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


# --- saving and remembering -----------------------------------------------------------------


def match_save(write: MatchWrite) -> MatchSaved:
    """Store the events decided since the load, in the caller's transaction, through the
    stream repository: appended with the version they were decided at (a concurrent writer
    gets VersionConflictError), a snapshot at each deal, the match's read models, and after
    commit `match_finished` / `match_reopened` where the events call for them."""
    saved = _REPOSITORY.save(write)
    write.decided = []
    return MatchSaved(
        match=saved.row, state=saved.state, version=saved.version, events=saved.events
    )


def match_state_remember(
    *, stream_id: str, version: int, head_hash: str, state: MatchState
) -> None:
    """Keep `state`, the stream's state at `version` whose event has `head_hash`, for the
    next writer of the stream in this process (eventstore.repository: used only where the
    stream vouches for it; a finished match's is not kept)."""
    _REPOSITORY.remember(stream_id=stream_id, version=version, head_hash=head_hash, state=state)


def match_states_forget() -> None:
    """Forget every remembered state (tests; nothing else needs to)."""
    _REPOSITORY.forget()


# --- the lock query -------------------------------------------------------------------------


def match_from_row(row: tuple) -> Match:
    """A Match from a row of `match_row_query`, as the ORM would build it (the same
    conversions of database values), with its players (id and name; other fields load on
    access)."""
    match = model_from_row(Match, row)  # the columns in field order, then the two names
    using = connection.alias
    p1, p2 = row[-2:]
    match.player1 = Player.from_db(using, ["id", "name"], [match.player1_id, p1])
    match.player2 = Player.from_db(using, ["id", "name"], [match.player2_id, p2])
    return match


def _lock_statement_for(pk: Any) -> tuple[str, list[Any]]:
    if connection.vendor == "postgresql":
        return _lock_statement().statement([pk])
    return match_row_query("%s"), [pk]


@functools.cache
def _lock_statement() -> PreparedStatement:
    return PreparedStatement("match_lock", match_row_query("$1") + " FOR UPDATE OF m", 1)


@functools.cache
def match_row_query(placeholder: str) -> str:
    """The match row and its players' names (the tables named by their models); columns
    named (see core.prepared)."""
    quote = connection.ops.quote_name
    players = quote(Player._meta.db_table)
    return (
        f"SELECT {model_columns(Match, 'm')}, p1.name AS p1_name, p2.name AS p2_name"
        f" FROM {quote(Match._meta.db_table)} AS m"
        f" JOIN {players} AS p1 ON p1.id = m.player1_id"
        f" JOIN {players} AS p2 ON p2.id = m.player2_id WHERE m.id = {placeholder}"
    )
