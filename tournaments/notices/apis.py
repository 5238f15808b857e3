"""The caller's own notices (issue 40): what the tournaments told them, in their language,
and the kinds of notice they get no e-mail of."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import error_responses
from core.errors import ValidationError
from players.models import Player
from players.selectors import player_for_user
from tournaments.notices.models import Notice
from tournaments.notices.services import (
    notice_text,
    player_notice_opt_outs,
    player_notice_opt_outs_set,
    player_notices,
)


class NoticeSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="notice.pk")
    kind = serializers.ChoiceField(source="notice.kind", choices=Notice.Kind.choices)
    tournament = serializers.IntegerField(source="notice.tournament_id")
    created_at = serializers.DateTimeField(source="notice.created_at")
    emailed = serializers.BooleanField(help_text="Whether it was also sent by e-mail.")
    subject = serializers.CharField(help_text="In the caller's language.")
    summary = serializers.CharField(help_text="In the caller's language.")
    link = serializers.CharField(
        help_text="The page it concerns (a table's or a match's), a path; empty if none."
    )
    data = serializers.DictField(
        source="notice.data",
        help_text="Ids and numbers (round, table, opponent, match, entry, dispute, outcome).",
    )


class NoticeSettingsSerializer(serializers.Serializer):
    opted_out = serializers.ListField(
        child=serializers.ChoiceField(choices=Notice.Kind.choices),
        max_length=len(Notice.Kind.values),
        help_text="The kinds of notice the caller wants no e-mail of (still listed here).",
    )
    kinds = serializers.ListField(
        child=serializers.CharField(), read_only=True, help_text="Every kind of notice."
    )


def _me(request: Request) -> Player:
    player = player_for_user(user=request.user)
    if player is None:
        raise ValidationError("you have no player; name one", code="player_required")
    return player


class MyNoticesApi(APIView):
    """The caller's latest notices, newest first (at most 30)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: NoticeSerializer(many=True), **error_responses(400, 401)})
    def get(self, request: Request) -> Response:
        rows = [
            {"notice": n, "emailed": n.emailed_at is not None, **notice_text(n)}
            for n in player_notices(player=_me(request))
        ]
        return Response(NoticeSerializer(rows, many=True).data)


class MyNoticeSettingsApi(APIView):
    """The kinds of notice the caller gets no e-mail of."""

    permission_classes = [permissions.IsAuthenticated]

    def _answer(self, opted_out: set[str] | list[str]) -> Response:
        body = {"opted_out": sorted(opted_out), "kinds": list(Notice.Kind.values)}
        return Response(NoticeSettingsSerializer(body).data)

    @extend_schema(responses={200: NoticeSettingsSerializer, **error_responses(400, 401)})
    def get(self, request: Request) -> Response:
        return self._answer(player_notice_opt_outs(player=_me(request)))

    @extend_schema(
        request=NoticeSettingsSerializer,
        responses={200: NoticeSettingsSerializer, **error_responses(400, 401)},
    )
    def put(self, request: Request) -> Response:
        me = _me(request)
        body = NoticeSettingsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self._answer(
            player_notice_opt_outs_set(player=me, kinds=body.validated_data["opted_out"])
        )
