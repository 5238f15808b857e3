"""Reads about players and roles."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q, QuerySet
from django.utils import timezone

from core.models import AccessToken
from players.models import Club, LoginCode, Player

ORGANISERS_GROUP = "organisers"


def user_is_organiser(*, user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Staff, members of the `organisers` group and organisers of any club may organise."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    if user.groups.filter(name=ORGANISERS_GROUP).exists():
        return True
    return user.organised_clubs.exists()


def player_for_user(*, user: AbstractBaseUser | AnonymousUser | None) -> Player | None:
    """The user's player, or None. No query when the user came with its player already
    loaded (core.authentication loads it with the token)."""
    if user is None or not user.is_authenticated:
        return None
    try:
        return user.player
    except ObjectDoesNotExist:
        return None


def player_list(*, exclude_ids: Iterable[int] = (), limit: int = 1000) -> list[Player]:
    """Players by name (bots left out), e.g. to pick one to enter in a tournament."""
    return list(Player.objects.filter(is_bot=False).exclude(pk__in=list(exclude_ids))[:limit])


def auth_tokens_of(*, user: AbstractBaseUser) -> QuerySet[AccessToken]:
    """The user's access tokens that have not expired and are not revoked, newest first."""
    now = timezone.now()
    live = Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    return AccessToken.objects.filter(live, user=user, revoked_at__isnull=True).order_by(
        "-created_at", "-id"
    )


def club_exists(*, club_id: int) -> bool:
    return Club.objects.filter(pk=club_id).exists()


def player_get(*, player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id).first()


def players_by_ids(*, ids: Iterable[int]) -> dict[int, Player]:
    return Player.objects.in_bulk(list(ids))


def players_named(*, name: str) -> list[Player]:
    """The players whose name is `name` (case-insensitive), bots left out."""
    return list(Player.objects.filter(name__iexact=name, is_bot=False))


def player_may_get_login_code(*, player: Player) -> bool:
    """A one-time login code is for a person with no password to sign in with: a player
    without a login, or whose login has no usable password. Never for a bot, an inactive
    login, or anyone who may organise (a code must not open an organiser's account)."""
    if player.is_bot:
        return False
    user = player.user
    if user is None:
        return True
    return user.is_active and not user.has_usable_password() and not user_is_organiser(user=user)


def login_codes_active(*, player_ids: Iterable[int]) -> dict[int, dt.datetime]:
    """For each of these players with an unused, unexpired login code: when it expires."""
    rows = LoginCode.objects.filter(
        player_id__in=list(player_ids),
        used_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).values_list("player_id", "expires_at")
    return dict(rows)
