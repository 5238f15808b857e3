"""Calendar feeds (issue 40): a club's tournaments, a player's own rounds (behind a secret
URL: calendar apps send no tokens), and the caller's own feed address."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext_noop
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import error_responses
from core.errors import NotFoundError, ValidationError
from players.models import Club
from players.selectors import player_for_user
from tournaments.apis.reads import CsvApi
from tournaments.entries import selectors as calendars
from tournaments.entries import services as feeds
from tournaments.entries.models import CalendarFeed

ICS = "text/calendar; charset=utf-8"


def _ics(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=ICS)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def _schema(operation_id: str) -> dict:
    return {
        "operation_id": operation_id,
        "responses": {
            (200, "text/calendar"): OpenApiResponse(response=OpenApiTypes.STR),
            **error_responses(404),
        },
    }


class ClubCalendarApi(CsvApi):
    """The club's tournaments from yesterday on, as iCalendar."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(**_schema("clubs_calendar_ics"))
    def get(self, request: Request, club_id: int) -> HttpResponse:
        club = Club.objects.filter(pk=club_id).first()
        if club is None:
            raise NotFoundError("no such club", code="club_not_found")
        return _ics(calendars.club_calendar(club=club, user=request.user), f"club-{club.pk}.ics")


class PlayerCalendarApi(CsvApi):
    """A player's own rounds (table, opponent) and entries, as iCalendar: the address is
    the secret (GET /api/me/calendar/ gives it; POST there makes a new one)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(**_schema("calendar_ics"))
    def get(self, request: Request, token: str) -> HttpResponse:
        feed = calendars.calendar_feed_by_token(token=token)
        if feed is None:
            raise NotFoundError(gettext_noop("no such calendar"), code="token_not_found")
        return _ics(calendars.player_calendar(feed=feed), "my-rounds.ics")


class CalendarAddressSerializer(serializers.Serializer):
    url = serializers.CharField(help_text="The feed's address (a secret: keep it to yourself).")


class MyCalendarApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def _player(self, request: Request):  # noqa: ANN202 - a Player
        player = player_for_user(user=request.user)
        if player is None:
            raise ValidationError("you have no player; name one", code="player_required")
        return player

    def _answer(self, request: Request, feed: CalendarFeed) -> Response:
        url = request.build_absolute_uri(f"/api/calendar/{feed.token}.ics")
        return Response(CalendarAddressSerializer({"url": url}).data)

    @extend_schema(responses={200: CalendarAddressSerializer, **error_responses(400, 401)})
    def get(self, request: Request) -> Response:
        return self._answer(request, feeds.calendar_feed_of(player=self._player(request)))

    @extend_schema(
        request=None, responses={200: CalendarAddressSerializer, **error_responses(400, 401)}
    )
    def post(self, request: Request) -> Response:
        return self._answer(request, feeds.calendar_feed_renew(player=self._player(request)))
