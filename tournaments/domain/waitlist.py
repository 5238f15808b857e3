"""Places, the waitlist and approvals (issue 40): how their events fold into the state.

`tournaments.domain.evolve` hands these events here; the decisions are in
`tournaments.domain.decide.waitlist`."""

from __future__ import annotations

from dataclasses import replace

from tournaments.domain.events import (
    CapacityChanged,
    NoShowUndone,
    PlayerPromoted,
    PlayerWaitlisted,
    RegistrationRefused,
    RegistrationRequested,
)
from tournaments.domain.state import (
    REFUSED,
    REGISTERED,
    REQUESTED,
    WAITLISTED,
    Entry,
    TournamentState,
)

WaitlistEvent = (
    PlayerWaitlisted
    | PlayerPromoted
    | RegistrationRequested
    | RegistrationRefused
    | CapacityChanged
    | NoShowUndone
)


def _with_entry(state: TournamentState, entry: Entry) -> TournamentState:
    return replace(state, entries={**state.entries, entry.player: entry})


def entry_added(state: TournamentState, player: int, status: str, at: object) -> Entry:
    """A new entry (or an existing one, asked for approval, with its place in the order)."""
    old = state.entries.get(player)
    if old is not None:
        return replace(old, status=status)
    return Entry(
        player=player,
        order=len(state.entries) + 1,
        status=status,
        registered_at=at,  # type: ignore[arg-type]
    )


def late_seed(state: TournamentState) -> int:
    """A late entry is seeded after everyone so far."""
    return max((e.seed or 0 for e in state.entries.values()), default=0) + 1


def approved(state: TournamentState, player: int, late: bool, at: object) -> TournamentState:
    """A requested entry registered (by approval): its place in the order kept."""
    entry = entry_added(state, player, REGISTERED, at)
    if late:
        entry = replace(entry, late=True, seed=late_seed(state))
    return _with_entry(state, entry)


def evolve_waitlist(state: TournamentState, event: WaitlistEvent) -> TournamentState:
    """The state after one of the waitlist's events (the version already counted)."""
    match event:
        case PlayerWaitlisted():
            return _with_entry(state, entry_added(state, event.player, WAITLISTED, event.at))
        case RegistrationRequested():
            return _with_entry(state, entry_added(state, event.player, REQUESTED, event.at))
        case RegistrationRefused():
            entry = state.entries.get(event.player)
            return state if entry is None else _with_entry(state, replace(entry, status=REFUSED))
        case PlayerPromoted():
            entry = state.entries.get(event.player)
            if entry is None:
                return state
            seed = late_seed(state) if event.late else entry.seed
            promoted = replace(
                entry, status=REGISTERED, promoted_at=event.at, late=event.late, seed=seed
            )
            return _with_entry(state, promoted)
        case CapacityChanged():
            return replace(state, capacity=event.capacity)
        case NoShowUndone():
            entry = state.entries.get(event.player)
            if entry is None:
                return state
            back = replace(entry, status=REGISTERED, no_show=False, withdrawn_at=None)
            withdrawals = tuple(p for p in state.withdrawals if p != event.player)
            return _with_entry(replace(state, withdrawals=withdrawals), back)
