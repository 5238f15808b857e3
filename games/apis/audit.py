"""Audit API: the audit bundle (games.audit) and a match's dispute cases
(games.services.disputes)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.authentication import request_profile as request_player
from core.errors import PermissionDeniedError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from games import audit, selectors, services
from games.apis.common import (
    MATCH_ID,
    PAGE_PARAMETERS,
    PublicMatchReadApi,
    _page,
    _request_id,
)
from games.serializers.audit import (
    BundleSerializer,
    DisputeCommentInputSerializer,
    DisputeListQuerySerializer,
    DisputeOpenInputSerializer,
    DisputeResolveInputSerializer,
    DisputeSerializer,
)
from games.services import disputes

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
