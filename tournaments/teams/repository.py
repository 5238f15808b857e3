"""Team events in the one stream repository (eventstore.repository): what a team event
supplies to it, and the entry points the services call.

A service loads a `TeamEventWrite` (`team_event_load`: the row locked and the state, one
round trip; `team_event_new`), lets `tournaments.teams.domain.decide` decide, and
`team_event_save` stores what it decided, in the caller's transaction, through the stream
repository. What a team event supplies:
- its events as stored, "team-event-<id>": the event's fields, who decided by id in the
  metadata (`by`) and as the author; nothing else (old streams replay as they were);
- its fold: the state after the events, folded from the events as stored, and from it its
  read models (tournaments.teams.projections: written afresh, the rows of a team event are
  few);
- its snapshot policy: a sealed snapshot every SNAPSHOT_EVERY events, so a cold load costs
  a snapshot and at most that many events;
- its jobs (the next round's pairing) through the transactional outbox
  (tournaments.teams.jobs, core.outbox);
- its announcement after commit: `team_event_events_committed`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from core.errors import NotFoundError
from core.memo import Memo
from core.prepared import model_from_row, row_lock
from eventstore import (
    Aggregate,
    NewEvent,
    Projected,
    RecordedEvent,
    StandIn,
    StreamRepository,
    StreamWrite,
)
from tournaments.teams import jobs, projections
from tournaments.teams.domain import TeamEvent, TeamEventState, fold
from tournaments.teams.domain.events import TeamRoundCompleted
from tournaments.teams.domain.snapshot import STATE_SCHEMA, state_from_dict, state_to_dict
from tournaments.teams.domain.stored import event_to_stored
from tournaments.teams.models import TeamEvent as TeamEventRow
from tournaments.teams.signals import team_event_events_committed

SNAPSHOT_KIND = f"team-event-state-v{STATE_SCHEMA}"
SNAPSHOT_EVERY = 64


@dataclass
class TeamEventWrite(StreamWrite[TeamEventRow, TeamEventState]):
    """A team event being changed: its row (locked) and its state as of its stream's head;
    `typed`: the events of the last save as stored, typed."""

    typed: list[TeamEvent] = field(default_factory=list)

    def record(self, events: Sequence[TeamEvent], *, by: AbstractBaseUser | None) -> None:
        """Keep `events` (decided on `state`) to be saved, with who decided (by id)."""
        who = by.pk if by is not None else None
        for event in events:
            type_, data = event_to_stored(event)
            self.pending.append(
                NewEvent(
                    type=type_, data=data, metadata={"by": who}, author=f"user:{who}" if who else ""
                )
            )


# --- what a team event supplies to the stream repository ------------------------------------


class _TeamEvents(Aggregate[TeamEventRow, TeamEventState]):
    snapshot_kind = SNAPSHOT_KIND

    def __init__(self) -> None:
        self.remembered = _REMEMBERED

    def initial(self) -> TeamEventState:
        return TeamEventState()

    def from_snapshot(
        self, stream_id: str, version: int, data: dict[str, Any]
    ) -> TeamEventState | None:
        state = state_from_dict(data)
        return state if state.version == version else None  # one that says where it stands

    def to_snapshot(self, state: TeamEventState) -> dict[str, Any]:
        return state_to_dict(state)

    def replay(self, state: TeamEventState, events: Sequence[RecordedEvent]) -> TeamEventState:
        return fold(projections.typed_events(events), state)

    def project(
        self, write: StreamWrite[TeamEventRow, TeamEventState], events: Sequence[StandIn]
    ) -> Projected:
        return Projected(rows=lambda state: projections.project_in_tx(event=write.row, state=state))

    def settle(
        self, write: StreamWrite[TeamEventRow, TeamEventState], recorded: Sequence[RecordedEvent]
    ) -> TeamEventState:
        """Folded from the events as stored (their recorded times and authors)."""
        assert isinstance(write, TeamEventWrite)
        write.typed = projections.typed_events(recorded)
        return fold(write.typed, write.state)

    def snapshots(
        self, write: StreamWrite[TeamEventRow, TeamEventState], state: TeamEventState
    ) -> list[tuple[int, TeamEventState]]:
        """Every SNAPSHOT_EVERY events: the state after the save that crossed the mark."""
        if state.version // SNAPSHOT_EVERY > write.version // SNAPSHOT_EVERY:
            return [(state.version, state)]
        return []

    def jobs(
        self,
        write: StreamWrite[TeamEventRow, TeamEventState],
        state: TeamEventState,
        recorded: Sequence[RecordedEvent],
    ) -> None:
        """A completed round that did not finish the event: pair the next."""
        assert isinstance(write, TeamEventWrite)
        for event in write.typed:
            if isinstance(event, TeamRoundCompleted) and not state.finished:
                jobs.round_pair_on_commit(event_id=write.row.pk, round_number=event.round + 1)

    def announce(
        self,
        write: StreamWrite[TeamEventRow, TeamEventState],
        state: TeamEventState,
        recorded: Sequence[RecordedEvent],
    ) -> Callable[[], None]:
        pk = write.row.pk
        return lambda: team_event_events_committed.send(sender=TeamEventRow, event_id=pk)


# Per worker process, the latest state of the team events it wrote. Used only where the
# stream vouches for it (eventstore.repository). A state not used here for
# settings.MATCH_CACHE_IDLE_SECONDS goes. By stream: (version, its event's hash, the state).
REMEMBERED_STATES = 64
_REMEMBERED: Memo[str, tuple[int, str, TeamEventState]] = Memo(
    maxsize=lambda: REMEMBERED_STATES, idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS
)
_REPOSITORY: StreamRepository[TeamEventRow, TeamEventState] = StreamRepository(_TeamEvents())


# --- loading --------------------------------------------------------------------------------


def team_event_states_forget() -> None:
    """Forget every remembered state (tests; a worker that wants a cold start)."""
    _REPOSITORY.forget()


def team_event_state_of(*, event: TeamEventRow, remembered: bool = True) -> TeamEventState:
    """The team event's state, unlocked: the one this process remembers where the stream
    vouches for it, else its latest sound snapshot and the events since
    (`remembered=False`: always the latter)."""
    return _REPOSITORY.state(stream_id=event.stream_id, remembered=remembered)[0]


def team_event_load(*, event_id: Any) -> TeamEventWrite:
    """The team event's row, locked until the end of the caller's transaction, and its
    state: one round trip (eventstore.repository)."""
    try:
        pk = int(event_id)
    except (ValueError, TypeError) as exc:
        raise NotFoundError("no such team event") from exc
    stream_id = f"team-event-{pk}"
    rows, state, version, head_hash = _REPOSITORY.load(
        stream_id=stream_id, lock=row_lock(TeamEventRow, pk)
    )
    if not rows:
        raise NotFoundError("no such team event")
    row = model_from_row(TeamEventRow, rows[0])
    assert isinstance(row, TeamEventRow)
    return TeamEventWrite(
        row=row, stream_id=stream_id, state=state, version=version, head_hash=head_hash
    )


def team_event_new(
    *,
    name: str,
    format: str,  # noqa: A002
    club_id: int | None,
    created_by: AbstractBaseUser,
) -> TeamEventWrite:
    """A team event just made: its row (the projection of its TeamEventCreated fills it)
    and an empty stream."""
    row = TeamEventRow.objects.create(
        name=name, format=format, club_id=club_id, created_by=created_by
    )
    return TeamEventWrite(row=row, stream_id=row.stream_id, state=TeamEventState(), version=0)


# --- saving ---------------------------------------------------------------------------------


def team_event_save(
    write: TeamEventWrite, events: Sequence[TeamEvent], *, by: AbstractBaseUser | None = None
) -> TeamEventState:
    """Store `events` (decided on `write.state`) through the stream repository: append,
    project, snapshot, remember, queue what they call for, announce after commit. Returns
    the state after them."""
    if not events:
        return write.state
    write.record(events, by=by)
    return _REPOSITORY.save(write).state
