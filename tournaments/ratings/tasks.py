"""Celery jobs of the ratings. Thin and idempotent: the service's guard (the tournament
stream version a period reflects) makes a second delivery do nothing, so `acks_late`."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from eventstore import ConcurrencyError
from tournaments.ratings import services

_RETRYING: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError, ConcurrencyError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}


@shared_task(name="ratings.tournament_sync", **_RETRYING)
def tournament_sync(tournament_id: int) -> str:
    return services.club_ratings_sync(tournament_id=tournament_id)


@shared_task(name="ratings.reconcile", **_RETRYING)
def reconcile() -> list[int]:
    return services.club_ratings_reconcile()
