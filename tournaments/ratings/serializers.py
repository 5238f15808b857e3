"""Input and output shapes of the clubs, ratings and seasons API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.text import free_text
from players.models import Club
from tournaments.domain.glicko2 import RatingSettings
from tournaments.ratings.models import Season, SeasonStanding
from tournaments.serializers import id_field, utc_text


class ClubInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=120, required=False, allow_blank=True)
    time_zone = serializers.CharField(max_length=64, required=False)
    default_ruleset = serializers.DictField(required=False, help_text="RULES.md section 9 keys.")
    rating_settings = serializers.DictField(
        required=False,
        help_text="Glicko-2: initial_rating, initial_rd, initial_volatility, tau, rd_min, "
        "rd_max, provisional_rd (any of them; the rest keep their values).",
    )


class ClubUpdateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    time_zone = serializers.CharField(max_length=64, required=False)
    default_ruleset = serializers.DictField(required=False)
    rating_settings = serializers.DictField(required=False)
    reason = free_text(required=False, default="")


class ClubOutputSerializer(serializers.ModelSerializer):
    rating_settings = serializers.SerializerMethodField()
    members = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "time_zone", "default_ruleset", "rating_settings",
                  "members", "created_at"]  # fmt: skip

    def get_rating_settings(self, obj: Club) -> dict[str, float]:
        return RatingSettings.from_dict(obj.rating_settings).as_dict()

    def get_members(self, obj: Club) -> int:
        return obj.members.count()


class MemberInputSerializer(serializers.Serializer):
    player = id_field()


class MemberOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RatingListEntrySerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    rd = serializers.FloatField()
    volatility = serializers.FloatField()
    provisional = serializers.BooleanField()
    matches = serializers.IntegerField()
    periods = serializers.IntegerField()


class PlayedSerializer(serializers.Serializer):
    opponent = serializers.IntegerField()
    score = serializers.FloatField()


class ReratedSerializer(serializers.Serializer):
    at = serializers.CharField(help_text="ISO 8601, UTC.")
    reason = serializers.CharField()


class RatingHistoryEntrySerializer(serializers.Serializer):
    tournament = serializers.IntegerField(allow_null=True, help_text="null: a private one.")
    finished_at = serializers.SerializerMethodField()
    rating_before = serializers.FloatField()
    rd_before = serializers.FloatField()
    volatility_before = serializers.FloatField()
    rating = serializers.FloatField()
    rd = serializers.FloatField()
    volatility = serializers.FloatField()
    played = PlayedSerializer(many=True)
    rerated = ReratedSerializer(many=True)

    def get_finished_at(self, obj: dict[str, Any]) -> str:
        return utc_text(obj["finished_at"])


class PlayerRatingsQuerySerializer(serializers.Serializer):
    club = id_field()


class SeasonInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    place_points = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=100_000), max_length=500,
        help_text="Points for place 1, 2, ... (places beyond the list get none).",
    )  # fmt: skip
    participation_points = serializers.IntegerField(min_value=0, max_value=100_000, default=0)
    best_of = serializers.IntegerField(
        min_value=1, max_value=10_000, required=False, allow_null=True,
        help_text="N of best N of M (empty: every tournament counts).",
    )  # fmt: skip
    tie_order = serializers.ListField(
        child=serializers.ChoiceField(choices=Season.TIE_ORDER), required=False,
        help_text="Default: tournaments_won, match_wins, mini_table, shared.",
    )  # fmt: skip

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["ends_on"] < attrs["starts_on"]:
            raise serializers.ValidationError({"ends_on": ["must not be before starts_on"]})
        return attrs


class SeasonOutputSerializer(serializers.ModelSerializer):
    club = serializers.IntegerField(source="club_id")

    class Meta:
        model = Season
        fields = ["id", "club", "name", "starts_on", "ends_on", "place_points",
                  "participation_points", "best_of", "tie_order"]  # fmt: skip


class SeasonStandingOutputSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = SeasonStanding
        fields = ["rank", "player", "name", "points", "played", "counted", "tournaments_won",
                  "match_wins", "shared"]  # fmt: skip
