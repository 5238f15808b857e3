"""The seeds fixed at round 1 and the double-elimination bracket the recorded results draw,
from the folded state: what pairing (the next wave) and the standings (a finished bracket's
places) both read, so neither imports the other. No database."""

from __future__ import annotations

from collections.abc import Collection

from tournaments.domain.state import FINISHED, TournamentState
from tournaments.pairing.double_elimination import DoubleElimination, double_elimination


def seeds_of(state: TournamentState) -> list[int]:
    """The seeds fixed when round 1 was paired, seed 1 first."""
    seeded = [e for e in state.entries.values() if e.seed is not None]
    return [e.player for e in sorted(seeded, key=lambda e: e.seed or 0)]


def bracket_of(state: TournamentState, leave_out: Collection[str] = ()) -> DoubleElimination:
    """The double-elimination bracket as the results recorded so far draw it (the pure
    tournaments.pairing.double_elimination; raises its BracketResultError), without the
    results of the matches `leave_out` names (those it could not take: a reader's choice)."""
    seeds = seeds_of(state)
    # The pairs kept apart as round 1 was paired (RoundPaired keeps them); before it, those
    # in force now, so that round 1 is paired from the bracket every later round is drawn
    # from (it was paired without them, then drawn with them: a bracket its results broke).
    forbidden = state.bracket_forbidden if state.rounds else state.forbidden
    results = {
        t.slot: t.winner
        for r in state.rounds.values()
        for t in r.tables
        if t.slot is not None and t.status == FINISHED and t.winner is not None
        and t.slot not in leave_out
    }  # fmt: skip
    return double_elimination(
        seeded=seeds,
        results=results,
        withdrawn=[p for p in state.withdrawals if p in set(seeds)],
        reset=state.bracket_reset,
        forbidden=[set(p) for p in forbidden],
    )
