"""Reads about players and roles."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

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
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()
