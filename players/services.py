"""Writes about players: creating players with or without a login; issuing API tokens."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from rest_framework.authtoken.models import Token

from core.errors import ValidationError
from core.transactions import write_service
from players.models import Club, Player


@write_service
def player_create(
    *,
    name: str,
    username: str | None = None,
    password: str | None = None,
    email: str = "",
    club: Club | None = None,
    is_bot: bool = False,
) -> Player:
    """Create a player; with a username, also the login it plays with."""
    user = None
    if username:
        user_model = get_user_model()
        if user_model.objects.filter(username=username).exists():
            raise ValidationError(
                f"username {username!r} is taken",
                code="username_taken",
            )
        user = user_model.objects.create_user(username=username, password=password, email=email)
    return Player.objects.create(user=user, name=name, club=club, is_bot=is_bot)


def auth_token_issue(*, user: AbstractBaseUser) -> str:
    """The user's API token (created on first use; the same one afterwards)."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
