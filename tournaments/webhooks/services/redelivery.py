"""Redelivery by hand (one delivery, or every event from a position on) and the periodic
reconciler."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.utils import timezone

from core.errors import NotFoundError, ValidationError
from core.transactions import write_service
from tournaments import jobs
from tournaments import selectors as tournament_selectors
from tournaments.webhooks.models import Delivery
from tournaments.webhooks.selectors import (
    deliveries_due,
    endpoints_behind,
    events_to_send,
)
from tournaments.webhooks.services.dispatch import deliveries_make_in_tx, webhooks_dispatch
from tournaments.webhooks.services.endpoints import endpoint_lock, organiser_check

log = logging.getLogger(__name__)


# --- redelivery and the reconciler -----------------------------------------------------------


def _pending_again(delivery: Delivery, now: dt.datetime) -> None:
    delivery.status = Delivery.Status.PENDING
    delivery.attempts = 0
    delivery.next_attempt_at = now
    delivery.delivered_at = None
    delivery.redelivered_at = now
    delivery.redeliveries += 1


@write_service
def delivery_redeliver(
    *, tournament_id: Any, webhook_id: Any, delivery_id: Any, by: Any
) -> Delivery:
    """Send one delivery again (delivered or parked: with a fresh count of attempts)."""
    tournament = tournament_selectors.tournament_get(tournament_id=tournament_id)
    organiser_check(tournament=tournament, by=by)
    endpoint = endpoint_lock(tournament=tournament, webhook_id=webhook_id)
    try:
        delivery = Delivery.objects.select_for_update().get(pk=delivery_id, endpoint=endpoint)
    except (Delivery.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such delivery") from exc
    _pending_again(delivery, timezone.now())
    delivery.save()
    jobs.webhook_deliver_on_commit(delivery_id=delivery.pk)
    return delivery


@write_service
def webhook_redeliver_from(
    *, tournament_id: Any, webhook_id: Any, from_position: int, by: Any
) -> int:
    """Send again every wanted event of the tournament from `from_position` (its version in
    the stream) up to the endpoint's cursor, also those from before the endpoint existed;
    later events come anyway. The number of deliveries queued."""
    tournament = tournament_selectors.tournament_get(tournament_id=tournament_id)
    organiser_check(tournament=tournament, by=by)
    if from_position < 1:
        raise ValidationError("from_position starts at 1", code="from_position")
    endpoint = endpoint_lock(tournament=tournament, webhook_id=webhook_id)
    if from_position > endpoint.cursor:
        return 0
    events = events_to_send(tournament=tournament, after=from_position - 1, up_to=endpoint.cursor)
    deliveries_make_in_tx(endpoint=endpoint, events=events)  # missing rows, queued
    now = timezone.now()
    again = list(
        Delivery.objects.select_for_update()
        .filter(endpoint=endpoint, event_position__gte=from_position)
        .exclude(status=Delivery.Status.PENDING, attempts=0)  # made just now, or not yet sent
    )
    for delivery in again:
        _pending_again(delivery, now)
        jobs.webhook_deliver_on_commit(delivery_id=delivery.pk)
    fields = ["status", "attempts", "next_attempt_at", "delivered_at", "redelivered_at"]
    Delivery.objects.bulk_update(again, [*fields, "redeliveries"])
    return Delivery.objects.filter(
        endpoint=endpoint, event_position__gte=from_position, status=Delivery.Status.PENDING
    ).count()


def webhooks_reconcile(*, now: dt.datetime | None = None) -> int:
    """Periodic (beat): make the deliveries of events no job turned into deliveries, and
    queue the pending deliveries whose job was lost. The number of jobs queued."""
    for tournament_id in set(endpoints_behind().values_list("tournament_id", flat=True)):
        webhooks_dispatch(tournament_id=tournament_id)
    # A little grace, so that a delivery whose own job is just due is not queued twice
    # (twice would be harmless: the claim lets one through).
    moment = (now or timezone.now()) - dt.timedelta(seconds=2)
    due = deliveries_due(now=moment)
    for pk in due:
        jobs.webhook_deliver_on_commit(delivery_id=pk)
    return len(due)
