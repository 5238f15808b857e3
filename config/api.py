"""Pieces every API view shares: the error body and its schema, pagination, throttles, the
organiser permission, `Idempotency-Key` handling, and a trivial endpoint for health and benches.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from config.errors import ApplicationError, ValidationError
from players.models import IdempotencyRecord
from players.selectors import user_is_organiser

# --- errors -------------------------------------------------------------------------------

# Which codes each status carries; shown in the schema next to every endpoint's errors.
ERROR_CODES: dict[int, str] = {
    400: "validation_error, illegal_action and not_your_turn (with the rule), invalid_card, "
    "invalid_meld, invalid_ruleset, invalid_deck, invalid_credentials, parse_error",
    401: "not_authenticated, authentication_failed",
    403: "permission_denied",
    404: "not_found",
    409: "version_conflict (with current_version), conflict",
    415: "unsupported_media_type",
    422: "idempotency_key_reused",
    429: "throttled",
}


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Machine-readable code, e.g. `not_your_turn`.")
    message = serializers.CharField()
    rule = serializers.CharField(required=False, help_text="The RULES.md rule that was broken.")
    fields = serializers.DictField(required=False, help_text="Per-field validation messages.")
    current_version = serializers.IntegerField(required=False)
    reason = serializers.CharField(
        required=False, help_text="A more specific code, e.g. `not_a_player`, `match_not_found`."
    )


class ErrorSerializer(serializers.Serializer):
    """Every error response: `{"error": {"code": …, "message": …, …}}`."""

    error = ErrorDetailSerializer()


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the error statuses an endpoint can answer with."""
    wanted = sorted({401, 429, *statuses})
    return {
        s: OpenApiResponse(response=ErrorSerializer, description=f"Error codes: {ERROR_CODES[s]}")
        for s in wanted
    }


# --- lists --------------------------------------------------------------------------------


class ApiPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500


# --- throttles ----------------------------------------------------------------------------


class LoginRateThrottle(SimpleRateThrottle):
    """Login attempts per client address (rate: DEFAULT_THROTTLE_RATES["login"])."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


LOGIN_THROTTLES = [LoginRateThrottle, AnonRateThrottle]


# --- permissions --------------------------------------------------------------------------


class IsOrganiser(permissions.BasePermission):
    """Staff, the organisers group, or organisers of a club."""

    message = "Only organisers may do this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return user_is_organiser(user=request.user)


class IsOrganiserForWrites(IsOrganiser):
    """Anyone authenticated reads; organisers write."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return bool(request.user and request.user.is_authenticated)
        return super().has_permission(request, view)


# --- idempotency --------------------------------------------------------------------------

IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    name="Idempotency-Key",
    location=OpenApiParameter.HEADER,
    required=False,
    type=str,
    description="A retried request with the same key returns the first response and writes "
    "nothing new. Reusing a key for a different request answers 422 idempotency_key_reused.",
)


class _Rollback(Exception):
    """Unwinds the idempotency transaction when the handler answered with an error."""

    def __init__(self, response: Response) -> None:
        self.response = response


def _fingerprint(request: Request) -> str:
    data = request.data
    if hasattr(data, "lists"):  # form data: a QueryDict
        data = dict(data.lists())
    canonical = json.dumps(data, sort_keys=True, cls=JSONEncoder)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.fingerprint != fingerprint:
        raise ApplicationError(
            "This Idempotency-Key was used for a different request.",
            code="idempotency_key_reused",
            status=422,
        )
    return Response(record.body, status=record.status_code, headers={"Idempotent-Replayed": "true"})


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Make a POST handler honour the `Idempotency-Key` header.

    The record is inserted first, in the same transaction as the handler's writes: a concurrent
    duplicate blocks on the unique constraint until the first commits, then replays its
    response. Only successful responses are kept; a rejected request wrote nothing, so a retry
    simply runs again.
    """

    @functools.wraps(handler)
    def wrapper(view: APIView, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get("Idempotency-Key", "").strip()
        if not key or not request.user.is_authenticated:
            return handler(view, request, *args, **kwargs)
        if len(key) > 255:
            raise ValidationError("Idempotency-Key must be at most 255 characters.")
        fingerprint = _fingerprint(request)
        lookup = {"user": request.user, "key": key, "method": request.method, "path": request.path}
        existing = IdempotencyRecord.objects.filter(**lookup).first()
        if existing is not None:
            return _replay(existing, fingerprint)
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(
                    **lookup, fingerprint=fingerprint, status_code=0
                )
                response = handler(view, request, *args, **kwargs)
                if response.status_code >= 400:
                    raise _Rollback(response)
                record.status_code = response.status_code
                record.body = json.loads(json.dumps(response.data, cls=JSONEncoder))
                record.save(update_fields=["status_code", "body"])
        except _Rollback as rollback:
            return rollback.response
        except IntegrityError:
            existing = IdempotencyRecord.objects.filter(**lookup).first()
            if existing is None:
                raise
            return _replay(existing, fingerprint)
        return response

    return wrapper


# --- a trivial endpoint -------------------------------------------------------------------


class PingOutputSerializer(serializers.Serializer):
    pong = serializers.BooleanField()
    user = serializers.IntegerField()


class PingApi(APIView):
    """Authenticated no-op: checks a token; the baseline of bench/api.py."""

    @extend_schema(responses={200: PingOutputSerializer, **error_responses()})
    def get(self, request: Request) -> Response:
        return Response({"pong": True, "user": request.user.pk})


# --- Django's own 404 and 500 pages, as JSON under /api/ -----------------------------------


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """An unknown URL under /api/ gets the API's error body, not an HTML page."""
    if request.path.startswith("/api/"):
        body = {"error": {"code": "not_found", "message": "No such endpoint."}}
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        body = {"error": {"code": "server_error", "message": "Internal server error."}}
        return JsonResponse(body, status=500)
    return defaults.server_error(request)
