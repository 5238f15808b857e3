"""Pieces every API view shares: the error body and its schema, pagination, throttles, and a
trivial endpoint for health and benches. `Idempotency-Key` handling is in `core.idempotency`;
the organiser permission, which needs to know players, in `players.permissions`."""

from __future__ import annotations

import datetime as dt
import hashlib

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext
from django.views import defaults
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from core.live_tickets import STREAM_PATH, stream_ticket_issue, ticket_lifetime
from core.login_throttle import address_failed_for
from core.throttles import RateLimitNoted

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
    409: "version_conflict (with expected_version, current_version; stream_id for a match),"
    " conflict (with a `reason`, e.g. match_finished, round_in_play, setting_fixed,"
    " hand_in_play: the manual lists them, /docs/clients/errors/)",
    413: "request_too_large",
    415: "unsupported_media_type",
    422: "idempotency_key_reused",
    429: "throttled",
    503: "database_unavailable (the database connection was lost: retry after Retry-After,"
    " with the same Idempotency-Key), stream_unavailable (a live stream asked of a WSGI server)",
}


# What `code` may be: clients branch on it (docs/clients/errors.md). A new code is a change
# a client sees: add it here, to that page's table and to CHANGELOG.md.
ERROR_CODE_VALUES = [
    "validation_error",
    "illegal_action",
    "not_your_turn",
    "invalid_card",
    "invalid_meld",
    "invalid_ruleset",
    "invalid_deck",
    "invalid_dispute",
    "dispute_closed",
    "parse_error",
    "too_many_fields",
    "invalid_credentials",
    "bad_request",
    "import_refused",
    "not_authenticated",
    "authentication_failed",
    "permission_denied",
    "not_found",
    "method_not_allowed",
    "not_acceptable",
    "version_conflict",
    "conflict",
    "request_too_large",
    "unsupported_media_type",
    "idempotency_key_reused",
    "throttled",
    "database_unavailable",
    "stream_unavailable",
    "server_error",
]
# What `reason` may be: the service's more specific code beside the contract's `code`
# (a `validation_error`'s refused field or value, a `conflict`'s state, a 403's or 404's
# cause).
ERROR_REASON_VALUES = [
    # validation_error
    "not_a_player", "same_player", "out_of_range", "unknown", "naive_datetime",
    "deadwood", "hand_number", "rounds", "tiebreaks", "format", "play_mode", "name",
    "reason_required", "note_required", "ruling_required", "player_required", "ruling",
    "adjustment", "pairing", "pairs", "closed", "finished", "withdrawn", "not_table_mode",
    "table_mode", "invalid_mode", "invalid_version", "unknown_setting", "event_types",
    "from_position", "username_taken", "already_exists", "no_login", "own_entry",
    "login_code_invalid", "login_code_not_allowed", "webhook_url_refused",
    "webhook_url_unresolvable", "bad_format", "bad_line", "bad_event", "bad_sequence",
    "bad_match", "bad_row", "bad_tournament", "truncated", "hash_mismatch",
    "signin_link_invalid", "language", "out_of_order", "too_many", "pair", "top_cut_size",
    "duplicate", "not_a_member", "control_characters", "too_long", "not_in_file",
    # conflict
    "round_not_in_play", "round_not_next", "round_not_startable", "round_in_play",
    "round_started", "too_few", "setting_fixed", "tournament_finished", "late_entry_closed",
    "already_registered", "not_registered", "match_finished", "entry_open", "match_in_play",
    "hand_in_play", "dependent_match_in_play", "dispute_window_closed", "too_many_webhooks",
    "event_immutable", "rematch", "forbidden_pair", "round_robin", "top_cut_too_large",
    "forbidden_pair_in_round_robin", "bracket_inconsistent", "bracket_fixed", "clock_started",
    "before_schedule", "already_paired", "entry_changed", "already_erased",
    # team events, federation member lists, exchange files (issue 39)
    "teams", "exists", "boards", "match_points", "started", "roster", "roster_taken",
    "captain", "team_name", "team", "lineup_deadline", "lineup", "lineup_roster", "match_ids",
    "board", "winner", "pairings", "results", "club", "member_columns", "member_file",
    "exchange_file", "team_tournament", "not_a_team_tournament",
    # entries and the waitlist (issue 40)
    "no_place", "not_refusable", "not_a_no_show", "not_eligible", "withdraw_closed",
    "capacity",
    # permission_denied, not_found
    "not_yours", "bundle_forbidden", "disputes_forbidden", "match_not_found",
    "dispute_not_found", "entry_not_found", "token_not_found", "too_many_tokens", "invalid",
    "player_not_found", "club_not_found", "not_club_organiser", "season_not_found",
    "not_a_signed_in_player", "erase_forbidden", "confirm_required",
    "self_registration_closed",
    # authentication_failed (core.authentication.AUTHENTICATION_REASONS)
    "wrong_scheme", "token_invalid", "token_revoked", "token_expired", "user_inactive",
    "not_a_login_token",
]  # fmt: skip


@extend_schema_field(
    {
        "anyOf": [
            {"$ref": "#/components/schemas/ErrorReasonEnum"},
            {"type": "string", "description": "The name of a field refused."},
        ]
    }
)
class ErrorReasonField(serializers.CharField):
    """`reason`: one of ERROR_REASON_VALUES, or a refused field's name."""


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=ERROR_CODE_VALUES, help_text="Machine-readable: clients branch on it."
    )
    message = serializers.CharField(help_text="For people; may change, never parse it.")
    rule = serializers.CharField(
        required=False,
        help_text="A move the rules refuse (400): the RULES.md rule that was broken.",
    )
    fields = serializers.DictField(
        required=False,
        help_text="A `validation_error` of the body or query: the messages per field.",
    )
    reason = ErrorReasonField(
        required=False,
        help_text="A more specific code: a `conflict`'s reason (the state that refuses the"
        " command), a 403's or 404's cause, a `validation_error`'s refused value (one of"
        " the enum) or else the name of the field refused (e.g. `round`, `after`).",
    )
    stream_id = serializers.CharField(
        required=False,
        help_text="`version_conflict` on a match: the stream that moved (`match-<id>`).",
    )
    expected_version = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="`version_conflict`: the version the request expected.",
    )
    current_version = serializers.IntegerField(
        required=False, help_text="`version_conflict`: the version the stream is at now."
    )
    match = serializers.UUIDField(
        required=False,
        help_text="`dependent_match_in_play`: the match whose being in play refuses it.",
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
    """`limit` (default 50, at most 500) and `offset`. A value that is no whole number
    >= 0 is refused (400 `validation_error` on it), not silently replaced by the default:
    the schema says they are integers, and a client's typo should not look like a page."""

    default_limit = 50
    max_limit = 500

    def get_limit(self, request: Request) -> int | None:
        if self.limit_query_param in request.query_params:
            limit = _whole_number(request, self.limit_query_param)
            return min(limit, self.max_limit) if limit > 0 else self.default_limit
        return self.default_limit

    def get_offset(self, request: Request) -> int:
        if self.offset_query_param in request.query_params:
            return _whole_number(request, self.offset_query_param)
        return 0


def _whole_number(request: Request, name: str) -> int:
    values = request.query_params.getlist(name)
    text = values[-1] if values else ""
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        message = gettext("A whole number (0 or more) is required.")
        raise serializers.ValidationError({name: [message]})
    return int(text)


# --- throttles ----------------------------------------------------------------------------


class LoginRateThrottle(RateLimitNoted, SimpleRateThrottle):
    """Login attempts per client address (rate: DEFAULT_THROTTLE_RATES["login"])."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginAccountRateThrottle(RateLimitNoted, SimpleRateThrottle):
    """Login attempts per account, from any address (rate: DEFAULT_THROTTLE_RATES
    ["login_account"]). Once spent, it refuses only the addresses that have failed for the
    account: anyone can try someone's account, so its owner, from an address that has not
    failed, still gets in (issue 32). Failed logins also lock an account or an address out
    for a while (django-axes, core.login_throttle)."""

    scope = "login_account"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if super().allow_request(request, view):
            return True
        return address_failed_for(request._request, request.data["username"]) is False

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        data = request.data
        username = data.get("username") if hasattr(data, "get") else None
        if not isinstance(username, str) or not username:
            return None
        ident = hashlib.sha256(username.casefold().encode("utf-8", "replace")).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}


# Logins are counted apart from anonymous reads (their own scopes): a page of public reads
# never blocks a login, nor logins the reads.
LOGIN_THROTTLES = [LoginRateThrottle, LoginAccountRateThrottle]


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


# --- stream tickets ------------------------------------------------------------------------


class StreamTicketInputSerializer(serializers.Serializer):
    stream = serializers.RegexField(
        STREAM_PATH.pattern,
        max_length=120,
        help_text="The stream's path, e.g. `/api/matches/{id}/stream/` or"
        " `/api/tournaments/{id}/stream/`.",
    )


class StreamTicketOutputSerializer(serializers.Serializer):
    ticket = serializers.CharField()
    expires_at = serializers.DateTimeField()
    url = serializers.CharField(help_text="The stream's path with the ticket: open it.")


class StreamTicketApi(APIView):
    """A short-lived ticket (STREAM_TICKET_SECONDS, 5 minutes) to follow one stream where no
    `Authorization` header can be sent: a browser's `EventSource` opens `url`
    (`?ticket=…`). It stands for the caller on that stream only; what the stream shows is
    what the caller may see. An EventSource reconnecting after the ticket expired is
    refused (401): ask for a new one and resume with `?after=`."""

    @extend_schema(
        request=StreamTicketInputSerializer,
        responses={201: StreamTicketOutputSerializer, **error_responses(400)},
    )
    def post(self, request: Request) -> Response:
        data = StreamTicketInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        path = data.validated_data["stream"]
        ticket = stream_ticket_issue(user=request.user, path=path)
        expires_at = timezone.now() + dt.timedelta(seconds=ticket_lifetime())
        body = {"ticket": ticket, "expires_at": expires_at, "url": f"{path}?ticket={ticket}"}
        return Response(body, status=201)


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
