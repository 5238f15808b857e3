"""Rounds: list, start the next, re-pair, set by hand, move a deadline, rule a result, take
the results from the matches."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import ApiPagination, error_responses
from core.idempotency import idempotent
from tournaments import selectors, services
from tournaments import serializers as s
from tournaments.apis.common import WRITE, TournamentApi, _page, _player, _render, _tournament


class RoundListApi(TournamentApi):
    pagination_class = ApiPagination

    @extend_schema(responses={200: s.RoundOutputSerializer(many=True), **error_responses(400, 404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        rounds = selectors.tournament_rounds(tournament=tournament)
        return _page(self, request, rounds, s.RoundOutputSerializer, tournament)


class RoundStartApi(TournamentApi):
    """Organisers: pair and start the next round now (round 1 starts the tournament)."""

    @extend_schema(
        request=s.ReasonInputSerializer,
        responses={201: s.RoundOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        data = s.ReasonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = services.tournament_round_start_next(
            tournament_id=tournament.pk, by=request.user, reason=data.validated_data["reason"]
        )
        body = _render(s.RoundOutputSerializer, round_, tournament)
        return Response(body, status=status.HTTP_201_CREATED)


class RoundRepairApi(TournamentApi):
    """Organisers: re-pair a round, only while none of its matches has started."""

    @extend_schema(
        request=s.RepairInputSerializer,
        responses={200: s.RoundOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        return _round_repair(request, tournament_id, number, s.RepairInputSerializer)


def _round_repair(request: Request, tournament_id: int, number: int, serializer: type) -> Response:
    """Re-pair round `number` (afresh, or with the pairs sent) and render it."""
    tournament = _tournament(request, tournament_id)
    data = serializer(data=request.data)
    data.is_valid(raise_exception=True)
    pairs = data.validated_data.get("pairs")
    round_ = services.tournament_round_repair(
        tournament_id=tournament.pk,
        round_number=number,
        by=request.user,
        reason=data.validated_data["reason"],
        pairs=[tuple(p) for p in pairs] if pairs is not None else None,
        expected_version=data.validated_data.get("expected_version"),
        confirm=data.validated_data["confirm"],
    )
    return Response(_render(s.RoundOutputSerializer, round_, tournament))


class RoundPairingsApi(TournamentApi):
    """Organisers: set a round's pairs by hand, before any of its matches has started (the
    round's RoundRepaired event says it was set by hand). A pair that repeats an earlier
    pairing or breaks a forbidden pair is 409 conflict (reason rematch / forbidden_pair,
    `conflicts` naming them) unless sent again with `"confirm": true`."""

    @extend_schema(
        request=s.HandPairingsInputSerializer,
        responses={200: s.RoundOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        return _round_repair(request, tournament_id, number, s.HandPairingsInputSerializer)


class RoundDeadlineApi(TournamentApi):
    """Organisers: move (or, with null, lift) a round's deadline."""

    @extend_schema(
        request=s.DeadlineInputSerializer,
        responses={200: s.RoundOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = _tournament(request, tournament_id)
        data = s.DeadlineInputSerializer(data=request.data, context=s.zone_context(tournament))
        data.is_valid(raise_exception=True)
        round_ = services.tournament_round_deadline_move(
            tournament_id=tournament.pk,
            round_number=number,
            deadline=data.validated_data["deadline"],
            by=request.user,
            reason=data.validated_data["reason"],
        )
        return Response(_render(s.RoundOutputSerializer, round_, tournament))


class RoundRuleApi(TournamentApi):
    """Organisers: rule a match of the round won by forfeit."""

    @extend_schema(
        request=s.RuleInputSerializer,
        responses={200: s.PairingOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = _tournament(request, tournament_id)
        data = s.RuleInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pairing = services.tournament_result_rule(
            tournament_id=tournament.pk,
            round_number=number,
            table=data.validated_data["table"],
            winner=_player(request, data.validated_data["winner"]),
            by=request.user,
            reason=data.validated_data["reason"],
        )
        pairing.refresh_from_db()
        return Response(_render(s.PairingOutputSerializer, pairing, tournament))


class ResultsTakeApi(TournamentApi):
    """Organisers: a stuck round's way out. Take the result of every finished match whose
    pairing still waits (its `match_finished` job was lost); answers the pairings taken,
    `taken: []` when there was nothing to take. Idempotent: a second call takes nothing."""

    @extend_schema(
        request=None,
        responses={200: s.ResultsTakenOutputSerializer, **error_responses(403, 404, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        taken = services.tournament_results_take(tournament_id=tournament.pk, by=request.user)
        pairings = selectors.tournament_pairings(tournament=tournament, round_number=None)
        pairings = pairings.filter(pk__in=taken)
        body = {"taken": _render(s.PairingOutputSerializer, pairings, tournament, many=True)}
        return Response(body)
