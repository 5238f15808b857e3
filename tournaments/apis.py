"""Tournaments API. Thin: validate input, call one service or selector, render."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.negotiation import BaseContentNegotiation, DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.errors import NotFoundError, PermissionDeniedError, ValidationError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from core.renderers import FastJSONRenderer
from players.models import Player
from players.selectors import player_for_user
from tournaments import exports, selectors, services
from tournaments import serializers as s
from tournaments.models import Tournament
from tournaments.services._common import field_error

WRITE = {"parameters": [IDEMPOTENCY_KEY_PARAMETER]}


class TournamentApi(APIView):
    """Every tournament endpoint: anyone may read what the selectors let them see (a public
    tournament, anonymously too; a private one is 404 to strangers); writing needs a user,
    and the service decides whether that user may."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]


def _tournament(request: Request, tournament_id: int) -> Tournament:
    return selectors.tournament_get(tournament_id=tournament_id, user=request.user)


def _render(
    serializer: type,
    obj: Any,
    tournament: Tournament,
    *,
    request: Request | None = None,
    **kwargs: Any,
) -> Any:
    """`request`: whose view (organiser user ids are shown to organisers and staff only)."""
    context = s.zone_context(tournament)
    if request is not None:
        context["show_organisers"] = selectors.user_can_organise(
            user=request.user, tournament=tournament
        )
    return serializer(obj, context=context, **kwargs).data


def _number(raw: str, name: str) -> int:
    """A small non-negative integer from the query string (ASCII digits only)."""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        raise ValidationError(f"{name} must be a whole number", code=name)
    return int(raw)


def _player(request: Request, player_id: int | None) -> Player:
    if player_id is None:
        player = player_for_user(user=request.user)
        if player is None:
            raise ValidationError("you have no player; name one", code="player_required")
        return player
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFoundError("no such player")
    return player


class TournamentListApi(TournamentApi):
    """Tournaments the caller may see; organisers create them."""

    pagination_class = ApiPagination  # also tells the schema the list is paginated

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=Tournament.Status.values),
            # Not `format`: DRF reads that query parameter as the response format.
            OpenApiParameter("tournament_format", str, enum=Tournament.Format.values),
            OpenApiParameter("club", int),
        ],
        responses={200: s.TournamentOutputSerializer(many=True), **error_responses(400)},
    )
    def get(self, request: Request) -> Response:
        filters = s.TournamentFilterInputSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        tournaments = selectors.tournament_list_for(user=request.user).filter(
            **filters.validated_data
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            tournaments.prefetch_related("organisers"), request, view=self
        )
        data = [_render(s.TournamentOutputSerializer, t, t, request=request) for t in page]
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=s.TournamentCreateInputSerializer,
        responses={201: s.TournamentOutputSerializer, **error_responses(400, 403, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request) -> Response:
        # A body that is not a JSON object is the serializer's to refuse (400), below.
        body = request.data if hasattr(request.data, "get") else {}
        zone_name = body.get("time_zone") or "UTC"
        try:
            zone = ZoneInfo(str(zone_name))
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise field_error("time_zone", f"unknown time zone {zone_name!r}", "unknown") from exc
        data = s.TournamentCreateInputSerializer(data=request.data, context={"zone": zone})
        data.is_valid(raise_exception=True)
        tournament = services.tournament_create_by_ids(
            created_by=request.user, **data.validated_data
        )
        body = _render(s.TournamentOutputSerializer, tournament, tournament, request=request)
        return Response(body, status=status.HTTP_201_CREATED)


class TournamentDetailApi(TournamentApi):
    @extend_schema(responses={200: s.TournamentOutputSerializer, **error_responses(404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        body = _render(s.TournamentOutputSerializer, tournament, tournament, request=request)
        return Response(body)


class RegistrationListApi(TournamentApi):
    """Entries of a tournament, in the order they came; POST registers a player (the
    caller's own by default)."""

    pagination_class = ApiPagination  # also tells the schema the list is paginated

    @extend_schema(
        responses={200: s.RegistrationOutputSerializer(many=True), **error_responses(400, 404)}
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        regs = selectors.tournament_registrations(tournament=tournament)
        return _page(self, request, regs, s.RegistrationOutputSerializer, tournament)

    @extend_schema(
        request=s.PlayerRefInputSerializer,
        responses={201: s.RegistrationOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        data = s.PlayerRefInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.tournament_register(
            tournament_id=tournament.pk,
            player=_player(request, data.validated_data.get("player")),
            by=request.user,
        )
        body = _render(s.RegistrationOutputSerializer, reg, tournament)
        return Response(body, status=status.HTTP_201_CREATED)


class CheckInApi(TournamentApi):
    @extend_schema(
        request=s.PlayerRefInputSerializer,
        responses={200: s.RegistrationOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        data = s.PlayerRefInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.tournament_check_in(
            tournament_id=tournament.pk,
            player=_player(request, data.validated_data.get("player")),
            by=request.user,
        )
        return Response(_render(s.RegistrationOutputSerializer, reg, tournament))


class WithdrawApi(TournamentApi):
    @extend_schema(
        request=s.WithdrawInputSerializer,
        responses={200: s.RegistrationOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        data = s.WithdrawInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.tournament_withdraw(
            tournament_id=tournament.pk,
            player=_player(request, data.validated_data.get("player")),
            by=request.user,
            reason=data.validated_data["reason"],
            forfeit_current=data.validated_data["forfeit_current"],
        )
        return Response(_render(s.RegistrationOutputSerializer, reg, tournament))


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


def _page(view: APIView, request: Request, rows: Any, serializer: Any, t: Tournament) -> Response:
    """One page (`limit`, `offset`) of a tournament's list, rendered in its time zone."""
    paginator = ApiPagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(_render(serializer, page, t, many=True))


class PairingListApi(TournamentApi):
    pagination_class = ApiPagination  # also tells the schema the list is paginated

    @extend_schema(
        parameters=[OpenApiParameter("round", int, description="Only this round.")],
        responses={200: s.PairingOutputSerializer(many=True), **error_responses(400, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        raw = request.query_params.get("round")
        pairings = selectors.tournament_pairings(
            tournament=tournament,
            round_number=_number(raw, "round") if raw is not None else None,
        )
        return _page(self, request, pairings, s.PairingOutputSerializer, tournament)


class StandingListApi(TournamentApi):
    pagination_class = ApiPagination

    @extend_schema(responses={200: s.StandingOutputSerializer(many=True), **error_responses(404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        standings = selectors.tournament_standings(tournament=tournament)
        response = _page(self, request, standings, s.StandingOutputSerializer, tournament)
        # The order the rows are ranked by, stated with them.
        response.data["tiebreaks"] = selectors.tournament_tiebreak_order(tournament=tournament)
        return response


class EventListApi(TournamentApi):
    """The tournament's decision log: every decision with who made it and why. Who it was
    (id, username) is shown to the tournament's organisers and staff only; everyone else
    sees whether an organiser, the player or the system decided."""

    pagination_class = ApiPagination

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="Only events after this version.")],
        responses={200: s.EventOutputSerializer(many=True), **error_responses(400, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        after = _number(request.query_params.get("after", "0"), "after")
        events = selectors.tournament_events(
            tournament=tournament, viewer=request.user, after=after
        )
        return _page(self, request, events, s.EventOutputSerializer, tournament)


def _csv_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv_schema(columns: list[str], what: str, operation_id: str) -> dict[str, Any]:
    """A CSV answer in the schema: the body is text/csv; errors stay JSON."""
    return {
        "operation_id": operation_id,
        "responses": {
            (200, "text/csv"): OpenApiResponse(
                response=OpenApiTypes.STR,
                description=f"{what} as CSV (UTF-8, a header row), the columns: "
                + ", ".join(columns)
                + ". A text a spreadsheet would run as a formula starts with an apostrophe.",
                examples=[OpenApiExample("header", value=",".join(columns) + "\n")],
            ),
            **error_responses(404),
        },
    }


class _CsvNegotiation(BaseContentNegotiation):
    """The CSV views answer CSV whatever the Accept header asks (`Accept: text/csv` is not
    a 406) and their errors (404, 405, 401, 429) in the API's JSON error shape, never the
    browsable API's HTML page that a browser's Accept would pick."""

    def select_parser(self, request: Request, parsers: list) -> Any:
        return DefaultContentNegotiation().select_parser(request, parsers)

    def select_renderer(
        self, request: Request, renderers: list, format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        return FastJSONRenderer(), FastJSONRenderer.media_type


class CsvApi(TournamentApi):
    """A tournament's table as CSV: the body is an `HttpResponse` of text/csv; only errors
    go through a renderer, JSON's."""

    renderer_classes = [FastJSONRenderer]
    content_negotiation_class = _CsvNegotiation


class StandingsCsvApi(CsvApi):
    """The standings as CSV, in rank order: the columns of the desk's CSV, for whoever may
    read the standings (a public tournament's, anonymously too)."""

    @extend_schema(
        **_csv_schema(selectors.STANDINGS_COLUMNS, "The standings", "tournaments_standings_csv")
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = _tournament(request, tournament_id)
        text = exports.standings_csv(tournament=tournament)
        return _csv_response(text, f"standings-{tournament.pk}.csv")


class ResultsCsvApi(CsvApi):
    """Every pairing with its result as CSV, by round and table (players by name; a bye has
    no second player): the columns of the desk's CSV, for whoever may read the pairings."""

    @extend_schema(
        **_csv_schema(selectors.RESULTS_COLUMNS, "The results", "tournaments_results_csv")
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = _tournament(request, tournament_id)
        text = exports.results_csv(tournament=tournament)
        return _csv_response(text, f"results-{tournament.pk}.csv")


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
