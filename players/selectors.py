"""Reads about players and roles."""

from __future__ import annotations

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
