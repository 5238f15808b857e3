"""The formats' own endpoints: forbidden pairs and a double elimination's bracket."""

from __future__ import annotations

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
    tournament's organisers read and change them; a round robin refuses them (409).

    Swiss rounds and the first round of a knockout or double elimination keep them apart
    wherever any pairing of the round can, before avoiding rematches: where both cannot
    hold, a Swiss round may have more rematches than the fewest possible. Where no pairing
    keeps them apart, as few meet as possible and the round's event names them
    (`forbidden_met`). Later rounds of a bracket follow the bracket."""

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
    """The bracket as data a client can draw (the pages draw this same answer): a double
    elimination's winners' and losers' brackets and grand final (W, L, GF), a knockout's
    or a Swiss top cut's knockout (K, and 3P for a third-place match): each match's id
    (slot), bracket, round, wave, players and seeds, status, winner and loser, and where its
    winner and loser go. Matches still to come are there too, their unknown players null.
    A round robin, a Swiss without a cut, or a top cut before its cut: no matches.

    Limits: a double elimination's losers drop in an order that makes a rematch impossible
    before the losers' semifinal for 8 or 16 players (round 7 of 10 for 64, 16 of 22 for
    4,096); from there on, and in the grand final, players may meet again."""

    @extend_schema(responses={200: s.BracketOutputSerializer, **error_responses(404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        return Response(selectors.tournament_bracket(tournament=tournament))
