"""Celery jobs of the shared kernel. Thin: one call each."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from core.idempotency import idempotency_records_expire
from core.outbox import outbox_drain, outbox_prune


@shared_task(
    name="core.idempotency_records_expire",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def idempotency_records_expire_task() -> int:
    """Beat runs it hourly; running it twice deletes nothing more."""
    return idempotency_records_expire()


@shared_task(
    name="core.outbox_drain",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=3,
)
def outbox_drain_task() -> int:
    """Beat runs it every few seconds: the jobs whose relay after commit failed."""
    sent = outbox_drain()
    outbox_prune()
    return sent
