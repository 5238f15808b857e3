"""Places, the waitlist, approvals, no-shows, entry rules and entry fees (issue 40)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import error_responses
from core.errors import PermissionDeniedError
from core.idempotency import idempotent
from core.text import free_text
from players.models import Player
from tournaments import serializers as s
from tournaments.apis.common import (
    TournamentApi,
    _player,
    _render,
    _tournament,
    command_schema,
    tournament_write,
)
from tournaments.entries.models import EntryPayment, EntryRules
from tournaments.models import Tournament
from tournaments.selectors import user_can_organise
from tournaments.selectors.entries import CashSheet, entry_rules_of, tournament_cash_sheet
from tournaments.services import fees
from tournaments.services import waitlist as services


class CapacityInputSerializer(serializers.Serializer):
    capacity = serializers.IntegerField(
        min_value=2, max_value=100000, allow_null=True, help_text="Places; null: no limit."
    )
    reason = free_text(required=False, allow_blank=True, default="")


class EntryRulesSerializer(serializers.ModelSerializer):
    withdraw_until = s.ZonedDateTimeField(allow_null=True, required=False)
    check_in_deadline = s.ZonedDateTimeField(allow_null=True, required=False)
    invited = serializers.PrimaryKeyRelatedField(
        many=True, required=False, queryset=Player.objects.all()
    )

    class Meta:
        model = EntryRules
        fields = [*services.RULE_FIELDS, "invited"]


class RefuseInputSerializer(s.PlayerRefInputSerializer):
    reason = free_text(required=False, allow_blank=True, default="")


class CapacityApi(TournamentApi):
    """Set the tournament's places (null: no limit); a raised capacity promotes the first
    waiting players at once."""

    @command_schema(CapacityInputSerializer, s.TournamentOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=CapacityInputSerializer,
            out=s.TournamentOutputSerializer,
            act=lambda t, data: services.tournament_capacity_set(
                tournament_id=t.pk, by=request.user, capacity=data["capacity"],
                reason=data["reason"],
            ),
        )  # fmt: skip


class EntryRulesApi(TournamentApi):
    """Who may enter the tournament themselves: club members only, a rating band, an
    invitation list, the organisers' approval; the withdrawal and check-in deadlines."""

    @extend_schema(responses={200: EntryRulesSerializer, **error_responses(403, 404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        if not user_can_organise(user=request.user, tournament=tournament):
            raise PermissionDeniedError("only the tournament's organisers may do this")
        rules = entry_rules_of(tournament)
        return Response(_render(EntryRulesSerializer, rules, tournament))

    @command_schema(EntryRulesSerializer, EntryRulesSerializer)
    @idempotent
    def patch(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=EntryRulesSerializer,
            out=EntryRulesSerializer,
            zoned=True,
            act=lambda t, data: services.tournament_entry_rules_set(
                tournament_id=t.pk, by=request.user, changes=data
            ),
        )


class ApproveApi(TournamentApi):
    """Approve an entry waiting for it: registered, or waitlisted if the places are taken."""

    @command_schema(s.PlayerRefInputSerializer, s.RegistrationOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=s.PlayerRefInputSerializer,
            out=s.RegistrationOutputSerializer,
            act=lambda t, data: services.tournament_entry_approve(
                tournament_id=t.pk, player=_player(request, data.get("player")), by=request.user
            ),
        )


class RefuseApi(TournamentApi):
    """Refuse an entry waiting for approval or for a place."""

    @command_schema(RefuseInputSerializer, s.RegistrationOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=RefuseInputSerializer,
            out=s.RegistrationOutputSerializer,
            act=lambda t, data: services.tournament_entry_refuse(
                tournament_id=t.pk, player=_player(request, data.get("player")),
                by=request.user, reason=data["reason"],
            ),
        )  # fmt: skip


class NoShowUndoApi(TournamentApi):
    """Take back a no-show before round 1 (409 `already_paired` after it)."""

    @command_schema(RefuseInputSerializer, s.RegistrationOutputSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        return tournament_write(
            request,
            tournament_id,
            body=RefuseInputSerializer,
            out=s.RegistrationOutputSerializer,
            act=lambda t, data: services.tournament_no_show_undo(
                tournament_id=t.pk, player=_player(request, data.get("player")),
                by=request.user, reason=data["reason"],
            ),
        )  # fmt: skip


# --- entry fees at the desk ------------------------------------------------------------------


class PaymentInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, help_text="The registered player's id.")
    status = serializers.ChoiceField(
        choices=EntryPayment.Status.choices,
        help_text="paid (the tournament's fee), unpaid or waived.",
    )


class CashLineSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player")
    entry = serializers.CharField(help_text="The registration's status.")
    payment = serializers.ChoiceField(choices=EntryPayment.Status.choices)
    amount = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True)


class CashSheetSerializer(serializers.Serializer):
    fee = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True)
    currency = serializers.CharField(help_text="ISO 4217, e.g. EUR; empty: no fee set.")
    lines = CashLineSerializer(many=True)
    paid = serializers.IntegerField()
    unpaid = serializers.IntegerField()
    waived = serializers.IntegerField()
    collected = serializers.DecimalField(max_digits=10, decimal_places=2)


class PaymentsApi(TournamentApi):
    """The evening's cash sheet (every player holding a place, paid, unpaid or waived, and
    the total collected); organisers record each payment (no payment processor)."""

    @extend_schema(responses={200: CashSheetSerializer, **error_responses(403, 404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(request, tournament_id)
        if not user_can_organise(user=request.user, tournament=tournament):
            raise PermissionDeniedError("only the tournament's organisers may do this")
        sheet = tournament_cash_sheet(tournament=tournament)
        return Response(_render(CashSheetSerializer, sheet, tournament))

    @command_schema(PaymentInputSerializer, CashSheetSerializer)
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        def act(t: Tournament, data: dict[str, Any]) -> CashSheet:
            fees.tournament_entry_payment_set(
                tournament_id=t.pk, player_id=data["player"], status=data["status"],
                by=request.user,
            )  # fmt: skip
            return tournament_cash_sheet(tournament=t)

        return tournament_write(
            request, tournament_id, body=PaymentInputSerializer, out=CashSheetSerializer, act=act
        )
