"""Webhook endpoints and their delivery log (the outbox of each endpoint).

Imported by `tournaments.models`, so these are models of the tournaments app.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext


class WebhookEndpoint(models.Model):
    """Where a tournament's events are sent. `cursor` is the version, in the tournament's
    stream, of the last event turned into deliveries: everything after it is still to be
    looked at (a stream's versions are gap-free and committed in order, unlike global
    positions, so nothing can appear behind the cursor)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=2000)
    # Event types sent (tournaments.domain.EVENT_TYPES); empty: every type.
    event_types = models.JSONField(default=list, blank=True)
    description = models.CharField(max_length=200, blank=True)
    # Stored as is: the server needs it to sign. Shown once, on creation (and rotation);
    # afterwards only `secret_prefix`.
    secret = models.CharField(max_length=100)
    secret_prefix = models.CharField(max_length=16)
    is_active = models.BooleanField(default=True)
    cursor = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = "webhook endpoint"

    def __str__(self) -> str:
        return f"{self.url} ({self.tournament_id})"


class Delivery(models.Model):
    """One event for one endpoint, and the log of sending it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending (to send or retry)"
        DELIVERED = "delivered", "Delivered (2xx)"
        PARKED = "parked", "Parked (attempts used up)"

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    # The event: its id in the event store (global position) and its position (version)
    # in the tournament's stream.
    event_id = models.BigIntegerField()
    event_position = models.PositiveIntegerField()
    event_type = models.CharField(max_length=100)
    payload = models.JSONField()
    status = models.CharField(max_length=20, choices=Status.choices, default="pending")
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # Set while a worker sends it: nobody else claims it before then (a worker that died
    # mid-send leaves it to expire).
    leased_until = models.DateTimeField(null=True, blank=True)
    lease = models.UUIDField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_latency_ms = models.PositiveIntegerField(null=True, blank=True)
    last_response = models.TextField(blank=True)  # the first bytes of the receiver's answer
    last_error = models.TextField(blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    redelivered_at = models.DateTimeField(null=True, blank=True)
    redeliveries = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["endpoint", "event_position"]
        verbose_name_plural = "deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "event_position"], name="tournament_webhook_delivery_unique"
            )
        ]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="tournament_wh_due_idx"),
        ]

    def __str__(self) -> str:
        return gettext("%(event)s #%(position)s to %(endpoint)s: %(status)s") % {
            "event": self.event_type,
            "position": self.event_position,
            "endpoint": self.endpoint_id,
            "status": self.status,
        }
