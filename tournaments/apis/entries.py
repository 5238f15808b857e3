"""Tournaments and their entries: list, create, detail; register, check in (and undo it),
withdraw."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
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
from tournaments.models import Tournament
from tournaments.services._common import field_error


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
            raise field_error(
                "time_zone",
                gettext_noop("unknown time zone %(zone)s"),
                "unknown",
                {"zone": repr(zone_name)},
            ) from exc
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

    @extend_schema(
        request=s.TournamentSettingsInputSerializer,
        responses={200: s.TournamentOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def patch(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        body = request.data if hasattr(request.data, "get") else {}
        zone_name = body.get("time_zone") or tournament.time_zone
        try:
            zone = ZoneInfo(str(zone_name))
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise field_error(
                "time_zone",
                gettext_noop("unknown time zone %(zone)s"),
                "unknown",
                {"zone": repr(zone_name)},
            ) from exc
        data = s.TournamentSettingsInputSerializer(data=request.data, context={"zone": zone})
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        reason, expected = changes.pop("reason", ""), changes.pop("expected_version", None)
        changed = services.tournament_settings_change(
            tournament_id=tournament.pk,
            by=request.user,
            changes=changes,
            reason=reason,
            expected_version=expected,
        )
        body = _render(s.TournamentOutputSerializer, changed, changed, request=request)
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

    @command_schema(s.PlayerRefInputSerializer, s.RegistrationOutputSerializer, status=201)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=s.PlayerRefInputSerializer,
            out=s.RegistrationOutputSerializer,
            act=lambda t, data: services.tournament_register(
                tournament_id=t.pk, player=_player(request, data.get("player")), by=request.user
            ),
            status=status.HTTP_201_CREATED,
        )


class CheckInApi(TournamentApi):
    @command_schema(s.PlayerRefInputSerializer, s.RegistrationOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=s.PlayerRefInputSerializer,
            out=s.RegistrationOutputSerializer,
            act=lambda t, data: services.tournament_check_in(
                tournament_id=t.pk, player=_player(request, data.get("player")), by=request.user
            ),
        )


class CheckInUndoApi(TournamentApi):
    """Undo a check-in made by mistake: the player is registered again (409
    `already_paired` once they have been paired: withdraw them instead)."""

    @extend_schema(
        request=s.CheckInUndoInputSerializer,
        responses={200: s.RegistrationOutputSerializer, **error_responses(400, 403, 404, 409, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        data = s.CheckInUndoInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.tournament_check_in_undo(
            tournament_id=tournament.pk,
            player=_player(request, data.validated_data.get("player")),
            by=request.user,
            reason=data.validated_data["reason"],
        )
        return Response(_render(s.RegistrationOutputSerializer, reg, tournament))


class WithdrawApi(TournamentApi):
    @command_schema(s.WithdrawInputSerializer, s.RegistrationOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=s.WithdrawInputSerializer,
            out=s.RegistrationOutputSerializer,
            act=lambda t, data: services.tournament_withdraw(
                tournament_id=t.pk,
                player=_player(request, data.get("player")),
                by=request.user,
                reason=data["reason"],
                forfeit_current=data["forfeit_current"],
            ),
        )
