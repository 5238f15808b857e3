"""Rounds: list, start the next, re-pair, set by hand, move a deadline, rule a result, take
the results from the matches."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import ApiPagination, error_responses
from core.idempotency import idempotent
from tournaments import selectors, services
from tournaments import serializers as s
from tournaments.apis.common import (
    WRITE,
    TournamentApi,
    _page,
    _player,
    _render,
    _tournament,
    command_schema,
    tournament_write,
)
from tournaments.models import Pairing, Round, Tournament


class RoundListApi(TournamentApi):
    pagination_class = ApiPagination

    @extend_schema(responses={200: s.RoundOutputSerializer(many=True), **error_responses(400, 404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        rounds = selectors.tournament_rounds(tournament=tournament)
        return _page(self, request, rounds, s.RoundOutputSerializer, tournament)


class RoundStartApi(TournamentApi):
    """Organisers: pair and start the next round now (round 1 starts the tournament)."""

    @command_schema(s.RoundStartInputSerializer, s.RoundOutputSerializer, status=201)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=s.RoundStartInputSerializer,
            out=s.RoundOutputSerializer,
            act=lambda t, data: services.tournament_round_start_next(
                tournament_id=t.pk, by=request.user, reason=data["reason"], confirm=data["confirm"]
            ),
            status=status.HTTP_201_CREATED,
        )


class RoundRepairApi(TournamentApi):
    """Organisers: re-pair a round, only while none of its matches has started."""

    @command_schema(s.RepairInputSerializer, s.RoundOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        return _round_repair(request, tournament_id, number, s.RepairInputSerializer)


def _round_repair(request: Request, tournament_id: int, number: int, serializer: type) -> Response:
    """Re-pair round `number` (afresh, or with the pairs sent) and render it."""

    def act(tournament: Tournament, data: dict[str, Any]) -> Round:
        pairs = data.get("pairs")
        return services.tournament_round_repair(
            tournament_id=tournament.pk,
            round_number=number,
            by=request.user,
            reason=data["reason"],
            pairs=[tuple(p) for p in pairs] if pairs is not None else None,
            expected_version=data.get("expected_version"),
            confirm=data["confirm"],
        )

    return tournament_write(
        request, tournament_id, body=serializer, out=s.RoundOutputSerializer, act=act
    )


class RoundPairingsApi(TournamentApi):
    """Organisers: set a round's pairs by hand, before any of its matches has started (the
    round's RoundRepaired event says it was set by hand). A pair that repeats an earlier
    pairing or breaks a forbidden pair is 409 conflict (reason rematch / forbidden_pair,
    `conflicts` naming them) unless sent again with `"confirm": true`."""

    @command_schema(s.HandPairingsInputSerializer, s.RoundOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        return _round_repair(request, tournament_id, number, s.HandPairingsInputSerializer)


class RoundDeadlineApi(TournamentApi):
    """Organisers: move (or, with null, lift) a round's deadline."""

    @command_schema(s.DeadlineInputSerializer, s.RoundOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=s.DeadlineInputSerializer,
            out=s.RoundOutputSerializer,
            act=lambda t, data: services.tournament_round_deadline_move(
                tournament_id=t.pk,
                round_number=number,
                deadline=data["deadline"],
                by=request.user,
                reason=data["reason"],
            ),
            zoned=True,
        )


class RoundClockApi(TournamentApi):
    """Organisers: start the round's clock now, as play begins (its clock started when it
    was paired). The deadline becomes one round duration from now, and the deadline job's
    forfeits follow it. Once per pairing: again is 409 conflict, reason clock_started."""

    @command_schema(s.ReasonInputSerializer, s.RoundOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=s.ReasonInputSerializer,
            out=s.RoundOutputSerializer,
            act=lambda t, data: services.tournament_round_clock_start(
                tournament_id=t.pk, round_number=number, by=request.user, reason=data["reason"]
            ),
        )


class RoundRuleApi(TournamentApi):
    """Organisers: rule a match of the round won by forfeit."""

    @command_schema(s.RuleInputSerializer, s.PairingOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int, number: int) -> Response:

        def act(tournament: Tournament, data: dict[str, Any]) -> Pairing:
            pairing = services.tournament_result_rule(
                tournament_id=tournament.pk,
                round_number=number,
                table=data["table"],
                winner=_player(request, data["winner"]),
                by=request.user,
                reason=data["reason"],
            )
            pairing.refresh_from_db()
            return pairing

        return tournament_write(
            request, tournament_id, body=s.RuleInputSerializer, out=s.PairingOutputSerializer,
            act=act,
        )  # fmt: skip


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
