"""The one error path of the API: every error becomes {"error": {"code", "message", ...}}.
Also the one place a lost database connection becomes a 503 outside DRF's views (the live
streams, the pages): `DatabaseUnavailableMiddleware`."""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.db import InterfaceError, OperationalError, connections
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from core.authentication import AUTHENTICATION_REASONS
from core.errors import (
    ApplicationError,
    ConflictError,
    ValidationError,
    VersionConflictError,
    application_error,
    translated_message,
)
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


# Clients branch on these codes (the API contract); a service's more specific code (e.g.
# "match_not_found", "not_a_player", "round_in_play", "deadwood") is kept as "reason".
_CONTRACT_CODES = {403: "permission_denied", 404: "not_found"}


def _contract_code(exc: ApplicationError) -> str | None:
    """The contract's code for a domain error: a refused value is a `validation_error`,
    a command that the state refuses a `conflict` (a stale `expected_version` keeps its own
    `version_conflict`), a refusal `permission_denied`, a missing thing `not_found`."""
    if isinstance(exc, VersionConflictError):
        return None
    if isinstance(exc, ValidationError):
        return "validation_error"
    if isinstance(exc, ConflictError):
        return "conflict"
    return _CONTRACT_CODES.get(exc.status)


def _from_event_store(exc: Exception) -> ApplicationError | None:
    """The event store's own errors (it knows no API) as the API's domain errors."""
    # Their messages are templates with the values apart (eventstore.errors), shown in
    # the reader's language by translated_message.
    if isinstance(exc, ConcurrencyError):
        return ApplicationError(
            exc.template,
            params=exc.params,
            code="version_conflict",
            status=409,
            extra={
                "stream_id": exc.stream_id,
                "expected_version": exc.expected_version,
                "current_version": exc.current_version,
            },
        )
    if isinstance(exc, ImmutableEventError):
        return ConflictError(exc.template, code="event_immutable", params=exc.params)
    if isinstance(exc, InvalidEventError):
        return ApplicationError(
            exc.template, code="validation_error", status=400, params=exc.params
        )
    return None


def _from_django_request(exc: Exception) -> ApplicationError | None:
    """Django's refusals of a request body (a form or multipart body past
    DATA_UPLOAD_MAX_MEMORY_SIZE or DATA_UPLOAD_MAX_NUMBER_FIELDS/FILES), which Django would
    answer with an HTML page."""
    if isinstance(exc, RequestDataTooBig):
        return ApplicationError(
            gettext("The request body is too large."), code="request_too_large", status=413
        )
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return ApplicationError(gettext("The request has too many fields."), code="too_many_fields")
    return None


# Seconds a client is asked to wait before retrying after the database failed it.
DATABASE_RETRY_AFTER = 1
_DATABASE_MESSAGE = gettext_lazy("The database is unavailable; retry shortly.")


def _close_dead_connections() -> None:
    """Close this thread's connections that the failure left unusable, so that its next
    query reconnects (Django also checks at the end of a request: `close_old_connections`)."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close_if_unusable_or_obsolete()


def _database_unavailable() -> Response:
    """The database connection was lost (a terminated backend, a restarted or failed-over
    server) or the server refused the work: nothing of the request was committed, unless
    its COMMIT itself was cut, in which case a retry with the same Idempotency-Key replays
    it."""
    _close_dead_connections()
    return Response(
        _body("database_unavailable", str(_DATABASE_MESSAGE)),
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
    )


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """A lost database connection in a view that DRF does not wrap (the async live streams,
    the pages) answers 503 with Retry-After, not 500: the API's error body under /api/, a
    short page elsewhere."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        _close_dead_connections()
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                _body("database_unavailable", str(_DATABASE_MESSAGE)), status=503
            )
        else:
            title = gettext("Try again shortly")
            text = gettext("The database is unavailable for a moment.")
            response = HttpResponse(
                f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{text}</p>",
                status=503,
            )
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response


def _translated_fields(exc: ApplicationError, message: str, extra: dict[str, Any]) -> None:
    """A field's message that is the error's own (`field_error`) in the same words."""
    fields = extra.get("fields")
    if isinstance(fields, dict):
        extra["fields"] = {
            name: [message if m == exc.message else m for m in messages]
            if isinstance(messages, list)
            else messages
            for name, messages in fields.items()
        }


# Django's own answers under /api/ that are pages (a URL no pattern matches, which DEBUG
# answers with its technical page and not with handler404; a method a plain view refuses):
# the API's error body instead, under every setting.
_PAGE_ERRORS = {
    400: ("bad_request", gettext_lazy("Bad request.")),
    403: ("permission_denied", gettext_lazy("You do not have permission to perform this action.")),
    404: ("not_found", gettext_lazy("No such endpoint.")),
    405: ("method_not_allowed", gettext_lazy("Method not allowed.")),
}
_API_PAGES = ("/api/docs/", "/api/redoc/")


class ApiErrorsAsJsonMiddleware:
    """Every /api/ error answer is JSON: a non-numeric id (`/api/players/null,null/`,
    `/api/tournaments/x/`) matches no URL, and under DEBUG (`make run`) Django answers that
    with an HTML page that handler404 never sees. Sync and async (the live streams)."""

    sync_capable = async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self._async:
            return self._acall(request)
        return _as_json(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        return _as_json(request, await self.get_response(request))


def _as_json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if (
        response.status_code not in _PAGE_ERRORS
        or not request.path.startswith("/api/")
        or request.path.startswith(_API_PAGES)
        or response.get("Content-Type", "").startswith("application/json")
    ):
        return response
    code, message = _PAGE_ERRORS[response.status_code]
    answer = JsonResponse(_body(code, str(message)), status=response.status_code)
    if response.has_header("Allow"):
        answer["Allow"] = response["Allow"]
    return answer


def _expected_version(context: dict[str, Any]) -> int | None:
    """The `expected_version` the refused request sent (a service that raised the conflict
    without it)."""
    try:
        value = context["request"].data.get("expected_version")
    except Exception:  # noqa: BLE001 - a body that did not parse has none
        return None
    return value if type(value) is int else None


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, OperationalError | InterfaceError):
        return _database_unavailable()
    exc = _from_event_store(exc) or exc
    exc = _from_django_request(exc) or exc
    exc = application_error(exc) or exc  # an app's own domain errors, as it registered them
    if isinstance(exc, ApplicationError):
        code, extra = exc.code, dict(exc.extra)
        contract_code = _contract_code(exc)
        if contract_code and code != contract_code:
            code, extra["reason"] = contract_code, code
        if code == "version_conflict" and "expected_version" not in extra:
            extra["expected_version"] = _expected_version(context)
        message = translated_message(exc)
        _translated_fields(exc, message, extra)
        return Response(_body(code, message, **extra), status=exc.status)
    if isinstance(exc, RuleError):
        message = translated_message(exc)
        if exc.status == status.HTTP_409_CONFLICT:  # the state refuses it (a finished match)
            body = _body("conflict", message, reason=exc.code, rule=exc.rule)
            return Response(body, status=exc.status)
        return Response(_body(exc.code, message, rule=exc.rule), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
    if isinstance(exc, exceptions.ValidationError):
        response.data = _body(code, gettext("The request is not valid."), fields=response.data)
    else:
        detail = response.data.get("detail", str(exc)) if isinstance(response.data, dict) else exc
        extra = {}
        reason = getattr(getattr(exc, "detail", None), "code", None)
        if isinstance(exc, exceptions.AuthenticationFailed) and reason in AUTHENTICATION_REASONS:
            extra["reason"] = reason  # why the token is refused: expired, revoked...
        response.data = _body(code, str(detail), **extra)
    return response
