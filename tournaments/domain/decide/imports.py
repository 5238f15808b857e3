"""A round imported from a results exchange file (tournaments.exchange): taken as it was
played, checked, never paired again; what it records is what a round paired and played
here records (RoundPaired, its results, its end), so standings, rebuilds and exports read
it alike."""

from __future__ import annotations

from tournaments.domain.commands import ImportRound
from tournaments.domain.decide.rounds import require_next_round, round_end
from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.domain.events import (
    ResultRecorded,
    RoundPaired,
    TournamentEvent,
    TournamentStarted,
)
from tournaments.domain.evolve import evolve
from tournaments.domain.pairing import in_top_cut
from tournaments.domain.state import TournamentState


def _refuse(message: str, **params: object) -> TournamentInputError:
    return TournamentInputError(message, code="exchange_round", params=params)


def import_round(state: TournamentState, command: ImportRound) -> list[TournamentEvent]:
    number = command.number
    if state.finished:
        raise TournamentConflictError(
            "the next round is %(round)s",
            extra={"reason": "round_not_next"},
            params={"round": state.current_round + 1},
        )
    require_next_round(state, number)
    _check_tables(state, command)
    events: list[TournamentEvent] = []
    if number == 1:
        seeds = command.seeds or tuple(sorted(state.entries, key=lambda p: state.entries[p].order))
        if sorted(seeds) != sorted(set(seeds)) or any(p not in state.entries for p in seeds):
            raise _refuse("round 1: seeds of registered players, each once")
        started = TournamentStarted(seeds=seeds, rounds=command.rounds)
        events.append(started)
        state = evolve(state, started)
    if len(set(command.top_cut)) != len(command.top_cut) or any(
        p not in state.entries for p in command.top_cut
    ):
        raise _refuse("round %(round)s: a top cut of registered players", round=number)
    paired = RoundPaired(round=number, pairings=command.pairings, top_cut=command.top_cut)
    events.append(paired)
    state = evolve(state, paired)
    tables = {p.table: p for p in command.pairings}
    for r in sorted(command.results, key=lambda r: r.table):
        p = tables.get(r.table)
        if r.round != number or p is None or (r.player1, r.player2) != (p.player1, p.player2):
            raise _refuse("round %(round)s: a result for no table of it", round=number)
        if r.winner not in (r.player1, r.player2, None) or (r.player2 is None and r.winner is None):
            raise _refuse("round %(round)s table %(table)s: no such winner", round=number,
                          table=r.table)  # fmt: skip
        recorded = ResultRecorded(result=r)
        events.append(recorded)
        state = evolve(state, recorded)
    if len({r.table for r in command.results}) != len(tables):
        raise _refuse("round %(round)s: a table without a result", round=number)
    return events + round_end(state, number)


def _check_tables(state: TournamentState, command: ImportRound) -> None:
    """Tables 1..n, registered players each at most once, at most one bye (a knockout's
    rounds, a top cut's too, as many as its seeding or its withdrawals leave)."""
    seated = [p for t in command.pairings for p in (t.player1, t.player2) if p is not None]
    numbers = [t.table for t in command.pairings]
    byes = sum(t.player2 is None for t in command.pairings)
    if (
        not command.pairings
        or numbers != list(range(1, len(numbers) + 1))
        or len(seated) != len(set(seated))
        or (byes > 1 and state.format != "knockout" and not in_top_cut(state, command.number))
        or any(p not in state.entries for p in seated)
    ):
        raise _refuse("round %(round)s: tables 1 to n, each player once, one bye at most",
                      round=command.number)  # fmt: skip
