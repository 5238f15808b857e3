"""Clubs, ratings and seasons API. Thin: validate input, call one service or selector,
render. Anyone may read a club, its rating list and its seasons; a club's organisers (and
staff) change it, its members and its seasons."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.errors import NotFoundError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from players.selectors import player_get
from tournaments.apis.reads import CsvApi
from tournaments.ratings import selectors, services
from tournaments.ratings import serializers as s
from tournaments.selectors.exports import csv_text

WRITE = {"parameters": [IDEMPOTENCY_KEY_PARAMETER]}


class ClubsApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    pagination_class = ApiPagination


def _page(view: APIView, request: Request, items: Any, render: Any) -> Response:
    paginator = ApiPagination()
    page = paginator.paginate_queryset(items, request, view=view)
    return paginator.get_paginated_response(render(page))


class ClubListApi(ClubsApi):
    """Every club; organisers create one (and organise it)."""

    @extend_schema(responses={200: s.ClubOutputSerializer(many=True), **error_responses(400)})
    def get(self, request: Request) -> Response:
        return _page(
            self,
            request,
            selectors.club_list(),
            lambda p: s.ClubOutputSerializer(p, many=True).data,
        )

    @extend_schema(
        request=s.ClubInputSerializer,
        responses={201: s.ClubOutputSerializer, **error_responses(400, 403, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = s.ClubInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_create(by=request.user, **data.validated_data)
        return Response(s.ClubOutputSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(ClubsApi):
    @extend_schema(responses={200: s.ClubOutputSerializer, **error_responses(404)})
    def get(self, request: Request, club_id: int) -> Response:
        return Response(s.ClubOutputSerializer(selectors.club_get(club_id=club_id)).data)

    @extend_schema(
        request=s.ClubUpdateInputSerializer,
        responses={200: s.ClubOutputSerializer, **error_responses(400, 403, 404)},
    )
    def patch(self, request: Request, club_id: int) -> Response:
        data = s.ClubUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_update(club_id=club_id, by=request.user, **data.validated_data)
        return Response(s.ClubOutputSerializer(club).data)


class ClubMembersApi(ClubsApi):
    """The club's members (signed-in callers read them); its organisers add and remove."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: s.MemberOutputSerializer(many=True), **error_responses(400, 404)}
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = selectors.club_get(club_id=club_id)
        return _page(
            self,
            request,
            selectors.club_members(club=club),
            lambda p: s.MemberOutputSerializer(p, many=True).data,
        )

    @extend_schema(
        request=s.MemberInputSerializer,
        responses={201: s.MemberOutputSerializer, **error_responses(400, 403, 404, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, club_id: int) -> Response:
        data = s.MemberInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.club_member_add(
            club_id=club_id, player_id=data.validated_data["player"], by=request.user
        )
        return Response(s.MemberOutputSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.MemberInputSerializer,
        parameters=[OpenApiParameter("player", int, description="Or in the body.")],
        responses={204: None, **error_responses(400, 403, 404)},
    )
    def delete(self, request: Request, club_id: int) -> Response:
        body = request.data if hasattr(request.data, "get") and request.data else None
        data = s.MemberInputSerializer(data=body or request.query_params)
        data.is_valid(raise_exception=True)
        services.club_member_remove(
            club_id=club_id, player_id=data.validated_data["player"], by=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubRatingsApi(ClubsApi):
    """The club's rating list, best first (provisional ratings included, marked)."""

    @extend_schema(
        responses={200: s.RatingListEntrySerializer(many=True), **error_responses(400, 404)}
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = selectors.club_get(club_id=club_id)
        return _page(
            self,
            request,
            selectors.club_rating_list(club=club),
            lambda p: selectors.club_rating_rows(club=club, rows=p),
        )


class PlayerRatingsApi(ClubsApi):
    """A player's rating history in a club: one entry per period they played."""

    @extend_schema(
        parameters=[OpenApiParameter("club", int, required=True)],
        responses={200: s.RatingHistoryEntrySerializer(many=True), **error_responses(400, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        query = s.PlayerRatingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        player = player_get(player_id=pk)
        if player is None or not selectors.player_page_visible(player=player, user=request.user):
            raise NotFoundError("no such player", extra={"reason": "player_not_found"})
        club = selectors.club_get(club_id=query.validated_data["club"])
        history = selectors.player_rating_history(player=player, club=club, user=request.user)
        return _page(
            self, request, history, lambda p: s.RatingHistoryEntrySerializer(p, many=True).data
        )


class ClubSeasonsApi(ClubsApi):
    @extend_schema(
        responses={200: s.SeasonOutputSerializer(many=True), **error_responses(400, 404)}
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = selectors.club_get(club_id=club_id)
        return _page(
            self,
            request,
            selectors.club_seasons(club=club),
            lambda p: s.SeasonOutputSerializer(p, many=True).data,
        )

    @extend_schema(
        request=s.SeasonInputSerializer,
        responses={201: s.SeasonOutputSerializer, **error_responses(400, 403, 404, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, club_id: int) -> Response:
        data = s.SeasonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = services.season_create(club_id=club_id, by=request.user, **data.validated_data)
        return Response(s.SeasonOutputSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonStandingsApi(ClubsApi):
    @extend_schema(
        responses={200: s.SeasonStandingOutputSerializer(many=True), **error_responses(400, 404)}
    )
    def get(self, request: Request, season_id: int) -> Response:
        season = selectors.season_get(season_id=season_id)
        return _page(
            self,
            request,
            selectors.season_standings(season=season),
            lambda p: s.SeasonStandingOutputSerializer(p, many=True).data,
        )


SEASON_COLUMNS = ["rank", "name", "points", "played", "counted", "tournaments_won",
                  "match_wins", "shared"]  # fmt: skip


class SeasonStandingsCsvApi(CsvApi):
    """The season's standings as CSV, in rank order."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="seasons_standings_csv",
        responses={(200, "text/csv"): OpenApiResponse(response=OpenApiTypes.STR),
                   **error_responses(404)},
    )  # fmt: skip
    def get(self, request: Request, season_id: int) -> HttpResponse:
        season = selectors.season_get(season_id=season_id)
        header = [_("Rank"), _("Player"), _("Points"), _("Played"), _("Counted"),
                  _("Tournaments won"), _("Match wins"), _("Shared")]  # fmt: skip
        rows = [
            [r.rank, r.player.name, r.points, r.played, len(r.counted), r.tournaments_won,
             r.match_wins, "=" if r.shared else ""]
            for r in selectors.season_standings(season=season)
        ]  # fmt: skip
        response = HttpResponse(csv_text(header, rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="season-{season.pk}.csv"'
        return response
