"""Webhook delivery logs kept for WEBHOOK_DELIVERIES_KEEP_DAYS, then deleted (the retention
job: core.retention). A delivery holds the payload sent and the receiver's first bytes of
answer; only finished ones go (delivered or parked), never one still pending. The endpoint's
cursor, not the deliveries, says which events were turned into deliveries, so deleting old
ones makes nothing be sent again; a deleted delivery can no longer be redelivered by hand."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

from core.retention import delete_in_batches
from tournaments.webhooks.models import Delivery


def deliveries_prune() -> int:
    """Finished deliveries created more than WEBHOOK_DELIVERIES_KEEP_DAYS ago, in batches."""
    cut = timezone.now() - dt.timedelta(days=float(settings.WEBHOOK_DELIVERIES_KEEP_DAYS))
    finished = [Delivery.Status.DELIVERED, Delivery.Status.PARKED]
    return delete_in_batches(Delivery.objects.filter(status__in=finished, created_at__lt=cut))
