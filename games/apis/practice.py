"""`POST /api/practice/`: a signed-in player starts a practice match against the bot (any
player may; creating other matches stays with organisers). Thin, as games/apis.py."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import error_responses
from core.authentication import request_profile as request_player
from core.errors import PermissionDeniedError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from core.throttles import PracticeRateThrottle
from games import selectors
from games.serializers import PracticeMatchViewSerializer, RulesetSerializer
from games.services import practice


class PracticeStartInputSerializer(serializers.Serializer):
    ruleset = RulesetSerializer(
        required=False, help_text="Omitted: the standard Hollywood rules (three games to 100)."
    )


class PracticeStartApi(APIView):
    """Start a practice match against the bot: never rated, never in a tournament, marked
    `practice`. Answers the caller's view of the new match (201); play it with
    `/api/matches/{id}/actions/` or on the page `/play/{id}/`. A player has at most three
    practice matches in play (a new one resigns the oldest), and starts at most
    THROTTLE_PRACTICE of them (429 `throttled` past it)."""

    def get_throttles(self) -> list:
        return [*super().get_throttles(), PracticeRateThrottle()]

    @extend_schema(
        request=PracticeStartInputSerializer,
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={201: PracticeMatchViewSerializer, **error_responses(400, 401, 403, 422)},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = PracticeStartInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = request_player(request)
        if player is None:
            raise PermissionDeniedError("practice is for players", code="not_a_player")
        match = practice.practice_start(player=player, **data.validated_data)
        body = selectors.match_view_for(match=match, user=request.user)
        body["play_url"] = f"/play/{match.pk}/"
        return Response(body, status=status.HTTP_201_CREATED)
