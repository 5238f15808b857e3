"""What every tournament service shares: run a command on a loaded tournament (decide; the
domain's errors go through as they are, shown at the API as tournaments.errors says), and
who may act."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from core.errors import PermissionDeniedError, ValidationError
from tournaments.domain import TournamentError, TournamentEvent, decide
from tournaments.domain.commands import TournamentCommand
from tournaments.models import Tournament
from tournaments.repository import TournamentSaved, TournamentWrite, tournament_save
from tournaments.selectors import user_can_organise

ORGANISERS_ONLY = "only the tournament's organisers may do this"


def decided(write: TournamentWrite, command: TournamentCommand) -> list[TournamentEvent]:
    try:
        return decide(write.state, command)
    except TournamentError as exc:
        if exc.code == "version_conflict":  # which stream, as a match's conflict says
            exc.extra["stream_id"] = write.row.stream_id
            expected = getattr(command, "expected_version", None)
            if expected is not None:
                exc.extra["expected_version"] = expected
        raise


def run(
    write: TournamentWrite,
    command: TournamentCommand,
    *,
    by: AbstractBaseUser | None = None,
    reason: str = "",
) -> TournamentSaved:
    """decide → save: the walk of every tournament command."""
    return tournament_save(write, decided(write, command), by=by, reason=reason)


def require_organiser(user: AbstractBaseUser | None, tournament: Tournament) -> None:
    """`user` organises the tournament (None: the scheduler, who may)."""
    if user is not None and not user_can_organise(user=user, tournament=tournament):
        raise PermissionDeniedError(ORGANISERS_ONLY)


def field_error(
    field: str, message: str, reason: str, params: dict[str, Any] | None = None
) -> ValidationError:
    """The documented `validation_error`: the field named in `fields`, a `reason` saying
    what is wrong with it (as games' `not_a_player`). `message` may be a template with
    `params` (core.errors.ApplicationError)."""
    error = ValidationError(message, params=params)
    error.extra = {"fields": {field: [error.message]}, "reason": reason}
    return error


def extra(**values: Any) -> dict[str, Any]:
    return values
