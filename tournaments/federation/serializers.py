"""The federations API's shapes."""

from __future__ import annotations

from rest_framework import serializers


class MemberImportInputSerializer(serializers.Serializer):
    filename = serializers.CharField(
        max_length=200, help_text="The file's name: `.xlsx` is read as XLSX, else as CSV."
    )
    content_base64 = serializers.CharField(
        max_length=7_000_000, help_text="The file's bytes in base64 (CSV in UTF-8), at most 5 MB."
    )
    dry_run = serializers.BooleanField(default=False, help_text="Report only; keep nothing.")


class ReportLineSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="The file's line (the header is line 1).")
    federation_id = serializers.CharField()
    player = serializers.IntegerField(required=False, help_text="The player linked (matched).")
    players = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="The players it could be."
    )
    reason = serializers.CharField(
        required=False,
        help_text="A conflict's: similar, ambiguous, linked_elsewhere, duplicate_id, "
        "unknown_club, incomplete.",
    )
    other = serializers.CharField(required=False, help_text="linked_elsewhere: their id.")


class MemberReportSerializer(serializers.Serializer):
    counts = serializers.DictField(child=serializers.IntegerField())
    matched = ReportLineSerializer(many=True)
    new = ReportLineSerializer(many=True)
    conflicts = ReportLineSerializer(many=True)
    dry_run = serializers.BooleanField()


class MemberOutputSerializer(serializers.Serializer):
    federation_id = serializers.CharField(source="number")
    name = serializers.CharField()
    club = serializers.CharField(source="club_name")
    birth_year = serializers.IntegerField(allow_null=True)
    country = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)


class FederationRatingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    rating = serializers.FloatField()
    rd = serializers.FloatField()
    matches = serializers.IntegerField()
    periods = serializers.IntegerField()
    provisional = serializers.BooleanField()
