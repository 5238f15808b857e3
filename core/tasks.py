"""Celery jobs of the shared kernel. Thin: one call each."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from core.idempotency import idempotency_records_expire
from core.outbox import outbox_drain
from core.retention import retention_run


@shared_task(
    name="core.idempotency_records_expire",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def idempotency_records_expire_task() -> int:
    """Kept for messages queued before 3.0.0: beat now runs `core.retention_run`, which
    expires these records with the other prunes. Running it twice deletes nothing more."""
    return idempotency_records_expire()


@shared_task(
    name="core.retention_run",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError, RuntimeError),
    retry_backoff=True,
    max_retries=5,
)
def retention_run_task() -> dict[str, int]:
    """Beat runs it hourly (RETENTION_SECONDS): each prune of RETENTION_PRUNES, batched.
    Running it twice deletes nothing more."""
    return retention_run()


@shared_task(
    name="core.outbox_drain",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=3,
)
def outbox_drain_task() -> int:
    """Beat runs it every few seconds: the jobs whose relay after commit failed. (Sent
    messages are deleted by the retention job: core.retention.)"""
    return outbox_drain()
