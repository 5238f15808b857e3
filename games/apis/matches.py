"""Matches API: create, list, view, play, events, replay, verify, record table hands, rule."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.authentication import request_profile as request_player
from core.errors import PermissionDeniedError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from games import selectors, services
from games.apis.common import (
    MATCH_ID,
    MATCH_VIEW_REPLAY,
    PAGE_PARAMETERS,
    PublicMatchReadApi,
    _request_id,
    _view_after,
)
from games.fastpath import action_input_plain
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
)
from games.services import practice
from players.permissions import IsOrganiserForWrites

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
        match = selectors.match_get(match_id=match_id, user=request.user)
        body = selectors.match_view_for(match=match, user=request.user)
        if match.practice and body["your_seat"] is not None:
            # The player's look at a practice match queues the bot again if it is to move
            # and its job was lost (version-guarded: a job still on its way does nothing).
            practice.practice_bot_nudge(match=match)
        return Response(body)


class MatchActionApi(APIView):
    """A player's move, on their own turn. Answers with the caller's view of the match."""

    @extend_schema(
        parameters=[MATCH_ID, IDEMPOTENCY_KEY_PARAMETER],
        request=ActionInputSerializer,
        responses={201: MatchViewSerializer, **error_responses(400, 403, 404, 409, 422)},
    )
    @idempotent(replay=MATCH_VIEW_REPLAY)
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
    @idempotent(replay=MATCH_VIEW_REPLAY)
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
    @idempotent(replay=MATCH_VIEW_REPLAY)
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
