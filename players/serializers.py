"""Input and output shapes of the players API."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from players.models import Club, Player


class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")
    id = serializers.IntegerField(help_text="The token's id in `/api/auth/tokens/`.")
    expires_at = serializers.DateTimeField(
        allow_null=True, help_text="When it stops working (a login's: TOKEN_LOGIN_HOURS)."
    )


class AccessTokenOutputSerializer(serializers.Serializer):
    """One of the caller's tokens, without its key (shown once, when it was issued)."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["login", "named"])
    name = serializers.CharField(allow_blank=True)
    prefix = serializers.CharField(
        help_text="The key's first 11 signs (`hg_` and 8 more), to tell tokens apart."
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True, help_text="null: never.")
    current = serializers.SerializerMethodField(help_text="This request's own token.")

    def get_current(self, token: Any) -> bool:
        return getattr(self.context.get("current"), "pk", None) == token.pk and isinstance(
            self.context.get("current"), type(token)
        )


class NamedTokenInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="What it is for, e.g. `club bot`.")
    expires_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Optional; none: until revoked."
    )


class NamedTokenOutputSerializer(AccessTokenOutputSerializer):
    token = serializers.CharField(help_text="The key: shown this once.")


class PlayerOutputSerializer(serializers.ModelSerializer):
    """A player. The login (`username`) is shown to the player themselves, organisers and
    staff only (the context's `show_logins`, or the player's own user as `viewer`); null
    for anyone else."""

    username = serializers.SerializerMethodField(
        help_text="The login: for the player, organisers and staff; null for anyone else."
    )

    class Meta:
        model = Player
        fields = ["id", "name", "username", "club", "is_bot", "created_at"]
        read_only_fields = fields

    def get_username(self, obj: Player) -> str | None:
        if obj.user_id is None:
            return None
        viewer = self.context.get("viewer")
        if self.context.get("show_logins") or (viewer is not None and viewer.pk == obj.user_id):
            return obj.user.username
        return None


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
            raise serializers.ValidationError(gettext("username and password go together."))
        return attrs
