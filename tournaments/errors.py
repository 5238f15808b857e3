"""The tournament domain's errors (tournaments.domain.errors, pure Python) as the API shows
them: the same message, the code as the reason, the same extra, a setting by its label.
Registered with the kernel (core.errors.domain_errors_register) in TournamentsConfig.ready,
so the services let the domain's errors through and the one exception handler renders them."""

from __future__ import annotations

from core.errors import ApplicationError, ConflictError, ValidationError, VersionConflictError
from tournaments.domain.errors import (
    SettingFixedError,
    TournamentConflictError,
    TournamentError,
    TournamentInputError,
)
from tournaments.setting_labels import setting_label

__all__ = ["TournamentConflictError", "TournamentError", "TournamentInputError", "api_error"]


def api_error(exc: TournamentError) -> ApplicationError:
    """The API's error for a domain error: the same message, code (as reason) and extra."""
    template, params = exc.template, exc.params or None  # the reader's words at the API
    if isinstance(exc, SettingFixedError):  # the setting by its label, not its key
        params = {"setting": setting_label(exc.name)}
    if exc.code == "version_conflict":
        return VersionConflictError(template, extra=exc.extra, params=params)
    if isinstance(exc, TournamentInputError):
        return ValidationError(template, code=exc.code, extra=exc.extra or None, params=params)
    assert isinstance(exc, TournamentConflictError)
    return ConflictError(template, code=exc.code, extra=exc.extra or None, params=params)
