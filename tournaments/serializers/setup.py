"""A tournament's creation, settings, filters and output."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from rest_framework import serializers

from core.text import free_text
from players.selectors import club_exists
from tournaments.models import Tournament
from tournaments.pairing import TIEBREAKS
from tournaments.serializers.fields import (
    MAX_ROUNDS,
    ZonedDateTimeField,
    id_field,
    utc_text,
)


class TournamentFilterInputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)
    tournament_format = serializers.ChoiceField(
        choices=Tournament.Format.choices, required=False, source="format"
    )
    club = id_field(required=False, source="club_id")


class TournamentCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    club = id_field(required=False, allow_null=True)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    ruleset = serializers.DictField(required=False, help_text="RULES.md section 9 keys.")
    rounds = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ROUNDS, help_text="Swiss only."
    )
    starts_at = ZonedDateTimeField(required=False, allow_null=True)
    round_interval = serializers.DurationField(required=False, allow_null=True)
    round_starts = serializers.ListField(
        child=ZonedDateTimeField(),
        required=False,
        max_length=MAX_ROUNDS,
        help_text="When each round starts, in order; at most one per round.",
    )
    round_duration = serializers.DurationField(required=False, allow_null=True)
    turn_time = serializers.DurationField(required=False, allow_null=True)
    dispute_window = serializers.DurationField(
        required=False,
        allow_null=True,
        help_text="Disputes are opened within this time after a match ends; none: no limit.",
    )
    play_mode = serializers.ChoiceField(choices=Tournament.PlayMode.choices, required=False)
    is_public = serializers.BooleanField(required=False)
    check_in_required = serializers.BooleanField(required=False)
    organisers = serializers.ListField(child=id_field(), required=False)
    time_zone = serializers.CharField(required=False, help_text="IANA zone, e.g. Europe/London.")
    language = serializers.ChoiceField(
        choices=[code for code, _ in settings.LANGUAGES],
        required=False,
        allow_blank=True,
        help_text="The language of its prints and wall screen; absent: its club's (empty: the"
        " club's at the time of reading, else English).",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False
    )
    bye_points = serializers.ChoiceField(
        choices=["win", "nothing"],
        required=False,
        help_text="What a bye scores: a match win (default) or nothing. Fixed with the "
        "tournament (its standings are rebuilt with it).",
    )
    bye_buchholz = serializers.ChoiceField(
        choices=["nothing", "virtual_opponent"],
        required=False,
        help_text="How Buchholz counts a bye: nothing (default) or FIDE's virtual opponent.",
    )
    bracket_reset = serializers.BooleanField(
        required=False,
        help_text="Double elimination: if the losers' bracket winner wins the grand final, a "
        "second final decides (default true).",
    )
    top_cut = serializers.ChoiceField(
        choices=[4, 8, 16],
        required=False,
        allow_null=True,
        help_text="Swiss only: after `rounds` Swiss rounds the top 4, 8 or 16 play a seeded "
        "knockout (ties at the cut: tiebreaks, club rating, a recorded draw of lots).",
    )
    third_place = serializers.BooleanField(
        required=False, help_text="A top cut's semifinal losers play for third."
    )
    boards = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=12,
        help_text="Team formats only: boards per team match (default 4).",
    )
    match_points = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=100),
        min_length=3,
        max_length=3,
        required=False,
        help_text="Team formats only: match points for a team match won, drawn, lost "
        "(default 2, 1, 0).",
    )

    def validate_round_starts(self, value: list[dt.datetime]) -> list[dt.datetime]:
        if any(later <= earlier for earlier, later in zip(value, value[1:], strict=False)):
            raise serializers.ValidationError(
                gettext("the rounds' starts must be in order, each after the one before"),
                code="out_of_order",
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        rounds, starts = attrs.get("rounds"), attrs.get("round_starts") or []
        if attrs.get("format") == Tournament.Format.SWISS and rounds and len(starts) > rounds:
            raise serializers.ValidationError(
                {
                    "round_starts": [
                        gettext("%(starts)s starts for %(rounds)s rounds: one per round")
                        % {"starts": len(starts), "rounds": rounds}
                    ]
                },
                code="too_many",
            )
        return attrs

    def validate_club(self, value: int | None) -> int | None:
        """An unknown club is a value refused (400 on `club`), not a missing resource."""
        if value is not None and not club_exists(club_id=value):
            raise serializers.ValidationError(gettext("No club with this id."), code="unknown")
        return value


class TournamentSettingsInputSerializer(serializers.Serializer):
    """PATCH of a tournament: the settings sent change (one SettingsChanged event); the
    ruleset, format, play mode and check-in rule only before it starts."""

    name = serializers.CharField(max_length=200, required=False)
    is_public = serializers.BooleanField(required=False)
    starts_at = ZonedDateTimeField(required=False, allow_null=True)
    round_interval = serializers.DurationField(required=False, allow_null=True)
    round_duration = serializers.DurationField(required=False, allow_null=True)
    turn_time = serializers.DurationField(required=False, allow_null=True)
    dispute_window = serializers.DurationField(required=False, allow_null=True)
    rounds = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ROUNDS, source="rounds_planned"
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False
    )
    time_zone = serializers.CharField(required=False, help_text="IANA zone, e.g. Europe/London.")
    language = serializers.ChoiceField(
        choices=[code for code, _ in settings.LANGUAGES],
        required=False,
        allow_blank=True,
        help_text="Prints and the wall screen; empty: the club's, else English.",
    )
    ruleset = serializers.DictField(required=False, help_text="RULES.md section 9 keys.")
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    play_mode = serializers.ChoiceField(choices=Tournament.PlayMode.choices, required=False)
    check_in_required = serializers.BooleanField(required=False)
    reason = free_text(required=False, allow_blank=True, default="")
    expected_version = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="The tournament's `version` you saw: a stale one is 409 version_conflict.",
    )


class TournamentOutputSerializer(serializers.ModelSerializer):
    starts_at = ZonedDateTimeField(allow_null=True)
    round_starts = serializers.SerializerMethodField()
    created_at = ZonedDateTimeField()
    finished_at = ZonedDateTimeField(allow_null=True)
    rounds = serializers.IntegerField(source="rounds_planned", allow_null=True)
    organisers = serializers.SerializerMethodField(
        help_text="The organisers' user ids: shown to the tournament's organisers and staff"
        " only (the context's `show_organisers`); empty for anyone else."
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "club",
            "format",
            "ruleset",
            "rounds",
            "starts_at",
            "round_interval",
            "round_starts",
            "round_duration",
            "turn_time",
            "dispute_window",
            "play_mode",
            "is_public",
            "check_in_required",
            "capacity",
            "organisers",
            "time_zone",
            "language",
            "tiebreaks",
            "status",
            "current_round",
            "version",
            "created_at",
            "finished_at",
        ]

    def get_organisers(self, obj: Tournament) -> list[int]:
        if not self.context.get("show_organisers"):
            return []
        return sorted(user.pk for user in obj.organisers.all())

    def get_round_starts(self, obj: Tournament) -> list[str]:
        return [utc_text(dt.datetime.fromisoformat(s)) for s in obj.round_starts]
