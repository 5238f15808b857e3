"""The guards every decision shares: a tournament not finished, a registered player, a
round in play, the version the organiser saw, a table of a round."""

from __future__ import annotations

from tournaments.domain.errors import TournamentConflictError
from tournaments.domain.state import PAIRED, RoundState, Table, TournamentState


def not_finished(state: TournamentState) -> None:
    if state.finished:
        raise TournamentConflictError("the tournament has finished", code="tournament_finished")


def registered_entry(state: TournamentState, player: int):  # noqa: ANN202 - an Entry
    entry = state.entries.get(player)
    if entry is None:
        raise TournamentConflictError("the player is not registered", code="not_registered")
    return entry


def round_in_play(state: TournamentState, number: int, message: str) -> RoundState:
    round_ = state.rounds.get(number)
    if round_ is None or round_.status != PAIRED:
        raise TournamentConflictError(message, extra={"reason": "round_not_in_play"})
    return round_


def expect_version(state: TournamentState, expected: int | None) -> None:
    if expected is not None and expected != state.version:
        raise TournamentConflictError(
            "the tournament is at version %(current)s, not %(expected)s",
            code="version_conflict",
            params={"current": state.version, "expected": expected},
            extra={"current_version": state.version},
        )


def table_at(state: TournamentState, number: int, table: int) -> Table | None:
    round_ = state.rounds.get(number)
    return round_.table(table) if round_ else None
