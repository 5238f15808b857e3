"""Matches API: create, list, view, play, follow, audit, record table hands, rule.

Thin: each view validates with an input serializer, calls one service or selector and returns
its dict (described for the schema by an output serializer in games/serializers.py).
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.authentication import request_profile as request_player
from core.errors import PermissionDeniedError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from games import selectors, services
from games.serializers import (
    ActionInputSerializer,
    EventPageSerializer,
    EventSerializer,
    HandRecordInputSerializer,
    MatchCreateInputSerializer,
    MatchSummarySerializer,
    MatchViewSerializer,
    ReplaySerializer,
    RulingInputSerializer,
    VerifySerializer,
    action_input_plain,
)
from players.permissions import IsOrganiserForWrites

MATCH_ID = OpenApiParameter(
    "match_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The match's id."
)


PAGE_PARAMETERS = [
    OpenApiParameter("limit", OpenApiTypes.INT, description="Results per page."),
    OpenApiParameter("offset", OpenApiTypes.INT, description="Index of the first result."),
]


class SignedInOrPublicMatch(permissions.BasePermission):
    """Reads of one match: signed in, on to the selectors (a match the caller may not see
    is a 404, as an unknown one); signed out, only a public match (a public tournament's,
    `selectors.match_is_public`): anything else is a 401, as for any signed-out call, so a
    signed-out caller learns nothing of a friendly or a private tournament's match."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        if request.method not in permissions.SAFE_METHODS:
            return False
        return selectors.match_id_is_public(match_id=view.kwargs.get("match_id"))


class PublicReadSchema(AutoSchema):
    """The schema of a read that needs no sign-in for a public match: its operations list
    "no authentication" (`{}`) among their security requirements, as drf-spectacular does
    by itself for AllowAny and IsAuthenticatedOrReadOnly only."""

    def get_auth(self) -> list:
        auths = super().get_auth()
        return auths if {} in auths else [*auths, {}]


class PublicMatchReadApi(APIView):
    """A read of one match that anyone may make for a public match (SignedInOrPublicMatch)."""

    permission_classes = [SignedInOrPublicMatch]
    schema = PublicReadSchema()


def _request_id(request: Request) -> str:
    """Carried into the events' metadata, so an audit can tie an event to its request."""
    return (request.headers.get("Idempotency-Key") or request.headers.get("X-Request-ID", ""))[:200]


def _view_after(request: Request, saved: services.MatchResult) -> dict:
    """The caller's view of a match a service has just changed, from the state it left."""
    latest = (saved.state, saved.version)
    head = saved.events[-1].hash if saved.events else None  # the receipt needs no query
    return selectors.match_view_for(
        match=saved.match, user=request.user, latest=latest, head_hash=head
    )


def _page(request: Request, view: APIView, rows: list) -> Response:
    """One page of a list in the envelope every list answers (`count`, `next`,
    `previous`, `results`)."""
    paginator = ApiPagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(page)


def _view(request: Request, match_id: object) -> dict:
    match = selectors.match_get(match_id=match_id, user=request.user)
    return selectors.match_view_for(match=match, user=request.user)


# --- list and create ----------------------------------------------------------------------


class MatchListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=[("in_progress", "in progress"), ("finished", "finished")], required=False
    )
    mode = serializers.ChoiceField(
        choices=[("online", "online"), ("table", "table")], required=False
    )
    player = serializers.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="Either player (id)."
    )
    mine = serializers.BooleanField(required=False, help_text="Only the caller's matches.")


class MatchListApi(generics.ListAPIView):
    """Matches anyone signed in may follow (newest first); organisers create matches."""

    permission_classes = [IsOrganiserForWrites]
    serializer_class = MatchSummarySerializer
    pagination_class = ApiPagination

    def get_queryset(self) -> QuerySet:
        query = MatchListQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        return selectors.match_list_for(user=self.request.user, **query.validated_data)

    @extend_schema(
        parameters=[MatchListQuerySerializer],
        responses={200: MatchSummarySerializer(many=True), **error_responses(400)},
    )
    def get(self, request: Request) -> Response:
        return super().get(request)

    @extend_schema(
        request=MatchCreateInputSerializer,
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={201: MatchViewSerializer, **error_responses(400, 403, 422)},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = MatchCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.match_create(
            **data.validated_data, organisers=[request.user], created_by=request.user
        )
        body = selectors.match_view_for(match=match, user=request.user)
        return Response(body, status=status.HTTP_201_CREATED)


# --- one match ----------------------------------------------------------------------------


class MatchDetailApi(PublicMatchReadApi):
    """The match as the caller may see it: a player their own cards, anyone else what a
    spectator sees of the hand in play; the hands already over in full for its players and
    organisers and, for a public tournament's match, for anyone (signed out too)."""

    @extend_schema(
        parameters=[MATCH_ID], responses={200: MatchViewSerializer, **error_responses(404)}
    )
    def get(self, request: Request, match_id: str) -> Response:
        return Response(_view(request, match_id))


class MatchActionApi(APIView):
    """A player's move, on their own turn. Answers with the caller's view of the match."""

    @extend_schema(
        parameters=[MATCH_ID, IDEMPOTENCY_KEY_PARAMETER],
        request=ActionInputSerializer,
        responses={201: MatchViewSerializer, **error_responses(400, 403, 404, 409, 422)},
    )
    @idempotent
    def post(self, request: Request, match_id: str) -> Response:
        action = action_input_plain(request.data)
        if action is None:
            data = ActionInputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            action = dict(data.validated_data)
        expected_version = action.pop("expected_version", None)
        player = request_player(request)
        if player is None:
            raise PermissionDeniedError("only the match's players act in it")
        saved = services.match_act(
            match_id=match_id,
            player=player,
            action=action,
            expected_version=expected_version,
            request_id=_request_id(request),
        )
        body = _view_after(request, saved)
        return Response(body, status=status.HTTP_201_CREATED)


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, default=0, help_text="Events after this version.")


class MatchEventsApi(PublicMatchReadApi):
    """The event stream as the caller may see it: no hidden card while its hand is in play
    (a spectator: no deal, no card drawn from the stock); a hand once over in full for its
    players and organisers and, for a public match, anyone. Paginated (`limit`, `offset`)
    like every list."""

    @extend_schema(
        parameters=[MATCH_ID, EventsQuerySerializer, *PAGE_PARAMETERS],
        responses={200: EventPageSerializer, **error_responses(400, 404)},
    )
    def get(self, request: Request, match_id: str) -> Response:
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        match = selectors.match_get(match_id=match_id, user=request.user)
        events = selectors.match_events_for(
            match=match, user=request.user, after=query.validated_data["after"], as_players=True
        )
        paginator = ApiPagination()
        page = paginator.paginate_queryset(events, request, view=self)
        return paginator.get_paginated_response(EventSerializer(page, many=True).data)


class ReplayQuerySerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=2**31 - 1)


class MatchReplayApi(PublicMatchReadApi):
    """The full state at a version, for the match's players and organisers (and anyone, for
    a public match), once the hand in play at that version has ended."""

    @extend_schema(
        parameters=[MATCH_ID, ReplayQuerySerializer],
        responses={200: ReplaySerializer, **error_responses(400, 403, 404, 409)},
    )
    def get(self, request: Request, match_id: str) -> Response:
        query = ReplayQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        match = selectors.match_get(match_id=match_id, user=request.user)
        return Response(
            selectors.match_replay(
                match=match, user=request.user, version=query.validated_data["version"]
            )
        )


class MatchVerifyApi(PublicMatchReadApi):
    """Check the hash chain of the match's events. The receipt (the latest checkpoint: a
    version and its hash) for the match's players, organisers and staff, and for anyone
    else once the match is finished."""

    @extend_schema(parameters=[MATCH_ID], responses={200: VerifySerializer, **error_responses(404)})
    def get(self, request: Request, match_id: str) -> Response:
        match = selectors.match_get(match_id=match_id, user=request.user)
        return Response(selectors.match_verify(match=match, user=request.user))


class MatchHandsApi(APIView):
    """Record a hand played at a physical table (table-mode matches; organisers)."""

    @extend_schema(
        parameters=[MATCH_ID, IDEMPOTENCY_KEY_PARAMETER],
        request=HandRecordInputSerializer,
        responses={201: MatchViewSerializer, **error_responses(400, 403, 404, 409, 422)},
    )
    @idempotent
    def post(self, request: Request, match_id: str) -> Response:
        data = HandRecordInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        saved = services.match_record_hand(
            match_id=match_id,
            by=request.user,
            request_id=_request_id(request),
            **data.validated_data,
        )
        body = _view_after(request, saved)
        return Response(body, status=status.HTTP_201_CREATED)


class MatchRulingsApi(APIView):
    """An organiser's ruling: void the hand in play, adjust a score, forfeit, resign, or
    cancel the match."""

    @extend_schema(
        parameters=[MATCH_ID, IDEMPOTENCY_KEY_PARAMETER],
        request=RulingInputSerializer,
        responses={201: MatchViewSerializer, **error_responses(400, 403, 404, 409, 422)},
    )
    @idempotent
    def post(self, request: Request, match_id: str) -> Response:
        data = RulingInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        saved = services.match_rule(
            match_id=match_id,
            by=request.user,
            request_id=_request_id(request),
            **data.validated_data,
        )
        body = _view_after(request, saved)
        return Response(body, status=status.HTTP_201_CREATED)


# --- audit bundle and disputes (games.audit, games.disputes) --------------------------------

from games import audit, disputes  # noqa: E402 - this section's own imports
from games.serializers_audit import (  # noqa: E402
    BundleSerializer,
    DisputeCommentInputSerializer,
    DisputeListQuerySerializer,
    DisputeOpenInputSerializer,
    DisputeResolveInputSerializer,
    DisputeSerializer,
)

DISPUTE = OpenApiParameter(
    "dispute", OpenApiTypes.INT, OpenApiParameter.PATH, description="The dispute's number."
)


class MatchBundleApi(PublicMatchReadApi):
    """The audit bundle (GET /api/matches/{id}/audit/, also /bundle/): every event with its
    hash (where the caller sees it in full), the deck commitments with the revealed decks
    and salts, and the encodings; check it with `python3 -I tools/verify_match.py FILE`.
    For the match's players, organisers and staff; anyone, signed in or not, once a match
    of a public tournament is finished. A match the caller may not see is a 404 (signed
    out, a 401 unless the match is public)."""

    @extend_schema(
        parameters=[MATCH_ID], responses={200: BundleSerializer, **error_responses(403, 404)}
    )
    def get(self, request: Request, match_id: str) -> Response:
        match = selectors.match_get(match_id=match_id, user=request.user)
        response = Response(audit.match_bundle(match=match, user=request.user))
        response["Content-Disposition"] = f'inline; filename="match-{match.pk}-audit.json"'
        return response


class MatchBundleDeprecatedApi(MatchBundleApi):
    """The audit bundle under its earlier name: deprecated, use `/audit/` (the same
    answer). Answers carry `Deprecation: true` and a `Link` to the successor."""

    @extend_schema(
        parameters=[MATCH_ID],
        responses={200: BundleSerializer, **error_responses(403, 404)},
        deprecated=True,
    )
    def get(self, request: Request, match_id: str) -> Response:
        response = super().get(request, match_id)
        response["Deprecation"] = "true"
        response["Link"] = f'</api/matches/{match_id}/audit/>; rel="successor-version"'
        return response


def _dispute(request: Request, saved: services.MatchResult, number: int) -> dict:
    cases = audit.match_disputes(match=saved.match, user=request.user)
    return next(c for c in cases if c["dispute"] == number)


class MatchDisputesApi(APIView):
    """A match's dispute cases (its players and organisers); a player opens one on a hand
    or the whole match. Opening, comments and resolution are events of the match."""

    pagination_class = ApiPagination  # the schema's paginated envelope, like every list

    @extend_schema(
        parameters=[MATCH_ID, DisputeListQuerySerializer, *PAGE_PARAMETERS],
        responses={200: DisputeSerializer(many=True), **error_responses(400, 403, 404)},
    )
    def get(self, request: Request, match_id: str) -> Response:
        query = DisputeListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        match = selectors.match_get(match_id=match_id, user=request.user)
        cases = audit.match_disputes(match=match, user=request.user, **query.validated_data)
        return _page(request, self, cases)

    @extend_schema(
        parameters=[MATCH_ID, IDEMPOTENCY_KEY_PARAMETER],
        request=DisputeOpenInputSerializer,
        responses={201: DisputeSerializer, **error_responses(400, 403, 404)},
    )
    @idempotent
    def post(self, request: Request, match_id: str) -> Response:
        data = DisputeOpenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = request_player(request)
        if player is None:
            raise PermissionDeniedError(
                "only the match's players open disputes", code="not_a_player"
            )
        saved = disputes.match_dispute_open(
            match_id=match_id,
            player=player,
            request_id=_request_id(request),
            **data.validated_data,
        )
        number = saved.state.disputes[-1]["dispute"]
        return Response(_dispute(request, saved, number), status=status.HTTP_201_CREATED)


class MatchDisputeCommentApi(APIView):
    """A comment on an open dispute, by a player of the match or an organiser."""

    @extend_schema(
        parameters=[MATCH_ID, DISPUTE, IDEMPOTENCY_KEY_PARAMETER],
        request=DisputeCommentInputSerializer,
        responses={201: DisputeSerializer, **error_responses(400, 403, 404, 409)},
    )
    @idempotent
    def post(self, request: Request, match_id: str, dispute: int) -> Response:
        data = DisputeCommentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        saved = disputes.match_dispute_comment(
            match_id=match_id,
            by=request.user,
            dispute=dispute,
            request_id=_request_id(request),
            **data.validated_data,
        )
        return Response(_dispute(request, saved, dispute), status=status.HTTP_201_CREATED)


class MatchDisputeResolveApi(APIView):
    """An organiser settles an open dispute: "ruled" with a ruling (void, correct, adjust,
    forfeit... as POST /rulings/, recorded first) or "dismissed" with a reason."""

    @extend_schema(
        parameters=[MATCH_ID, DISPUTE, IDEMPOTENCY_KEY_PARAMETER],
        request=DisputeResolveInputSerializer,
        responses={201: DisputeSerializer, **error_responses(400, 403, 404, 409, 422)},
    )
    @idempotent
    def post(self, request: Request, match_id: str, dispute: int) -> Response:
        data = DisputeResolveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        saved = disputes.match_dispute_resolve(
            match_id=match_id,
            by=request.user,
            dispute=dispute,
            request_id=_request_id(request),
            **data.validated_data,
        )
        return Response(_dispute(request, saved, dispute), status=status.HTTP_201_CREATED)


class OpenDisputesApi(APIView):
    """The open disputes of the matches the caller organises (all matches for staff),
    oldest first: the organiser's queue."""

    pagination_class = ApiPagination  # the schema's paginated envelope, like every list

    @extend_schema(parameters=PAGE_PARAMETERS, responses={200: DisputeSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return _page(request, self, audit.disputes_open_for(user=request.user))
