"""`decide(state, command) -> events`: every rule of a tournament's life in one place.

It raises a named error (tournaments.domain.errors) for a command the tournament refuses,
and returns no events for one that would change nothing (a repeated job: pairing a round
already paired, recording a result already recorded). It never reads a database or a
clock: what it needs from outside comes in the command.

One module per part of the tournament's life (entries, rounds, results, settings);
`common` holds the guards they share."""

from __future__ import annotations

from tournaments.domain.commands import (
    AllowPair,
    ApproveEntry,
    ChangeSettings,
    CheckIn,
    ForbidPair,
    MarkNoShows,
    MoveDeadline,
    PairRound,
    RecordResult,
    RefuseEntry,
    Register,
    RepairRound,
    RuleResult,
    SetCapacity,
    StartRoundClock,
    TournamentCommand,
    UndoCheckIn,
    UndoNoShow,
    Withdraw,
    WithdrawResult,
)
from tournaments.domain.decide.clock import move_deadline, start_clock
from tournaments.domain.decide.common import expect_version
from tournaments.domain.decide.entries import check_in, forbid, pair_key, register, undo_check_in
from tournaments.domain.decide.results import record, rule, withdraw_result
from tournaments.domain.decide.rounds import pair_round, repair_round
from tournaments.domain.decide.settings import (
    SETTINGS_FIXED_AFTER_START,
    SETTINGS_MUTABLE,
    decide_settings_change,
)
from tournaments.domain.decide.waitlist import (
    approve,
    mark_no_shows,
    refuse,
    set_capacity,
    undo_no_show,
    withdraw,
)
from tournaments.domain.errors import TournamentConflictError
from tournaments.domain.events import (
    ForbiddenPairRemoved,
    SettingsChanged,
    TournamentEvent,
)
from tournaments.domain.state import TEAM_FORMATS, TournamentState


def decide(state: TournamentState, command: TournamentCommand) -> list[TournamentEvent]:
    if state.format in TEAM_FORMATS:
        # Its entries, rounds and results are its team event's (/api/tournaments/{id}/teams/);
        # its own stream stays at its creation (its webhooks and live stream follow the team
        # event's).
        raise TournamentConflictError(
            "a team tournament is run through its teams", code="team_tournament"
        )
    match command:
        case Register():
            return register(state, command)
        case CheckIn():
            return check_in(state, command)
        case UndoCheckIn():
            return undo_check_in(state, command)
        case Withdraw():
            return withdraw(state, command)
        case ApproveEntry():
            return approve(state, command)
        case RefuseEntry():
            return refuse(state, command)
        case SetCapacity():
            return set_capacity(state, command)
        case MarkNoShows():
            return mark_no_shows(state, command)
        case UndoNoShow():
            return undo_no_show(state, command)
        case PairRound():
            return pair_round(state, command)
        case RepairRound():
            return repair_round(state, command)
        case ForbidPair():
            return forbid(state, command)
        case AllowPair():
            pair = pair_key(state, command.players)
            return [ForbiddenPairRemoved(players=pair)] if pair in state.forbidden else []
        case RecordResult():
            return record(state, command)
        case WithdrawResult():
            return withdraw_result(state, command)
        case RuleResult():
            return rule(state, command)
        case MoveDeadline():
            return move_deadline(state, command)
        case StartRoundClock():
            return start_clock(state, command)
        case ChangeSettings():
            expect_version(state, command.expected_version)
            changes = decide_settings_change(state, current=command.current, wanted=command.wanted)
            return [SettingsChanged(changes=changes)] if changes else []
    raise TypeError(f"not a tournament command: {command!r}")


__all__ = ["SETTINGS_FIXED_AFTER_START", "SETTINGS_MUTABLE", "decide", "decide_settings_change"]
