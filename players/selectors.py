"""Reads about players and roles."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ObjectDoesNotExist

from players.models import Player

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


def player_get(*, player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id).first()


def players_named(*, name: str) -> list[Player]:
    """The players whose name is `name` (case-insensitive), bots left out."""
    return list(Player.objects.filter(name__iexact=name, is_bot=False))
