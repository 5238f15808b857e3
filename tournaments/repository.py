"""Tournaments in the one stream repository (eventstore.repository): what a tournament
supplies to it, and the entry points the services call.

A service loads a `TournamentWrite` (`tournament_load`: the row locked and the state, one
round trip; `tournament_new`), lets `tournaments.domain.decide` decide, and
`tournament_save` stores what it decided, in the caller's transaction, through the stream
repository. What a tournament supplies:
- its events as stored: `by` and `reason` in every event's data and metadata (the reason
  kept outside the hashed log, eventstore.personal);
- its fold: the state after the events, folded from the events as stored (their recorded
  times), and from it its projections (tournaments.projections: Tournament, Registration,
  Round, Pairing, Standing rows);
- its snapshot policy: a sealed snapshot every SNAPSHOT_EVERY events, so a cold load costs
  a snapshot and at most that many events however long the tournament (figures in
  bench/README.md);
- its jobs (the next round's pairing, a finished club tournament's ratings), through the
  transactional outbox (tournaments.jobs, core.outbox);
- its announcement after commit: `tournament_events_committed` (webhooks, live streams).
A live stream's followers read through `tournaments.followed`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from core.errors import NotFoundError
from core.memo import Memo
from core.prepared import model_from_row, row_lock
from core.text import free_text_check
from eventstore import (
    Aggregate,
    NewEvent,
    Projected,
    RecordedEvent,
    StandIn,
    StreamRepository,
    StreamWrite,
)
from tournaments import jobs, projections
from tournaments.domain import TournamentEvent, event_to_stored, fold
from tournaments.domain.events import RoundCompleted, TournamentFinished
from tournaments.domain.snapshot import STATE_SCHEMA, state_from_dict, state_to_dict
from tournaments.domain.state import TournamentState, round_start
from tournaments.models import Tournament
from tournaments.signals import tournament_events_committed

SNAPSHOT_KIND = f"tournament-state-v{STATE_SCHEMA}"
SNAPSHOT_EVERY = 64

SYSTEM_USERNAME = "tournament-scheduler"


def system_user() -> AbstractBaseUser:
    """The identity of automatic rulings (deadline forfeits): a user that cannot log in."""
    user, created = get_user_model().objects.get_or_create(
        username=SYSTEM_USERNAME, defaults={"is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def actor(user: AbstractBaseUser | None) -> dict[str, Any] | None:
    """Who decided: a user by id (names are resolved when read: issue 34; events of
    schema 3.0 and before also hold the username), or None for the scheduler and the
    deadline job."""
    if user is None:
        return None
    return {"id": user.pk}


@dataclass
class TournamentWrite(StreamWrite[Tournament, TournamentState]):
    """A tournament being changed: its row (locked) and its state as of its stream's head;
    `typed`: the events of the last save as stored, typed (what its projections read)."""

    typed: list[TournamentEvent] = field(default_factory=list)

    def record(
        self, events: Sequence[TournamentEvent], *, by: AbstractBaseUser | None, reason: str
    ) -> None:
        """Keep `events` (decided on `state`) to be saved, each with who and why."""
        free_text_check(reason)  # the log is public and for ever: one limit, whoever wrote it
        who = actor(by)
        for event in events:
            type_, data = event_to_stored(event)
            self.pending.append(
                NewEvent(
                    type=type_,
                    data={**data, "by": who, "reason": reason},
                    metadata={"by": who["id"] if who else None},
                    # The reason is a person's words: outside the hashed log.
                    personal=("reason",),
                    author=f"user:{who['id']}" if who else "",
                )
            )


@dataclass(frozen=True)
class TournamentSaved:
    row: Tournament
    state: TournamentState
    events: tuple[RecordedEvent, ...]


# --- what a tournament supplies to the stream repository ------------------------------------


class _Tournaments(Aggregate[Tournament, TournamentState]):
    snapshot_kind = SNAPSHOT_KIND

    def __init__(self) -> None:
        self.remembered = _REMEMBERED

    def initial(self) -> TournamentState:
        return TournamentState()

    def from_snapshot(
        self, stream_id: str, version: int, data: dict[str, Any]
    ) -> TournamentState | None:
        state = state_from_dict(data)
        return state if state.version == version else None  # one that says where it stands

    def to_snapshot(self, state: TournamentState) -> dict[str, Any]:
        return state_to_dict(state)

    def replay(self, state: TournamentState, events: Sequence[RecordedEvent]) -> TournamentState:
        return fold(projections.typed_events(events), state)

    def project(
        self, write: StreamWrite[Tournament, TournamentState], events: Sequence[StandIn]
    ) -> Projected:
        assert isinstance(write, TournamentWrite)
        return Projected(
            rows=lambda state: projections.project_in_tx(
                tournament=write.row, state=state, events=write.typed
            )
        )

    def settle(
        self, write: StreamWrite[Tournament, TournamentState], recorded: Sequence[RecordedEvent]
    ) -> TournamentState:
        """Folded from the events as stored (their recorded times)."""
        assert isinstance(write, TournamentWrite)
        write.typed = projections.typed_events(recorded)
        return fold(write.typed, write.state)

    def snapshots(
        self, write: StreamWrite[Tournament, TournamentState], state: TournamentState
    ) -> list[tuple[int, TournamentState]]:
        """Every SNAPSHOT_EVERY events: the state after the save that crossed the mark."""
        if state.version // SNAPSHOT_EVERY > write.version // SNAPSHOT_EVERY:
            return [(state.version, state)]
        return []

    def jobs(
        self,
        write: StreamWrite[Tournament, TournamentState],
        state: TournamentState,
        recorded: Sequence[RecordedEvent],
    ) -> None:
        assert isinstance(write, TournamentWrite)
        _queue_jobs(write.row, state, write.typed)
        if any(e.type in jobs.NOTICE_EVENT_TYPES for e in recorded):  # the players told (issue 40)
            jobs.notices_on_commit(
                tournament_id=write.row.pk, first=recorded[0].version, last=recorded[-1].version
            )

    def announce(
        self,
        write: StreamWrite[Tournament, TournamentState],
        state: TournamentState,
        recorded: Sequence[RecordedEvent],
    ) -> Callable[[], None]:
        pk = write.row.pk
        return lambda: tournament_events_committed.send(sender=Tournament, tournament_id=pk)


# Per worker process, the latest state of the tournaments it wrote (a state is the size of
# the tournament: ~100 kB for 256 players at round 9, whose snapshot costs ~80 ms to read
# and decode). Used only where the stream vouches for it (eventstore.repository). A state
# not used here for settings.MATCH_CACHE_IDLE_SECONDS (a tournament over, or written by
# other workers) goes. By stream: (version, its event's hash, the state).
REMEMBERED_STATES = 64
_REMEMBERED: Memo[str, tuple[int, str, TournamentState]] = Memo(
    maxsize=lambda: REMEMBERED_STATES, idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS
)
_REPOSITORY: StreamRepository[Tournament, TournamentState] = StreamRepository(_Tournaments())


# --- loading --------------------------------------------------------------------------------


def tournament_states_forget() -> None:
    """Forget every remembered state (tests; a worker that wants a cold start)."""
    _REPOSITORY.forget()


def state_of(*, tournament: Tournament, remembered: bool = True) -> TournamentState:
    """The tournament's state, unlocked: the one this process remembers where the stream
    vouches for it, else its latest sound snapshot and the events since
    (`remembered=False`: always the latter)."""
    return _REPOSITORY.state(stream_id=tournament.stream_id, remembered=remembered)[0]


def tournament_load(*, tournament_id: Any) -> TournamentWrite:
    """The tournament row, locked until the end of the caller's transaction, and its state:
    one round trip (eventstore.repository)."""
    try:
        pk = int(tournament_id)
    except (ValueError, TypeError) as exc:
        raise NotFoundError("no such tournament") from exc
    stream_id = f"tournament-{pk}"
    rows, state, version, head_hash = _REPOSITORY.load(
        stream_id=stream_id, lock=row_lock(Tournament, pk)
    )
    if not rows:
        raise NotFoundError("no such tournament")
    row = model_from_row(Tournament, rows[0])
    assert isinstance(row, Tournament)
    return TournamentWrite(
        row=row, stream_id=stream_id, state=state, version=version, head_hash=head_hash
    )


def tournament_new(*, name: str, format: str, created_by: AbstractBaseUser) -> TournamentWrite:  # noqa: A002
    """A tournament just made: its row (the projection of its TournamentCreated fills it)
    and an empty stream."""
    row = Tournament.objects.create(name=name, format=format, created_by=created_by)
    return TournamentWrite(row=row, stream_id=row.stream_id, state=TournamentState(), version=0)


# --- saving ---------------------------------------------------------------------------------


def tournament_save(
    write: TournamentWrite,
    events: Sequence[TournamentEvent],
    *,
    by: AbstractBaseUser | None = None,
    reason: str = "",
    at: datetime | None = None,
) -> TournamentSaved:
    """Store `events` (decided on `write.state`) through the stream repository: append,
    project, snapshot, remember, queue what they call for, announce after commit. `at`: the
    time they are recorded at (default now): the decision's own clock, where it computed
    times from it (a round's deadline from when it was paired)."""
    if not events:
        return TournamentSaved(row=write.row, state=write.state, events=())
    write.record(events, by=by, reason=reason)
    saved = _REPOSITORY.save(write, at=at)
    return TournamentSaved(row=saved.row, state=saved.state, events=saved.events)


def _queue_jobs(row: Tournament, state: TournamentState, events: Sequence[TournamentEvent]) -> None:
    """A completed round that did not finish the tournament: pair the next at its start.
    Events of a finished club tournament (its finish, a result corrected after it): bring
    the club's ratings up to them."""
    if any(isinstance(e, TournamentFinished) for e in events) or state.finished:
        if row.club_id is not None:
            jobs.club_ratings_sync_on_commit(tournament_id=row.pk)
        return
    for event in events:
        if isinstance(event, RoundCompleted) and state.current_round == event.round:
            start = round_start(state, event.round + 1)
            eta = start if start is not None and start > timezone.now() else None
            jobs.round_pair_on_commit(tournament_id=row.pk, round_number=event.round + 1, eta=eta)
