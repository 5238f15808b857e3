"""Celery jobs of the event store. Thin: one call each."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from eventstore.checkpoints import checkpoints_take


@shared_task(
    name="eventstore.checkpoints_take",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def checkpoints_take_task() -> int:
    """Beat runs it periodically; a second delivery signs nothing more (no head moved)."""
    return checkpoints_take()
