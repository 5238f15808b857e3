"""Input and output shapes of the players API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from players.models import Club, Player


class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class PlayerOutputSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", allow_null=True, default=None)

    class Meta:
        model = Player
        fields = ["id", "name", "username", "club", "is_bot", "rating", "created_at"]
        read_only_fields = fields


class PlayerCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    username = serializers.CharField(max_length=150, required=False, help_text="The login.")
    password = serializers.CharField(
        required=False, write_only=True, min_length=8, trim_whitespace=False
    )
    email = serializers.EmailField(required=False, default="")
    club = serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), required=False, allow_null=True, default=None
    )
    is_bot = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("username")) != bool(attrs.get("password")):
            raise serializers.ValidationError("username and password go together.")
        return attrs
