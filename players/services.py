"""Writes about players: creating players with or without a login; expiring the records
of idempotent requests."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from config.errors import ValidationError
from players.models import Club, IdempotencyRecord, Player


@transaction.atomic
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


def idempotency_records_expire(*, older_than: timedelta | None = None) -> int:
    """Delete the recorded responses of idempotent POSTs older than `older_than` (default:
    the IDEMPOTENCY_KEY_TTL_HOURS setting); returns how many. A retry with such a key after
    that runs as a new request. Deleting twice deletes nothing more: safe to repeat."""
    if older_than is None:
        older_than = timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS)
    cutoff = timezone.now() - older_than
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
