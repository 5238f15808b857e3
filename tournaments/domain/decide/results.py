"""Results: a match's result recorded or corrected, withdrawn, or ruled by forfeit."""

from __future__ import annotations

from typing import Any

from tournaments.domain.commands import RecordResult, RuleResult, WithdrawResult
from tournaments.domain.decide.common import table_at
from tournaments.domain.decide.rounds import round_end
from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.domain.events import ResultCorrected, ResultRecorded, ResultRuled, TournamentEvent
from tournaments.domain.evolve import evolve
from tournaments.domain.state import FINISHED, PAIRED, TournamentState
from tournaments.domain.stored import result_to_data


def later_round_note(state: TournamentState, number: int, started: bool) -> dict[str, Any]:
    """What a corrected result of round `number` means for the round after it: not paired
    yet (its pairing will use the corrected standings), paired but not started (the
    organiser may re-pair it), or started (the pairings stand: arbiters' practice)."""
    if number + 1 not in state.rounds:
        return {"next_round": None}
    return {"next_round": number + 1, "repair_possible": not started}


def record(state: TournamentState, command: RecordResult) -> list[TournamentEvent]:
    r = command.result
    table = table_at(state, r.round, r.table)
    if table is None:
        return []
    if table.status == FINISHED:
        if table.result_entry(r.round) == r:
            return []  # the same result: a repeated job
        return [
            ResultCorrected(
                round=r.round,
                table=r.table,
                before=result_to_data(table.result_entry(r.round)),
                after=r,
                **later_round_note(state, r.round, command.next_round_started),
            )
        ]
    recorded = ResultRecorded(result=r)
    events: list[TournamentEvent] = [recorded]
    state = evolve(state, recorded)
    round_ = state.rounds[r.round]
    if round_.status == PAIRED and all(t.status == FINISHED for t in round_.tables):
        events += round_end(state, r.round)
    return events


def withdraw_result(state: TournamentState, command: WithdrawResult) -> list[TournamentEvent]:
    table = table_at(state, command.round, command.table)
    if table is None or table.status != FINISHED:
        return []
    return [
        ResultCorrected(
            round=command.round,
            table=command.table,
            before=result_to_data(table.result_entry(command.round)),
            after=None,
            **later_round_note(state, command.round, command.next_round_started),
        )
    ]


def rule(state: TournamentState, command: RuleResult) -> list[TournamentEvent]:
    table = table_at(state, command.round, command.table)
    if table is None:
        raise TournamentInputError("no such table in that round", code="pairing")
    if table.status == FINISHED or table.match is None:
        raise TournamentConflictError("this pairing already has a result", code="finished")
    if command.winner not in (table.player1, table.player2):
        raise TournamentInputError("the winner must be one of the pairing's players")
    return [
        ResultRuled(
            round=command.round, table=command.table, winner=command.winner, match=table.match
        )
    ]
