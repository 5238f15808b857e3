"""Registrations, rounds, pairings, results, standings and the round clock."""

from __future__ import annotations

from django.db import models
from rest_framework import serializers

from core.text import free_text
from tournaments.models import Pairing, Registration, Round, Standing
from tournaments.selectors import pairing_overdue
from tournaments.serializers.fields import (
    ZonedDateTimeField,
    id_field,
)


class PlayerRefInputSerializer(serializers.Serializer):
    player = id_field(required=False, help_text="Player id; default: the caller's own player.")


class WithdrawInputSerializer(PlayerRefInputSerializer):
    reason = free_text(required=False, allow_blank=True, default="")
    forfeit_current = serializers.BooleanField(
        required=False, default=False, help_text="Organisers: forfeit a match still in play."
    )


class CheckInUndoInputSerializer(PlayerRefInputSerializer):
    reason = free_text(required=False, allow_blank=True, default="")


class RegistrationOutputSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    registered_at = ZonedDateTimeField()
    checked_in_at = ZonedDateTimeField(allow_null=True)
    withdrawn_at = ZonedDateTimeField(allow_null=True)
    waitlist_place = serializers.SerializerMethodField(
        help_text="Waitlisted: the place on the waitlist (1: promoted first); else null."
    )

    class Meta:
        model = Registration
        fields = [
            "player",
            "player_name",
            "status",
            "seed",
            "late",
            "registered_at",
            "checked_in_at",
            "withdrawn_at",
            "no_show",
            "waitlist_place",
        ]

    def get_waitlist_place(self, obj: Registration) -> int | None:
        return waitlist_place(obj)


def waitlist_place(reg: Registration) -> int | None:
    """A waitlisted entry's place on the list (in order of registration), else None."""
    if reg.status != Registration.Status.WAITLISTED:
        return None
    ahead = Registration.objects.filter(
        tournament_id=reg.tournament_id, status=Registration.Status.WAITLISTED
    ).filter(
        models.Q(registered_at__lt=reg.registered_at)
        | models.Q(registered_at=reg.registered_at, pk__lt=reg.pk)
    )
    return ahead.count() + 1


class RoundOutputSerializer(serializers.ModelSerializer):
    scheduled_at = ZonedDateTimeField(allow_null=True)
    paired_at = ZonedDateTimeField(allow_null=True)
    deadline = ZonedDateTimeField(allow_null=True)
    completed_at = ZonedDateTimeField(allow_null=True)
    clock_started_at = ZonedDateTimeField(
        allow_null=True,
        help_text="When the round's time started running (its deadline follows it): when it "
        "was paired or re-paired, or when the director started the clock.",
    )
    clock_started_by_hand = serializers.BooleanField(
        help_text="The director started the clock (POST …/rounds/{n}/clock/)."
    )

    class Meta:
        model = Round
        fields = [
            "number", "status", "scheduled_at", "paired_at", "deadline", "completed_at",
            "clock_started_at", "clock_started_by_hand",
        ]  # fmt: skip


class ReasonInputSerializer(serializers.Serializer):
    reason = free_text(required=False, allow_blank=True, default="")


class RoundStartInputSerializer(ReasonInputSerializer):
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Start round 1 although it is scheduled more than an hour from now "
        "(otherwise 409 conflict, reason before_schedule, with its `scheduled_at`).",
    )


class RepairInputSerializer(serializers.Serializer):
    reason = free_text()
    pairs = serializers.ListField(
        child=serializers.ListField(child=id_field(allow_null=True), min_length=2, max_length=2),
        required=False,
        help_text="[[player1, player2], [player, null] (a bye)]; default: paired afresh.",
    )
    expected_version = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="The tournament's `version` you saw: a stale one is 409 version_conflict "
        "(a second click, another organiser's re-pairing).",
    )
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Keep hand-set pairs that repeat an earlier pairing or break a forbidden "
        "pair (otherwise 409 conflict, reason rematch / forbidden_pair).",
    )


class DeadlineInputSerializer(serializers.Serializer):
    deadline = ZonedDateTimeField(allow_null=True)
    reason = free_text()


class RuleInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=10_000)
    winner = id_field(help_text="Player id of the winner by forfeit.")
    reason = free_text()


class PairingOutputSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    player1_name = serializers.CharField(source="player1.name")
    player2_name = serializers.CharField(source="player2.name", allow_null=True, default=None)
    winner = serializers.IntegerField(source="winner_id", allow_null=True)
    match = serializers.UUIDField(source="match_id", allow_null=True)
    result = serializers.CharField(source="result_reason")
    overdue = serializers.SerializerMethodField(
        help_text="Still unplayed past the round's deadline. Online matches are then forfeited"
        " by the deadline job (the player to move loses); table matches wait for an organiser."
    )

    class Meta:
        model = Pairing
        fields = [
            "round",
            "table",
            "player1",
            "player1_name",
            "player2",
            "player2_name",
            "match",
            "status",
            "winner",
            "games1",
            "games2",
            "points1",
            "points2",
            "result",
            "overdue",
        ]

    def get_overdue(self, pairing: Pairing) -> bool:
        return pairing_overdue(pairing=pairing)


class ResultsTakenOutputSerializer(serializers.Serializer):
    taken = PairingOutputSerializer(
        many=True,
        help_text="The pairings whose result was taken from their finished match now; empty: "
        "nothing was waiting.",
    )


class StandingOutputSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    place = serializers.IntegerField(
        help_text="The place a club reads: players equal on every tiebreak share one (1, 2, "
        '2, 4; shown "=2"). `rank` is the place in the total order (ties broken by player '
        "id), which the pairing and the seeding use."
    )
    shared = serializers.BooleanField(help_text="Whether another player has this place.")

    class Meta:
        model = Standing
        fields = [
            "rank",
            "place",
            "shared",
            "player",
            "player_name",
            "match_wins",
            "played",
            "games_won",
            "points_diff",
            "buchholz",
            "sonneborn_berger",
            "byes",
            "withdrawn",
        ]


class RoundClockOutputSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True, help_text="None before round 1.")
    status = serializers.CharField(allow_null=True, help_text="paired (in play) or completed.")
    starts_at = ZonedDateTimeField(allow_null=True, help_text="When the round was paired.")
    ends_at = ZonedDateTimeField(allow_null=True, help_text="Its deadline; none: no limit.")
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="Until the deadline, while the round is in play."
    )
    next_round_at = ZonedDateTimeField(
        allow_null=True, help_text="When the next round is scheduled; none: when this one ends."
    )


class HandPairingsInputSerializer(RepairInputSerializer):
    """A round's pairs set by hand (every active player once, at most one bye)."""

    pairs = serializers.ListField(
        child=serializers.ListField(child=id_field(allow_null=True), min_length=2, max_length=2),
        min_length=1,
        max_length=4096,
        help_text="[[player1, player2], [player, null] (a bye)].",
    )


class ForbiddenPairSerializer(serializers.Serializer):
    players = serializers.ListField(child=id_field(), min_length=2, max_length=2)
    reason = free_text(required=False, allow_blank=True, default="", write_only=True)


class ForbiddenPairsOutputSerializer(serializers.Serializer):
    results = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="The pairs of player ids who must not meet, lower id first.",
    )
