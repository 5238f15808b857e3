"""Serializers of the audit bundle and the dispute cases (the input of the dispute
endpoints, and their output for the schema)."""

from __future__ import annotations

from rest_framework import serializers

from core.text import free_text
from games.serializers import RulingInputSerializer


class BundleEventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    schema_version = serializers.IntegerField()
    data = serializers.DictField(help_text="Hidden cards are absent or null for this caller.")
    metadata = serializers.DictField(allow_null=True, help_text="Null where `hash` is null.")
    recorded_at = serializers.CharField(help_text="UTC, %Y-%m-%dT%H:%M:%S.%fZ (as hashed).")
    actor = serializers.CharField()
    actor_name = serializers.CharField()
    full = serializers.BooleanField(help_text="The event as stored (nothing hidden).")
    hash = serializers.CharField(
        allow_null=True,
        help_text="The stored chain hash; null after the first event shown redacted (a hash "
        "would give a hidden card away).",
    )


class BundleSerializer(serializers.Serializer):
    format = serializers.CharField()
    match = serializers.DictField()
    encodings = serializers.DictField(child=serializers.CharField())
    hashed_to = serializers.IntegerField(help_text="Events 1 to hashed_to carry their hash.")
    head_hash = serializers.CharField(allow_blank=True)
    events = BundleEventSerializer(many=True)
    commitments = serializers.ListField(child=serializers.DictField())
    hands = serializers.ListField(child=serializers.DictField())
    scoresheet = serializers.DictField(allow_null=True)


class DisputeOpenInputSerializer(serializers.Serializer):
    statement = free_text()
    hand_number = serializers.IntegerField(
        min_value=1, max_value=10_000, required=False, allow_null=True, default=None,
        help_text="The disputed hand; none for the whole match.",
    )  # fmt: skip


class DisputeCommentInputSerializer(serializers.Serializer):
    comment = free_text()


class DisputeResolveInputSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=["ruled", "dismissed"])
    reason = free_text()
    ruling = RulingInputSerializer(
        required=False,
        allow_null=True,
        default=None,
        help_text='With "ruled": the ruling (as POST /rulings/), recorded before the resolution.',
    )

    def validate(self, attrs: dict) -> dict:
        if attrs["outcome"] == "ruled" and not attrs.get("ruling"):
            raise serializers.ValidationError({"ruling": 'a "ruled" outcome needs the ruling'})
        if attrs["outcome"] == "dismissed" and attrs.get("ruling"):
            raise serializers.ValidationError({"ruling": "a dismissal carries no ruling"})
        return attrs


class DisputeSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    dispute = serializers.IntegerField()
    player = serializers.IntegerField(help_text="Who opened it (player id).")
    hand_number = serializers.IntegerField(allow_null=True)
    statement = serializers.CharField()
    opened_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(allow_null=True, help_text="Its DisputeOpened event.")
    comments = serializers.ListField(child=serializers.DictField())
    status = serializers.ChoiceField(choices=["open", "ruled", "dismissed"])
    reason = serializers.CharField(allow_null=True)
    by = serializers.CharField(allow_null=True, help_text="Who resolved it.")


class DisputeListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["open", "closed"], required=False)
