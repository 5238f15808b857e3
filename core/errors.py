"""Domain errors shared by every app. Services raise these; one DRF exception handler
(`config.exception_handler`) renders them as {"error": {"code", "message", ...}}."""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """A domain error with a machine-readable code and an HTTP status."""

    code = "application_error"
    status = 400

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.extra = extra or {}


class ValidationError(ApplicationError):
    code = "validation_error"
    status = 400


class NotFoundError(ApplicationError):
    code = "not_found"
    status = 404


class PermissionDeniedError(ApplicationError):
    code = "permission_denied"
    status = 403


class ConflictError(ApplicationError):
    code = "conflict"
    status = 409


class VersionConflictError(ConflictError):
    """The stream moved on since the client (or the service) read it."""

    code = "version_conflict"
