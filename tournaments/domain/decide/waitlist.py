"""Places and the waitlist (issue 40): registering within the capacity or on the
waitlist, approvals, withdrawals and no-shows that free a place, and the promotion of the
first waiting player into it."""

from __future__ import annotations

from dataclasses import replace

from tournaments.domain.commands import (
    ApproveEntry,
    MarkNoShows,
    RefuseEntry,
    SetCapacity,
    UndoNoShow,
    Withdraw,
)
from tournaments.domain.decide.common import not_finished, registered_entry
from tournaments.domain.decide.rounds import bracket_decided
from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.domain.events import (
    CapacityChanged,
    NoShowUndone,
    PlayerPromoted,
    PlayerRegistered,
    PlayerWaitlisted,
    PlayerWithdrawn,
    RegistrationRefused,
    TournamentEvent,
    TournamentFinished,
)
from tournaments.domain.evolve import fold
from tournaments.domain.state import (
    COMPLETED,
    HOLDING_A_PLACE,
    IN_PROGRESS,
    REGISTERED,
    REQUESTED,
    WAITLISTED,
    WITHDRAWN,
    TournamentState,
)


def _full(state: TournamentState, taken: int) -> bool:
    return state.capacity is not None and taken >= state.capacity


def promotions(
    state: TournamentState, *, taken: int, cause: str, skip: frozenset[int] = frozenset()
) -> list[TournamentEvent]:
    """The first waiting players into the places free with `taken` of them held: while
    entries are open (before the start; in a Swiss tournament, as late entries after it)."""
    if state.finished or (state.started and state.format != "swiss"):
        return []
    free = len(state.waitlist) if state.capacity is None else state.capacity - taken
    waiting = [p for p in state.waitlist if p not in skip]
    late = state.status == IN_PROGRESS
    return [PlayerPromoted(player=p, cause=cause, late=late) for p in waiting[: max(free, 0)]]


def register_or_wait(state: TournamentState, player: int, late: bool) -> list[TournamentEvent]:
    if _full(state, state.places_taken):
        return [PlayerWaitlisted(player=player)]
    return [PlayerRegistered(player=player, late=late)]


def withdraw(state: TournamentState, command: Withdraw) -> list[TournamentEvent]:
    entry = registered_entry(state, command.player)
    if entry.status == WITHDRAWN:
        return []
    events: list[TournamentEvent] = [PlayerWithdrawn(player=command.player)]
    if entry.status in HOLDING_A_PLACE:
        taken = state.places_taken - 1
        events += promotions(state, taken=taken, cause="withdrawal")
    between_rounds = state.current_round and state.rounds[state.current_round].status == COMPLETED
    if between_rounds and not state.finished and bracket_decided(fold(events, state)):
        # Their walkovers decided a double elimination's bracket: it is over now.
        events.append(TournamentFinished(rounds=state.current_round))
    return events


def approve(state: TournamentState, command: ApproveEntry) -> list[TournamentEvent]:
    not_finished(state)
    entry = registered_entry(state, command.player)
    if entry.status != REQUESTED:
        return []
    if state.started and state.format != "swiss":
        raise TournamentConflictError(
            "late entry is only possible in a Swiss tournament", code="late_entry_closed"
        )
    return register_or_wait(state, command.player, late=state.status == IN_PROGRESS)


def refuse(state: TournamentState, command: RefuseEntry) -> list[TournamentEvent]:
    entry = registered_entry(state, command.player)
    if entry.status not in (REQUESTED, WAITLISTED):
        raise TournamentConflictError(
            "only an entry waiting for approval or a place can be refused",
            code="not_refusable",
        )
    return [RegistrationRefused(player=command.player)]


def set_capacity(state: TournamentState, command: SetCapacity) -> list[TournamentEvent]:
    not_finished(state)
    if command.capacity is not None and command.capacity < 2:
        raise TournamentInputError("a capacity is at least 2 players", code="capacity")
    if command.capacity == state.capacity:
        return []
    events: list[TournamentEvent] = [
        CapacityChanged(capacity=command.capacity, previous=state.capacity)
    ]
    after = replace(state, capacity=command.capacity)
    return events + promotions(after, taken=state.places_taken, cause="capacity")


def mark_no_shows(state: TournamentState, command: MarkNoShows) -> list[TournamentEvent]:
    """Everyone who held a place at the deadline and has not checked in (a place taken
    later, by promotion, has its own chance): withdrawn as no-shows; the waitlist moves up.
    Only before round 1, and only where check-in is asked. Run twice: nothing more."""
    if not state.check_in_required or state.started or state.finished:
        return []
    gone = [
        e.player
        for e in state.entries.values()
        if e.status == REGISTERED
        and (e.promoted_at or e.registered_at) is not None
        and (e.promoted_at or e.registered_at) <= command.deadline  # type: ignore[operator]
    ]
    if not gone:
        return []
    events: list[TournamentEvent] = [PlayerWithdrawn(player=p, no_show=True) for p in gone]
    return events + promotions(state, taken=state.places_taken - len(gone), cause="no_show")


def undo_no_show(state: TournamentState, command: UndoNoShow) -> list[TournamentEvent]:
    entry = registered_entry(state, command.player)
    if entry.status != WITHDRAWN or not entry.no_show:
        if entry.status in HOLDING_A_PLACE:
            return []  # undone already
        raise TournamentConflictError("the player is not a no-show", code="not_a_no_show")
    if state.rounds:
        raise TournamentConflictError(
            "round 1 has been paired: a no-show can no longer be undone", code="already_paired"
        )
    undone: list[TournamentEvent] = [NoShowUndone(player=command.player)]
    if _full(state, state.places_taken):
        # The place went to the waitlist meanwhile: the player waits, ahead of those who
        # entered after them (the waitlist keeps the order of entry), never over capacity.
        undone.append(PlayerWaitlisted(player=command.player))
    return undone
