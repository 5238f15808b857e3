"""Authentication classes named in settings. Kept apart from config/api.py: a class named in
DEFAULT_AUTHENTICATION_CLASSES is imported while rest_framework.views is being imported, so
its module must not import views (or drf-spectacular) itself."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from rest_framework import authentication, exceptions
from rest_framework.request import Request


class PlayerTokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, loading the caller's player in the same query: every game
    request needs it, and this saves a database round trip per request."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        model = self.get_model()
        try:
            token = model.objects.select_related("user", "user__player").get(key=key)
        except model.DoesNotExist:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return (token.user, token)


def request_player(request: Request) -> Any:
    """The caller's player (or None), without a query when the authentication loaded it."""
    try:
        return request.user.player
    except (ObjectDoesNotExist, AttributeError):
        return None
