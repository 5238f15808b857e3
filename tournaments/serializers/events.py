"""A tournament's events as the events API and the stream show them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.serializers.fields import (
    ZonedDateTimeField,
    instants_in_utc,
)


class DeciderOutputSerializer(serializers.Serializer):
    """Who decided. Only the tournament's organisers and staff see who it was."""

    role = serializers.ChoiceField(
        choices=["organiser", "player"],
        help_text="An organiser (or staff), or the player acting for themselves.",
    )
    id = serializers.IntegerField(
        required=False, help_text="The user's id; shown to organisers and staff only."
    )
    username = serializers.CharField(
        required=False, help_text="The user's login; shown to organisers and staff only."
    )


class EventDataField(serializers.DictField):
    def to_representation(self, value: Any) -> Any:
        return instants_in_utc(super().to_representation(value))


class EventOutputSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    data = EventDataField(
        help_text=(
            "The event's own fields. For anyone but organisers and staff, `by` is the role "
            "only (as below) and TournamentCreated's `organisers` is left out. Times in it "
            "are written in UTC with a `Z`, as everywhere in the API."
        )
    )
    by = DeciderOutputSerializer(allow_null=True, help_text="null = the system.")
    reason = serializers.CharField(allow_blank=True)
    recorded_at = ZonedDateTimeField()
