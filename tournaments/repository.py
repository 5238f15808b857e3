"""The only code that loads a tournament for update and saves it.

A service loads a `TournamentWrite` (`tournament_load`, `tournament_new`), lets
`tournaments.domain.decide` decide, and `tournament_save` stores what it decided, in the
caller's transaction:
- one append to "tournament-<id>" with the expected version (the row lock is the first
  guard, the version the second), `by` and `reason` in every event's data and metadata;
- the state after the events, folded from the events as stored (their recorded times), and
  from it the projections (tournaments.projections: Tournament, Registration, Round,
  Pairing, Standing rows);
- a sealed snapshot every SNAPSHOT_EVERY events, so loading costs a snapshot and at most
  that many events however long the tournament (figures in bench/README.md); a snapshot
  that fails its check (eventstore.snapshots) is ignored and the events are read instead;
- the jobs the events call for (the next round's pairing, a finished club tournament's
  ratings), through the transactional outbox (core.outbox): recorded with the events,
  relayed after commit;
- after commit, `tournament_events_committed` announces the new events (webhooks).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

import eventstore
from core.errors import NotFoundError
from core.memo import Memo
from core.text import free_text_check
from eventstore import NewEvent, RecordedEvent
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
class TournamentWrite:
    """A tournament being changed: its row (locked) and its state as of its stream's head."""

    row: Tournament
    state: TournamentState


@dataclass(frozen=True)
class TournamentSaved:
    row: Tournament
    state: TournamentState
    events: tuple[RecordedEvent, ...]


# --- loading --------------------------------------------------------------------------------


def _lock(tournament_id: Any) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such tournament") from exc


# Per worker process, the latest state of the tournaments it wrote (a state is the size of
# the tournament: ~100 kB for 256 players at round 9, whose snapshot costs ~80 ms to read
# and decode). Used only where the stream vouches for it: the event at its version still
# has the hash it had (bench/README.md, "Tournaments"). A state not used here for
# settings.MATCH_CACHE_IDLE_SECONDS (a tournament over, or written by other workers) goes.
# By stream: (version, its event's hash, the state).
REMEMBERED_STATES = 64
_REMEMBERED: Memo[str, tuple[int, str, TournamentState]] = Memo(
    maxsize=lambda: REMEMBERED_STATES, idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS
)


def _remember(stream_id: str, state: TournamentState, head_hash: str) -> None:
    _REMEMBERED.put(stream_id, (state.version, head_hash, state))


def tournament_states_forget() -> None:
    """Forget every remembered state (tests; a worker that wants a cold start)."""
    _REMEMBERED.clear()


def _remembered_state(stream_id: str) -> TournamentState | None:
    """The remembered state and the events since, if the event at its version is the one
    it was folded up to (same hash); else None (a rewritten or cut stream reads afresh)."""
    remembered = _REMEMBERED.get(stream_id)
    if remembered is None:
        return None
    version, digest, state = remembered
    events = eventstore.load(stream_id=stream_id, after_version=version - 1)
    if not events or events[0].version != version or events[0].hash != digest:
        return None
    return fold(projections.typed_events(events[1:]), state)


def state_of(*, tournament: Tournament, remembered: bool = True) -> TournamentState:
    """The tournament's state: the one this process remembers where the stream vouches for
    it, else its latest sound snapshot and the events since (`remembered=False`: always the
    latter)."""
    stream_id = tournament.stream_id
    if remembered and tournament.version:
        state = _remembered_state(stream_id)
        if state is not None:
            return state
    start = TournamentState()
    found = eventstore.snapshot_load(stream_id=stream_id, kind=SNAPSHOT_KIND)
    if found is not None:
        start = state_from_dict(found[1])
        if start.version != found[0]:
            start = TournamentState()  # a snapshot that does not say where it stands
    after = start.version
    return fold(
        projections.typed_events(eventstore.load(stream_id=stream_id, after_version=after)), start
    )


def tournament_load(*, tournament_id: Any) -> TournamentWrite:
    """The tournament row, locked until the end of the caller's transaction, and its state."""
    row = _lock(tournament_id)
    return TournamentWrite(row=row, state=state_of(tournament=row))


def tournament_new(*, name: str, format: str, created_by: AbstractBaseUser) -> TournamentWrite:  # noqa: A002
    """A tournament just made: its row (the projection of its TournamentCreated fills it)
    and an empty stream."""
    row = Tournament.objects.create(name=name, format=format, created_by=created_by)
    return TournamentWrite(row=row, state=TournamentState())


# --- saving ---------------------------------------------------------------------------------


def tournament_save(
    write: TournamentWrite,
    events: Sequence[TournamentEvent],
    *,
    by: AbstractBaseUser | None = None,
    reason: str = "",
    at: datetime | None = None,
) -> TournamentSaved:
    """Store `events` (decided on `write.state`), project them and queue what they call for.
    `at`: the time they are recorded at (default now): the decision's own clock, where it
    computed times from it (a round's deadline from when it was paired)."""
    if not events:
        return TournamentSaved(row=write.row, state=write.state, events=())
    free_text_check(reason)  # the log is public and for ever: one limit, whoever wrote it
    who = actor(by)
    new = []
    for event in events:
        type_, data = event_to_stored(event)
        new.append(
            NewEvent(
                type=type_,
                data={**data, "by": who, "reason": reason},
                metadata={"by": who["id"] if who else None},
                # The reason is a person's words: outside the hashed log (eventstore.personal).
                personal=("reason",),
                author=f"user:{who['id']}" if who else "",
            )
        )
    recorded = eventstore.append(
        stream_id=write.row.stream_id,
        expected_version=write.state.version,
        events=new,
        recorded_at=at,
    )
    typed = projections.typed_events(recorded)
    state = fold(typed, write.state)
    projections.project_in_tx(tournament=write.row, state=state, events=typed)
    if state.version // SNAPSHOT_EVERY > write.state.version // SNAPSHOT_EVERY:
        eventstore.snapshot_save(
            stream_id=write.row.stream_id,
            version=state.version,
            state=state_to_dict(state),
            kind=SNAPSHOT_KIND,
        )
    _remember(write.row.stream_id, state, recorded[-1].hash)
    _queue_jobs(write.row, state, typed)
    if any(e.type in jobs.NOTICE_EVENT_TYPES for e in recorded):  # the players told (issue 40)
        jobs.notices_on_commit(
            tournament_id=write.row.pk, first=recorded[0].version, last=recorded[-1].version
        )
    pk = write.row.pk
    transaction.on_commit(
        lambda: tournament_events_committed.send(sender=Tournament, tournament_id=pk)
    )
    write.state = state
    return TournamentSaved(row=write.row, state=state, events=tuple(recorded))


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


# --- what a live stream's followers read after a commit ------------------------------------


@dataclass(frozen=True)
class TournamentFollowed:
    """A tournament as its live stream's followers need it after a commit: the row (with
    its club) and the whole stream, read after the row."""

    tournament: Tournament
    events: tuple[RecordedEvent, ...]


def tournament_followed(*, tournament_id: Any) -> TournamentFollowed:
    """The tournament's row and its stream up to the latest commit, for the stream's
    followers (one read per commit shared by all of them in the process: tournaments.streams).

    The process keeps a copy of each followed stream and reads only the events from the
    copy's head on, whose hash must still match (a stream rewritten since is read again in
    full). NotFoundError if there is no such tournament."""
    try:
        row = Tournament.objects.select_related("club").get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such tournament") from exc
    stream_id = row.stream_id
    with _FOLLOWED_LOCK:
        known = _FOLLOWED.get(stream_id, ())
    if known:
        head = known[-1]
        events = eventstore.load(stream_id=stream_id, after_version=head.version - 1)
        if events and events[0].version == head.version and events[0].hash == head.hash:
            every = (*known, *events[1:])
        else:
            every = tuple(eventstore.load(stream_id=stream_id))  # rewritten: read anew
    else:
        every = tuple(eventstore.load(stream_id=stream_id))
    with _FOLLOWED_LOCK:
        _FOLLOWED[stream_id] = every
        _FOLLOWED.move_to_end(stream_id)
        while len(_FOLLOWED) > FOLLOWED_STREAMS:
            _FOLLOWED.popitem(last=False)
    return TournamentFollowed(tournament=row, events=every)


def tournament_followed_forget() -> None:
    """Forget every followed stream's copy (tests)."""
    with _FOLLOWED_LOCK:
        _FOLLOWED.clear()


# Per stream-serving process: the tournaments followed there (a club runs one or two at a
# time; a long one's stream is some hundreds of events).
FOLLOWED_STREAMS = 64
_FOLLOWED: OrderedDict[str, tuple[RecordedEvent, ...]] = OrderedDict()
_FOLLOWED_LOCK = threading.Lock()
