"""Registrations (register, check in) and the pairs kept apart."""

from __future__ import annotations

from tournaments.domain.commands import CheckIn, ForbidPair, Register, UndoCheckIn
from tournaments.domain.decide.common import not_finished, registered_entry
from tournaments.domain.decide.waitlist import register_or_wait
from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.domain.events import (
    ForbiddenPairAdded,
    PlayerCheckedIn,
    PlayerCheckInUndone,
    RegistrationRequested,
    TournamentEvent,
)
from tournaments.domain.state import (
    CHECKED_IN,
    IN_PROGRESS,
    REGISTERED,
    WITHDRAWN,
    TournamentState,
)


def register(state: TournamentState, command: Register) -> list[TournamentEvent]:
    not_finished(state)
    late = state.status == IN_PROGRESS
    if late and state.format != "swiss":
        raise TournamentConflictError(
            "late entry is only possible in a Swiss tournament", code="late_entry_closed"
        )
    if command.player in state.entries:
        raise TournamentConflictError("the player is already registered", code="already_registered")
    if command.approval:
        return [RegistrationRequested(player=command.player)]
    return register_or_wait(state, command.player, late)


def check_in(state: TournamentState, command: CheckIn) -> list[TournamentEvent]:
    not_finished(state)
    entry = registered_entry(state, command.player)
    if entry.status == WITHDRAWN:
        raise TournamentConflictError("the player has withdrawn", code="withdrawn")
    if entry.status == CHECKED_IN:
        return []
    if entry.status != REGISTERED:
        raise TournamentConflictError(
            "the player has no place in the tournament (waitlisted or not approved)",
            code="no_place",
        )
    return [PlayerCheckedIn(player=command.player)]


def undo_check_in(state: TournamentState, command: UndoCheckIn) -> list[TournamentEvent]:
    """Only before the player's first pairing: once paired, they withdraw instead."""
    not_finished(state)
    entry = registered_entry(state, command.player)
    if entry.status == WITHDRAWN:
        raise TournamentConflictError("the player has withdrawn", code="withdrawn")
    if entry.status != CHECKED_IN:
        return []
    paired = any(
        command.player in (t.player1, t.player2) for r in state.rounds.values() for t in r.tables
    )
    if paired:
        raise TournamentConflictError(
            "the player has been paired: withdraw them instead", code="already_paired"
        )
    return [PlayerCheckInUndone(player=command.player)]


def pair_key(state: TournamentState, players: tuple[int, int]) -> tuple[int, int]:
    a, b = sorted(players)
    if a == b:
        raise TournamentInputError("a forbidden pair names two different players", code="pair")
    return a, b


def forbid(state: TournamentState, command: ForbidPair) -> list[TournamentEvent]:
    not_finished(state)
    pair = pair_key(state, command.players)
    if state.format == "round_robin":
        raise TournamentConflictError(
            "in a round robin everyone meets everyone: no pair can be kept apart",
            extra={"reason": "round_robin"},
        )
    unknown = [p for p in pair if p not in state.entries]
    if unknown:
        raise TournamentInputError(
            "both players must be entered in the tournament",
            code="pair",
            extra={"fields": {"players": [f"{unknown} not entered"]}},
        )
    return [] if pair in state.forbidden else [ForbiddenPairAdded(players=pair)]
