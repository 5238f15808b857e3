"""Celery jobs of webhooks. Thin: ids in, one service call. Every job may run twice (acks
late after a worker died, the reconciler, a redelivery): the services guard with the
delivery's status, due time and lease, and the outbox's unique rows, so a repeat sends
nothing more than at-least-once allows.

The retries of a failed POST are not Celery's: each attempt is recorded on the delivery and
the next one queued at its time (backoff and jitter in `services.retry_delay`), so the log
shows every attempt and a parked delivery stays visible. Celery retries only database
hiccups here.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from tournaments.webhooks.services import delivery_send, webhooks_dispatch, webhooks_reconcile

_RETRYING: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}


@shared_task(name="tournaments.webhooks_dispatch", **_RETRYING)
def webhooks_dispatch_task(tournament_id: int) -> int:
    """The tournament's new events become deliveries (each queued)."""
    return webhooks_dispatch(tournament_id=tournament_id)


@shared_task(name="tournaments.webhook_deliver", **_RETRYING)
def webhook_deliver_task(delivery_id: int) -> str:
    """One attempt at a delivery, if it is still due and nobody else is sending it."""
    return delivery_send(delivery_id=delivery_id)


@shared_task(name="tournaments.webhooks_reconcile", **_RETRYING)
def webhooks_reconcile_task() -> int:
    """Periodic (beat): deliveries for events no job looked at, jobs for deliveries whose
    job was lost."""
    return webhooks_reconcile()
