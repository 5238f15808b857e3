"""The one error path of the API: every error becomes {"error": {"code", "message", ...}}."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from core.errors import ApplicationError
from core.parsers import RequestTooLargeError
from eventstore import ConcurrencyError, ImmutableEventError, InvalidEventError
from games.engine.errors import RuleError

_DRF_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "parse_error",
    exceptions.ValidationError: "validation_error",
    RequestTooLargeError: "request_too_large",
}


def _body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


# Clients branch on these codes for these statuses (the API contract); a service's more
# specific code (e.g. "match_not_found", "not_a_player") is kept as "reason".
_CONTRACT_CODES = {403: "permission_denied", 404: "not_found"}


def _from_event_store(exc: Exception) -> ApplicationError | None:
    """The event store's own errors (it knows no API) as the API's domain errors."""
    if isinstance(exc, ConcurrencyError):
        return ApplicationError(
            str(exc),
            code="version_conflict",
            status=409,
            extra={
                "stream_id": exc.stream_id,
                "expected_version": exc.expected_version,
                "current_version": exc.current_version,
            },
        )
    if isinstance(exc, ImmutableEventError):
        return ApplicationError(str(exc), code="event_immutable", status=409)
    if isinstance(exc, InvalidEventError):
        return ApplicationError(str(exc), code="validation_error", status=400)
    return None


def _from_django_request(exc: Exception) -> ApplicationError | None:
    """Django's refusals of a request body (a form or multipart body past
    DATA_UPLOAD_MAX_MEMORY_SIZE or DATA_UPLOAD_MAX_NUMBER_FIELDS/FILES), which Django would
    answer with an HTML page."""
    if isinstance(exc, RequestDataTooBig):
        return ApplicationError(
            "The request body is too large.", code="request_too_large", status=413
        )
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return ApplicationError("The request has too many fields.", code="too_many_fields")
    return None


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    exc = _from_event_store(exc) or exc
    exc = _from_django_request(exc) or exc
    if isinstance(exc, ApplicationError):
        code, extra = exc.code, dict(exc.extra)
        contract_code = _CONTRACT_CODES.get(exc.status)
        if contract_code and code != contract_code:
            code, extra["reason"] = contract_code, code
        return Response(_body(code, exc.message, **extra), status=exc.status)
    if isinstance(exc, RuleError):
        return Response(
            _body(exc.code, str(exc), rule=exc.rule), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
    if isinstance(exc, exceptions.ValidationError):
        response.data = _body(code, "The request is not valid.", fields=response.data)
    else:
        detail = response.data.get("detail", str(exc)) if isinstance(response.data, dict) else exc
        response.data = _body(code, str(detail))
    return response
