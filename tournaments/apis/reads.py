"""The tournament's lists and logs: pairings, standings, the decision log, the CSV files."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.negotiation import BaseContentNegotiation, DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import ApiPagination, error_responses
from core.renderers import FastJSONRenderer
from tournaments import selectors
from tournaments import serializers as s
from tournaments.apis.common import TournamentApi, _number, _page, _tournament
from tournaments.exchange.export import tournament_exchange_text
from tournaments.selectors import exports


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


class ExchangeApi(CsvApi):
    """A finished individual tournament as a results exchange file (text/plain: HGX 2, a
    bracket's HGX 3), for whoever may read its pairings; 409 exchange_unsupported before it
    finishes (docs/explanation/exchange-format.md)."""

    @extend_schema(
        operation_id="tournaments_exchange_retrieve",
        responses={
            (200, "text/plain"): OpenApiResponse(
                response=OpenApiTypes.STR,
                description="The HGX 2 file (a bracket's: HGX 3): fixed-field records, one a"
                " line (UTF-8).",
                examples=[OpenApiExample("head", value="HGX 2\n012 Evening\n022 swiss\n")],
            ),
            **error_responses(404, 409),
        },
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = _tournament(request, tournament_id)
        text = tournament_exchange_text(tournament=tournament)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.hgx"'
        return response
