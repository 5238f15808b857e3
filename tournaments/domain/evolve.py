"""`evolve(state, event) -> state`: a tournament's events folded into its state (total
over event types, no checks: `decide` checked them)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from tournaments.domain.events import (
    CapacityChanged,
    ForbiddenPairAdded,
    ForbiddenPairRemoved,
    NoShowUndone,
    PairingEntry,
    PlayerCheckedIn,
    PlayerCheckInUndone,
    PlayerPromoted,
    PlayerRegistered,
    PlayerWaitlisted,
    PlayerWithdrawn,
    RegistrationRefused,
    RegistrationRequested,
    ResultCorrected,
    ResultRecorded,
    RoundClockStarted,
    RoundCompleted,
    RoundDeadlineMoved,
    RoundPaired,
    SettingsChanged,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from tournaments.domain.state import (
    CHECKED_IN,
    COMPLETED,
    FINISHED,
    IN_PROGRESS,
    MATCH_VERSION_WHEN_MADE,
    PAIRED,
    REGISTERED,
    REGISTRATION,
    WITHDRAWN,
    Entry,
    RoundState,
    Table,
    TournamentState,
    round_start,
)
from tournaments.domain.waitlist import approved, evolve_waitlist


def _seconds(value: float | None) -> dt.timedelta | None:
    return None if value is None else dt.timedelta(seconds=value)


def _instant(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


# The settings the state keeps, and how SettingsChanged's JSON values read back.
_SETTING_READERS: dict[str, Any] = {
    "tiebreaks": lambda v: tuple(v or ()),
    "check_in_required": bool,
    "rounds_planned": lambda v: v,
    "starts_at": _instant,
    "round_interval": _seconds,
    "round_duration": _seconds,
    "round_starts": lambda v: tuple(v or ()),
    "format": lambda v: v,
    "play_mode": lambda v: v,
}


def _table_of(state: TournamentState, p: PairingEntry) -> Table:
    version = p.match_version
    if version is None:  # not recorded (an old stream): the version its match was made at
        version = MATCH_VERSION_WHEN_MADE.get(state.play_mode, 0) if p.match is not None else 0
    return Table(
        table=p.table, player1=p.player1, player2=p.player2, match=p.match,
        match_version=version, slot=p.slot,
    )  # fmt: skip


def _with_table(state: TournamentState, number: int, table: Table) -> TournamentState:
    round_ = state.rounds[number]
    tables = tuple(table if t.table == table.table else t for t in round_.tables)
    return replace(state, rounds={**state.rounds, number: replace(round_, tables=tables)})


def _with_round(state: TournamentState, round_: RoundState) -> TournamentState:
    return replace(state, rounds={**state.rounds, round_.number: round_})


def _round_changed(state: TournamentState, number: int, **changes: Any) -> TournamentState:
    """Round `number` with `changes` (a round the state does not have: no change)."""
    round_ = state.rounds.get(number)
    return state if round_ is None else _with_round(state, replace(round_, **changes))


def _with_entry(state: TournamentState, entry: Entry) -> TournamentState:
    return replace(state, entries={**state.entries, entry.player: entry})


def evolve(state: TournamentState, event: TournamentEvent) -> TournamentState:
    """The state after `event`: total over event types, no checks."""
    state = replace(state, version=state.version + 1)
    match event:
        case TournamentCreated():
            return replace(
                state,
                created=True,
                format=event.format,
                tiebreaks=event.tiebreaks,
                check_in_required=event.check_in_required,
                play_mode=event.play_mode,
                rounds_planned=event.rounds if event.format == "swiss" else None,
                starts_at=_instant(event.starts_at),
                round_interval=_seconds(event.round_interval),
                round_starts=event.round_starts,
                round_duration=_seconds(event.round_duration),
                bye_points=event.bye_points,
                bye_buchholz=event.bye_buchholz,
                bracket_reset=event.bracket_reset,
                top_cut=event.top_cut,
                third_place=event.third_place,
                swiss_rounds=event.rounds if event.top_cut else None,
            )
        case ForbiddenPairAdded():
            return replace(state, forbidden=state.forbidden | {event.players})
        case ForbiddenPairRemoved():
            return replace(state, forbidden=state.forbidden - {event.players})
        case PlayerRegistered() if event.player in state.entries:  # approved
            return approved(state, event.player, event.late, event.at)
        case PlayerRegistered():
            seed = None
            if event.late:  # a late entry is seeded after everyone so far
                seed = max((e.seed or 0 for e in state.entries.values()), default=0) + 1
            entry = Entry(
                player=event.player, order=len(state.entries) + 1, seed=seed, late=event.late,
                registered_at=event.at,
            )  # fmt: skip
            return _with_entry(state, entry)
        case PlayerCheckedIn():
            entry = state.entries.get(event.player)
            if entry is None:
                return state
            return _with_entry(state, replace(entry, status=CHECKED_IN, checked_in_at=event.at))
        case PlayerCheckInUndone():
            entry = state.entries.get(event.player)
            if entry is None:
                return state
            return _with_entry(state, replace(entry, status=REGISTERED, checked_in_at=None))
        case PlayerWithdrawn():
            entry = state.entries.get(event.player)
            if entry is None:
                return state
            state = replace(state, withdrawals=(*state.withdrawals, event.player))
            withdrawn = replace(
                entry, status=WITHDRAWN, withdrawn_at=event.at, no_show=event.no_show
            )
            return _with_entry(state, withdrawn)
        case (
            PlayerWaitlisted()
            | PlayerPromoted()
            | RegistrationRequested()
            | RegistrationRefused()
            | CapacityChanged()
            | NoShowUndone()
        ):
            return evolve_waitlist(state, event)
        case TournamentStarted():
            entries = dict(state.entries)
            for seed, player in enumerate(event.seeds, start=1):
                if player in entries:
                    entries[player] = replace(entries[player], seed=seed)
            return replace(state, status=IN_PROGRESS, rounds_planned=event.rounds, entries=entries)
        case RoundPaired():
            old = state.rounds.get(event.round)
            round_ = RoundState(
                number=event.round,
                tables=tuple(_table_of(state, p) for p in event.pairings),
                scheduled_at=old.scheduled_at if old else round_start(state, event.round),
                paired_at=old.paired_at if old else event.at,
                deadline=_instant(event.deadline),
                paired_by=old.paired_by if old else event.by,
                repaired=event.repaired,
                clock_started_at=event.at,  # a re-pairing starts the clock again
            )
            status = state.status if state.status != REGISTRATION else IN_PROGRESS
            if event.round == 1 and old is None:
                state = replace(state, bracket_forbidden=state.forbidden)
            if event.top_cut:
                state = replace(state, cut_seeds=event.top_cut)
            return replace(
                _with_round(state, round_),
                status=status,
                current_round=max(state.current_round, event.round),
            )
        case ResultRecorded():
            r = event.result
            round_ = state.rounds.get(r.round)
            table = round_.table(r.table) if round_ else None
            if table is None:
                return state
            return _with_table(state, r.round, table.with_result(r))
        case ResultCorrected():
            round_ = state.rounds.get(event.round)
            table = round_.table(event.table) if round_ else None
            if round_ is None or table is None:
                return state
            state = _with_table(state, event.round, table.with_result(event.after))
            if event.after is None and round_.status == COMPLETED:
                state = _with_round(state, replace(state.rounds[event.round], status=PAIRED))
            return state
        case RoundDeadlineMoved():
            return _round_changed(state, event.round, deadline=_instant(event.deadline))
        case RoundClockStarted():
            return _round_changed(
                state,
                event.round,
                clock_started_at=_instant(event.started_at),
                clock_by_hand=True,
                deadline=_instant(event.deadline),
            )
        case RoundCompleted():
            return _round_changed(state, event.round, status=COMPLETED, completed_at=event.at)
        case SettingsChanged():
            values = {
                name: _SETTING_READERS[name](change["new"])
                for name, change in event.changes.items()
                if name in _SETTING_READERS
            }
            return replace(state, **values)
        case TournamentFinished():
            return replace(state, status=FINISHED, finished_at=event.at)
        case _:
            return state


def fold(
    events: Iterable[TournamentEvent], state: TournamentState | None = None
) -> TournamentState:
    current = state if state is not None else TournamentState()
    for event in events:
        current = evolve(current, event)
    return current
