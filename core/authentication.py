"""Authentication classes named in settings. Kept apart from core/api.py: a class named in
DEFAULT_AUTHENTICATION_CLASSES is imported while rest_framework.views is being imported, so
its module must not import views (or drf-spectacular) itself.

The kernel knows no app: the user's profile loaded with the token (our players) is named by
the `TOKEN_PROFILE_MODEL` setting ("app_label.Model", with a one-to-one `user` field)."""

from __future__ import annotations

import functools
import hashlib
import secrets
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from core.language import account_language_apply
from core.prepared import PreparedStatement, model_columns, model_from_row


def _profile_model() -> Any:
    """The model of the users' profiles (players), from the TOKEN_PROFILE_MODEL setting."""
    return apps.get_model(settings.TOKEN_PROFILE_MODEL)


class ProfileTokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, loading the caller's profile (player) in the same query:
    every game request needs it, and this saves a database round trip per request.

    The query is written as SQL and, on PostgreSQL, prepared: every API request runs it,
    and the ORM's building of it cost more than the rest of a trivial request (0.9 of
    2.2 ms of CPU per request, measured in process)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        scheme = authentication.get_authorization_header(request).split()[:1]
        if scheme and scheme[0].lower() == b"bearer":  # OAuth's habit: say what is expected
            raise exceptions.AuthenticationFailed(
                gettext("Send the token with the Token scheme: Authorization: Token <key>."),
                code="wrong_scheme",
            )
        result = super().authenticate(request)
        if result is not None:  # the account's language, unless Accept-Language names one
            account_language_apply(getattr(request, "_request", request), result[0])
        return result

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        """An access token (core.models.AccessToken: looked up by the digest of the key,
        refused once expired or revoked, each with its reason); else a token of DRF's table,
        made before access tokens (they do not expire; revoking deletes them)."""
        if key.startswith(ACCESS_TOKEN_PREFIX):  # one query either way: the key says where
            access_model = apps.get_model("core", "AccessToken")
            row = _token_row(access_model, token_digest(key), "digest")
            if row is None:
                raise exceptions.AuthenticationFailed("Invalid token.", code="token_invalid")
            token, user = _token_from_row(access_model, row)
            if token.revoked_at is not None:
                raise exceptions.AuthenticationFailed(
                    gettext("This token was revoked: log in again."), code="token_revoked"
                )
            if token.expires_at is not None and token.expires_at <= timezone.now():
                raise exceptions.AuthenticationFailed(
                    gettext(
                        "This token has expired: log in again (renew a token before it"
                        " expires: POST /api/auth/token/refresh/)."
                    ),
                    code="token_expired",
                )
        else:
            legacy_model = self.get_model()
            row = _token_row(legacy_model, key, legacy_model._meta.pk.name)
            if row is None:
                raise exceptions.AuthenticationFailed("Invalid token.", code="token_invalid")
            token, user = _token_from_row(legacy_model, row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.", code="user_inactive")
        return (user, token)


# Why a token is refused (401 `authentication_failed`, its `reason`): the codes above.
AUTHENTICATION_REASONS = (
    "wrong_scheme", "token_invalid", "token_revoked", "token_expired", "user_inactive",
)  # fmt: skip


# An access token's key: this prefix and 40 hex digits (DRF's older keys: 40 hex digits).
ACCESS_TOKEN_PREFIX = "hg_"


def access_token_key() -> str:
    return ACCESS_TOKEN_PREFIX + secrets.token_hex(20)


def token_digest(key: str) -> str:
    """What is stored of an access token's key: its SHA-256 (the key itself is shown once).
    A key holds 160 random bits, so a plain hash is enough: no salt, no slow hash."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def request_profile(request: Request) -> Any:
    """The caller's profile (player) or None, without a query when the authentication loaded
    it."""
    accessor = _profile_accessor(_profile_model())
    try:
        return getattr(request.user, accessor)
    except (ObjectDoesNotExist, AttributeError):
        return None


@functools.cache
def _profile_accessor(profile_model: Any) -> str:
    """The name of the user's reverse one-to-one to its profile (`user.player`)."""
    return profile_model._meta.get_field("user").remote_field.get_accessor_name()


def _token_row(token_model: Any, key: str, field: str) -> tuple | None:
    if connection.vendor == "postgresql":
        sql, params = _token_statement(token_model, field).statement([key])
    else:
        sql, params = _token_query(token_model, "%s", field), [key]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _token_from_row(token_model: Any, row: tuple) -> tuple[Any, Any]:
    """The token, its user and the user's player (or the knowledge that there is none), as
    `select_related("user", "user__player")` would have loaded them."""
    Player = _profile_model()  # noqa: N806 - a model class
    user_model = get_user_model()
    token_width = len(token_model._meta.concrete_fields)
    user_width = len(user_model._meta.concrete_fields)
    token = model_from_row(token_model, row[:token_width])
    user = model_from_row(user_model, row[token_width : token_width + user_width])
    player_values = row[token_width + user_width :]
    player = model_from_row(Player, player_values) if player_values[0] is not None else None
    token.user = user
    # The reverse one-to-one's cache, None included: `user.player` then costs no query.
    getattr(user_model, _profile_accessor(Player)).related.set_cached_value(user, player)
    if player is not None:
        Player.user.field.set_cached_value(player, user)
    return token, user


@functools.cache
def _token_statement(token_model: Any, field: str) -> PreparedStatement:
    name = f"token_auth_{token_model._meta.db_table}"
    return PreparedStatement(name, _token_query(token_model, "$1", field), 1)


@functools.cache
def _token_query(token_model: Any, placeholder: str, field: str) -> str:
    """The token, its user and the user's player, if any; columns named (core.prepared)."""
    Player = _profile_model()  # noqa: N806 - a model class
    user_model = get_user_model()
    quote = connection.ops.quote_name
    token_table, user_table = token_model._meta.db_table, user_model._meta.db_table
    player_user = quote(Player._meta.get_field("user").column)
    token_user = quote(token_model._meta.get_field("user").column)
    user_pk = quote(user_model._meta.pk.column)
    return (
        f"SELECT {model_columns(token_model, 't')}, {model_columns(user_model, 'u')},"
        f" {model_columns(Player, 'p')}"
        f" FROM {quote(token_table)} AS t"
        f" JOIN {quote(user_table)} AS u ON u.{user_pk} = t.{token_user}"
        f" LEFT JOIN {quote(Player._meta.db_table)} AS p ON p.{player_user} = u.{user_pk}"
        f" WHERE t.{quote(token_model._meta.get_field(field).column)} = {placeholder}"
    )
