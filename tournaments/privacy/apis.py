"""Erasing a player and a person's own data (issue 34). Thin: validate, call, render."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import error_responses
from core.authentication import request_profile as request_player
from tournaments.privacy.selectors import person_data
from tournaments.privacy.services import player_erase


class EraseInputSerializer(serializers.Serializer):
    confirm = serializers.BooleanField(
        help_text="Must be true: an erasure cannot be undone.", required=True
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class EraseOutputSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    erased = serializers.BooleanField()
    erased_at = serializers.DateTimeField()
    texts_erased = serializers.IntegerField()
    events_redacted = serializers.IntegerField()
    event_id = serializers.IntegerField(help_text="The global position of its PlayerErased event.")


class PlayerEraseApi(APIView):
    """POST: erase a player (staff, and the organisers of the player's clubs): their name,
    login, e-mail, codes, tokens, sessions and the words they wrote, and others' words that
    name them, are gone; their results stay, under "Erased player #N". Cannot be undone;
    a second erase answers 409 `already_erased`."""

    @extend_schema(
        request=EraseInputSerializer,
        responses={200: EraseOutputSerializer, **error_responses(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        data = EraseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = player_erase(
            player_id=pk,
            by=request.user,
            reason=data.validated_data["reason"],
            confirm=data.validated_data["confirm"],
        )
        return Response(
            EraseOutputSerializer(
                {
                    "player": done.player_id,
                    "erased": True,
                    "erased_at": done.erased_at,
                    "texts_erased": done.texts_erased,
                    "events_redacted": done.events_redacted,
                    "event_id": done.event_position,
                }
            ).data
        )


class MyDataApi(APIView):
    """GET: everything held about the caller, as a JSON file (GDPR article 15): account,
    player, clubs, tokens, codes, entries, standings, ratings, what they wrote and the
    events that name them; section labels in their language."""

    @extend_schema(
        responses={200: inline_serializer("PersonalData", {"format": serializers.CharField()})}
    )
    def get(self, request: Request) -> Response:
        document: dict[str, Any] = person_data(user=request.user, player=request_player(request))
        response = Response(document)
        response["Content-Disposition"] = f'attachment; filename="my-data-{request.user.pk}.json"'
        return response
