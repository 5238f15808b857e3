"""Players API: tokens, players, the caller's own player. Thin: validate, call, render."""

from __future__ import annotations

from typing import Any

import django_filters
from django.contrib.auth import authenticate, logout
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, status
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from core.api import LOGIN_THROTTLES, ApiPagination, error_responses
from core.authentication import request_profile as request_player
from core.errors import ApplicationError, NotFoundError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from core.login_throttle import LOCKED_OUT_MESSAGE, locked_out
from players.models import Player
from players.permissions import IsOrganiserForWrites
from players.selectors import auth_tokens_of, user_is_organiser
from players.serializers import (
    AccessTokenOutputSerializer,
    NamedTokenInputSerializer,
    NamedTokenOutputSerializer,
    PlayerCreateInputSerializer,
    PlayerOutputSerializer,
    TokenInputSerializer,
    TokenOutputSerializer,
)
from players.services import (
    auth_token_issue,
    auth_token_refresh,
    auth_token_revoke,
    auth_token_revoke_current,
    player_create,
)


class TokenApi(APIView):
    """POST: exchange a username and password for a new API token that lasts
    TOKEN_LOGIN_HOURS (throttled per client address and per account, apart from anonymous
    reads; failed logins lock either out for a while: core.login_throttle). DELETE: log
    out, revoking the token the request is made with."""

    throttle_classes = LOGIN_THROTTLES

    def get_authenticators(self) -> list:
        # Logging in needs no credentials (a stale token must not stand in the way of it).
        if self.request is not None and self.request.method == "POST":
            return []
        return super().get_authenticators()

    def get_permissions(self) -> list:
        if self.request.method == "POST":
            return [permissions.AllowAny()]
        return super().get_permissions()

    def get_throttles(self) -> list:
        if self.request.method == "POST":
            return super().get_throttles()
        return [throttle() for throttle in api_settings.DEFAULT_THROTTLE_CLASSES]

    @extend_schema(
        request=TokenInputSerializer,
        responses={200: TokenOutputSerializer, **error_responses(400)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # Django's own request: django-axes (core.login_throttle) marks it when it refuses
        # a locked-out account or address, and counts the failures on it.
        user = authenticate(request._request, **data.validated_data)
        if locked_out(request._request):
            raise Throttled(detail=LOCKED_OUT_MESSAGE)
        if user is None or not user.is_active:
            raise ApplicationError(
                "Unable to log in with these credentials.", code="invalid_credentials"
            )
        issued = auth_token_issue(user=user)
        return Response(
            {"token": issued.key, "id": issued.token.pk, "expires_at": issued.token.expires_at}
        )

    @extend_schema(responses={204: None, **error_responses()})
    def delete(self, request: Request) -> Response:
        if request.auth is not None:
            auth_token_revoke_current(user=request.user, token=request.auth)
        else:
            logout(request._request)  # signed in by the session: end it
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRefreshApi(APIView):
    """POST with a login's token: a new token with a whole lifetime (TOKEN_LOGIN_HOURS),
    the one sent revoked. A client renews before `expires_at` instead of asking for the
    password again; an expired or revoked token cannot be renewed (401, its `reason`)."""

    @extend_schema(request=None, responses={200: TokenOutputSerializer, **error_responses(400)})
    def post(self, request: Request) -> Response:
        issued = auth_token_refresh(user=request.user, token=request.auth)
        return Response(
            {"token": issued.key, "id": issued.token.pk, "expires_at": issued.token.expires_at}
        )


class TokenListApi(APIView):
    """The caller's own tokens (never their keys), in the envelope every list answers; a
    named, long-lived token for a bot or an integration (its key shown once), with an
    optional expiry."""

    pagination_class = ApiPagination  # also tells the schema the list is paginated

    @extend_schema(responses={200: AccessTokenOutputSerializer(many=True), **error_responses(400)})
    def get(self, request: Request) -> Response:
        paginator = ApiPagination()
        page = paginator.paginate_queryset(auth_tokens_of(user=request.user), request, view=self)
        context = {"current": request.auth}
        data = AccessTokenOutputSerializer(page, many=True, context=context).data
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=NamedTokenInputSerializer,
        responses={201: NamedTokenOutputSerializer, **error_responses(400, 409)},
    )
    def post(self, request: Request) -> Response:
        # Not idempotent on purpose: a replayed answer would keep the key in the
        # Idempotency-Key record. A retry makes a second token; revoke the one not used.
        data = NamedTokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        issued = auth_token_issue(user=request.user, **data.validated_data)
        body = dict(AccessTokenOutputSerializer(issued.token).data, token=issued.key)
        return Response(body, status=status.HTTP_201_CREATED)


class TokenDetailApi(APIView):
    @extend_schema(responses={204: None, **error_responses(404)})
    def delete(self, request: Request, token_id: int) -> Response:
        """Revoke one of the caller's tokens."""
        auth_token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _login_context(request: Request) -> dict:
    """Logins are for organisers and staff, and each player's own."""
    return {"viewer": request.user, "show_logins": user_is_organiser(user=request.user)}


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    username = django_filters.CharFilter(method="filter_username")
    # `true` or `false`; anything else is refused (400), not ignored as "no filter".
    is_bot = django_filters.TypedChoiceFilter(
        choices=[("true", "true"), ("false", "false")], coerce=lambda value: value == "true"
    )

    class Meta:
        model = Player
        fields = ["name", "username", "club", "is_bot"]

    def filter_username(self, queryset: Any, name: str, value: str) -> Any:
        """By login, for organisers and staff; anyone else finds only their own (the filter
        must not tell a stranger which logins exist)."""
        queryset = queryset.filter(user__username=value)
        user = getattr(self.request, "user", None)
        if user_is_organiser(user=user):
            return queryset
        return queryset.filter(user_id=getattr(user, "pk", None))


class PlayerListApi(generics.ListAPIView):
    """List players (anyone signed in); create a player with a login (organisers)."""

    permission_classes = [IsOrganiserForWrites]
    serializer_class = PlayerOutputSerializer
    pagination_class = ApiPagination
    filterset_class = PlayerFilter
    queryset = Player.objects.select_related("user").order_by("id")

    def get_serializer_context(self) -> dict:
        return {**super().get_serializer_context(), **_login_context(self.request)}

    @extend_schema(responses={200: PlayerOutputSerializer(many=True), **error_responses(400)})
    def get(self, request: Request) -> Response:
        return super().get(request)

    @extend_schema(
        request=PlayerCreateInputSerializer,
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={201: PlayerOutputSerializer, **error_responses(400, 403, 422)},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = PlayerCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_create(**data.validated_data)
        body = PlayerOutputSerializer(player, context=_login_context(request)).data
        return Response(body, status=status.HTTP_201_CREATED)


class PlayerDetailApi(generics.RetrieveAPIView):
    serializer_class = PlayerOutputSerializer
    queryset = Player.objects.select_related("user")

    def get_serializer_context(self) -> dict:
        return {**super().get_serializer_context(), **_login_context(self.request)}

    @extend_schema(responses={200: PlayerOutputSerializer, **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        return super().get(request, pk=pk)


class MeApi(APIView):
    """The caller's own player."""

    @extend_schema(responses={200: PlayerOutputSerializer, **error_responses(404)})
    def get(self, request: Request) -> Response:
        player = request_player(request)
        if player is None:
            raise NotFoundError("You have no player.")
        return Response(PlayerOutputSerializer(player, context={"viewer": request.user}).data)
