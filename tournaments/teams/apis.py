"""Team events' API. Thin: validate input, call one service or selector, render. Anyone
may read a public team event; its organisers create and run it; a team's captain sets its
lineups."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.errors import NotFoundError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from tournaments.teams import selectors, services
from tournaments.teams import serializers as s
from tournaments.teams.models import TeamEvent

WRITE = {"parameters": [IDEMPOTENCY_KEY_PARAMETER]}


class TeamEventsApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @staticmethod
    def team_event(request: Request, ids: dict[str, int]) -> TeamEvent:
        """The team event of the URL: `/api/team-events/{event_id}/…`, or the one a team
        tournament owns, `/api/tournaments/{tournament_id}/…` (404 not_a_team_tournament
        for a tournament of single players): one view serves both."""
        if "tournament_id" in ids:
            return _owned(request, ids["tournament_id"])
        return _event(request, ids["event_id"])


def _event(request: Request, event_id: int) -> TeamEvent:
    try:
        return selectors.team_event_get(event_id=event_id, user=request.user)
    except TeamEvent.DoesNotExist as exc:
        raise NotFoundError("no such team event") from exc


def _valid(serializer: Any, request: Request) -> dict[str, Any]:
    data = serializer(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


class TeamEventListApi(TeamEventsApi):
    """Public team events; an organiser creates one."""

    pagination_class = ApiPagination

    @extend_schema(responses={200: s.TeamEventOutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        paginator = ApiPagination()
        page = paginator.paginate_queryset(
            selectors.team_event_list(user=request.user), request, view=self
        )
        return paginator.get_paginated_response(s.TeamEventOutputSerializer(page, many=True).data)

    @extend_schema(
        request=s.TeamEventCreateInputSerializer,
        responses={201: s.TeamEventOutputSerializer, **error_responses(400, 403)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = _valid(s.TeamEventCreateInputSerializer, request)
        event = services.team_event_create(created_by=request.user, **data)
        return Response(s.TeamEventOutputSerializer(event).data, status=status.HTTP_201_CREATED)


class TeamEventDetailApi(TeamEventsApi):
    @extend_schema(responses={200: s.TeamEventOutputSerializer, **error_responses(404)})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(s.TeamEventOutputSerializer(_event(request, event_id)).data)


class TeamListApi(TeamEventsApi):
    @extend_schema(responses={200: s.TeamOutputSerializer(many=True), **error_responses(404)})
    def get(self, request: Request, **ids: int) -> Response:
        teams = selectors.team_event_teams(event=self.team_event(request, ids))
        return Response(s.TeamOutputSerializer(teams, many=True).data)

    @extend_schema(
        request=s.TeamRegisterInputSerializer,
        responses={201: s.TeamOutputSerializer, **error_responses(400, 403, 404, 409)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, **ids: int) -> Response:
        event = self.team_event(request, ids)
        data = _valid(s.TeamRegisterInputSerializer, request)
        number = services.team_register(event_id=event.pk, by=request.user, **data)
        team = selectors.team_event_teams(event=event).get(number=number)
        return Response(s.TeamOutputSerializer(team).data, status=status.HTTP_201_CREATED)


class LineupApi(TeamEventsApi):
    @extend_schema(
        request=s.LineupInputSerializer,
        responses={204: None, **error_responses(400, 403, 404, 409)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, **ids: int) -> Response:
        event = self.team_event(request, ids)
        data = _valid(s.LineupInputSerializer, request)
        services.team_lineup_set(
            event_id=event.pk,
            team=data["team"],
            round_number=data["round"],
            players=data["players"],
            by=request.user,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamRoundPairApi(TeamEventsApi):
    @extend_schema(
        request=s.RoundPairInputSerializer,
        responses={200: s.RoundPairOutputSerializer, **error_responses(400, 403, 404, 409)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, **ids: int) -> Response:
        event = self.team_event(request, ids)
        data = _valid(s.RoundPairInputSerializer, request)
        paired = services.team_round_pair(
            event_id=event.pk, round_number=data["round"], by=request.user
        )
        return Response({"paired": paired})


class TeamStandingsApi(TeamEventsApi):
    @extend_schema(
        responses={200: s.TeamStandingOutputSerializer(many=True), **error_responses(404)}
    )
    def get(self, request: Request, **ids: int) -> Response:
        lines = selectors.team_event_standings(event=self.team_event(request, ids))
        return Response(s.TeamStandingOutputSerializer(lines, many=True).data)


class TeamMatchesApi(TeamEventsApi):
    @extend_schema(responses={200: s.TeamMatchOutputSerializer(many=True), **error_responses(404)})
    def get(self, request: Request, event_id: int) -> Response:
        matches = selectors.team_event_matches(event=_event(request, event_id))
        return Response(s.TeamMatchOutputSerializer(matches, many=True).data)


# --- a team format's tournament: /api/tournaments/{id}/teams/, lineups/, team-standings/,
# team-matches/, team-rounds/ (the team event it owns, seen as the tournament is) ----------


def _owned(request: Request, tournament_id: int) -> TeamEvent:
    return selectors.team_event_of_tournament(tournament_id=tournament_id, user=request.user)


def _round(request: Request) -> int | None:
    query = s.RoundQueryInputSerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    value = query.validated_data.get("round")
    return int(value) if value is not None else None


class TournamentTeamsApi(TeamListApi):
    """A team tournament's teams, each with its roster in board order."""


class TournamentLineupsApi(LineupApi):
    """Each team's lineup for a round (default: the next); a captain or an organiser sets
    one before the round is paired. Until then a lineup that was set is seen only by its
    team's captain and the organisers (`hidden` for anyone else, with no players)."""

    @extend_schema(
        parameters=[s.RoundQueryInputSerializer],
        responses={200: s.LineupOutputSerializer(many=True), **error_responses(400, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        event = _owned(request, tournament_id)
        lineups = selectors.team_event_lineups_for(
            event=event, user=request.user, round_number=_round(request)
        )
        return Response(s.LineupOutputSerializer(lineups, many=True).data)


class TournamentTeamStandingsApi(TeamStandingsApi):
    pass


class TournamentTeamMatchesApi(TeamEventsApi):
    """The team-match sheets: each team match with its boards (players, dealer, the board's
    match id, result)."""

    @extend_schema(
        parameters=[s.RoundQueryInputSerializer],
        responses={200: s.TeamMatchOutputSerializer(many=True), **error_responses(400, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        event = _owned(request, tournament_id)
        matches = selectors.team_event_matches(event=event, round_number=_round(request))
        return Response(s.TeamMatchOutputSerializer(matches, many=True).data)


class TournamentTeamRoundsApi(TeamRoundPairApi):
    pass
