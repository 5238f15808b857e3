"""Pieces every API view shares: the error body and its schema, pagination, throttles, and a
trivial endpoint for health and benches. `Idempotency-Key` handling is in `core.idempotency`;
the organiser permission, which needs to know players, in `players.permissions`."""

from __future__ import annotations

import hashlib

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

# --- errors -------------------------------------------------------------------------------

# Which codes each status carries; shown in the schema next to every endpoint's errors.
ERROR_CODES: dict[int, str] = {
    400: "validation_error (with `fields`, or a `reason`: not_a_player, same_player,"
    " out_of_range, unknown, naive_datetime, or the field refused), illegal_action and"
    " not_your_turn (with the rule), invalid_card, "
    "invalid_meld, invalid_ruleset, invalid_deck, invalid_credentials, parse_error, "
    "too_many_fields",
    401: "not_authenticated, authentication_failed",
    403: "permission_denied",
    404: "not_found",
    409: "version_conflict (with current_version), conflict (with a `reason`, e.g."
    " round_in_play, setting_fixed, hand_in_play: the README lists them)",
    413: "request_too_large",
    415: "unsupported_media_type",
    422: "idempotency_key_reused",
    429: "throttled",
    503: "database_unavailable (the database connection was lost: retry after Retry-After,"
    " with the same Idempotency-Key), stream_unavailable (a live stream asked of a WSGI server)",
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


class LoginAccountRateThrottle(SimpleRateThrottle):
    """Login attempts per account, from any address (rate: DEFAULT_THROTTLE_RATES
    ["login_account"]). Failed logins also lock an account or an address out for a while
    (django-axes, core.login_throttle)."""

    scope = "login_account"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        data = request.data
        username = data.get("username") if hasattr(data, "get") else None
        if not isinstance(username, str) or not username:
            return None
        ident = hashlib.sha256(username.casefold().encode("utf-8", "replace")).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}


LOGIN_THROTTLES = [LoginRateThrottle, LoginAccountRateThrottle, AnonRateThrottle]


# --- permissions --------------------------------------------------------------------------


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
        body = {"error": {"code": "not_found", "message": gettext("No such endpoint.")}}
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refused before any API view ran (a body past
    DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields, a bad Host) gets the API's error body
    under /api/: 413 for a body too large, 400 otherwise."""
    if request.path.startswith("/api/"):
        if isinstance(exception, RequestDataTooBig):
            body = {
                "error": {
                    "code": "request_too_large",
                    "message": gettext("The request is too large."),
                }
            }
            return JsonResponse(body, status=413)
        code = "too_many_fields" if isinstance(exception, TooManyFieldsSent) else "bad_request"
        return JsonResponse(
            {"error": {"code": code, "message": gettext("Bad request.")}}, status=400
        )
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        body = {"error": {"code": "server_error", "message": gettext("Internal server error.")}}
        return JsonResponse(body, status=500)
    return defaults.server_error(request)
