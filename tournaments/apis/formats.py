"""The formats' own endpoints: forbidden pairs and a double elimination's bracket."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import error_responses
from core.errors import PermissionDeniedError
from core.idempotency import idempotent
from tournaments import selectors, services
from tournaments import serializers as s
from tournaments.apis.common import WRITE, TournamentApi, _tournament
from tournaments.models import Tournament


class ForbiddenPairsApi(TournamentApi):
    """Pairs of players who must not meet (one household, a team's members): the
    tournament's organisers read and change them; a round robin refuses them (409)."""

    permission_classes = [permissions.IsAuthenticated]

    def _organiser(self, request: Request, tournament_id: int) -> Tournament:
        tournament = _tournament(request, tournament_id)
        if not selectors.user_can_organise(user=request.user, tournament=tournament):
            raise PermissionDeniedError("only the tournament's organisers see its forbidden pairs")
        return tournament

    @extend_schema(
        responses={200: s.ForbiddenPairsOutputSerializer, **error_responses(401, 403, 404)}
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self._organiser(request, tournament_id)
        pairs = selectors.tournament_forbidden_pairs(tournament=tournament)
        return Response({"results": [list(p) for p in pairs]})

    @extend_schema(
        request=s.ForbiddenPairSerializer,
        responses={201: s.ForbiddenPairsOutputSerializer, **error_responses(400, 403, 404, 409)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self._organiser(request, tournament_id)
        data = s.ForbiddenPairSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pairs = services.tournament_forbidden_pair_add(
            tournament_id=tournament.pk,
            players=data.validated_data["players"],
            by=request.user,
            reason=data.validated_data["reason"],
        )
        return Response({"results": [list(p) for p in pairs]}, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.ForbiddenPairSerializer,
        responses={200: s.ForbiddenPairsOutputSerializer, **error_responses(400, 403, 404, 409)},
    )
    def delete(self, request: Request, tournament_id: int) -> Response:
        tournament = self._organiser(request, tournament_id)
        data = s.ForbiddenPairSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pairs = services.tournament_forbidden_pair_remove(
            tournament_id=tournament.pk,
            players=data.validated_data["players"],
            by=request.user,
            reason=data.validated_data["reason"],
        )
        return Response({"results": [list(p) for p in pairs]})


class TournamentBracketApi(TournamentApi):
    """A double elimination's winners' and losers' brackets and grand final, as data: each
    match's id (slot), bracket (W, L, GF), round, wave, players and seeds, status, winner
    and loser, and where its winner and loser go. Other formats have no matches here."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **error_responses(404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        return Response(selectors.tournament_bracket(tournament=tournament))
