"""The webhooks' outbox: a tournament's events past an endpoint's cursor become deliveries,
and the reconciler catches what a lost job left behind."""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from core.transactions import write_service
from tournaments import jobs
from tournaments.webhooks.models import Delivery, WebhookEndpoint
from tournaments.webhooks.selectors import (
    events_to_send,
)

log = logging.getLogger(__name__)


# --- the outbox: events past the cursor become deliveries -----------------------------------


def webhooks_dispatch(*, tournament_id: Any) -> int:
    """Turn the tournament's events past each active endpoint's cursor into deliveries (one
    transaction per endpoint) and queue them. Idempotent. The number of deliveries made."""
    ids = WebhookEndpoint.objects.filter(tournament_id=tournament_id, is_active=True)
    return sum(_endpoint_dispatch(endpoint_id=pk) for pk in ids.values_list("pk", flat=True))


@write_service
def _endpoint_dispatch(*, endpoint_id: int) -> int:
    endpoint = (
        WebhookEndpoint.objects.select_for_update()
        .select_related("tournament")
        .filter(pk=endpoint_id, is_active=True)
        .first()
    )
    if endpoint is None:
        return 0
    events = events_to_send(tournament=endpoint.tournament, after=endpoint.cursor)
    if not events:
        return 0
    made = deliveries_make_in_tx(endpoint=endpoint, events=events)
    endpoint.cursor = events[-1]["position"]
    endpoint.save(update_fields=["cursor", "updated_at"])
    return made


def deliveries_make_in_tx(*, endpoint: WebhookEndpoint, events: list[dict[str, Any]]) -> int:
    """A pending delivery per wanted event (none twice: unique endpoint + position), each
    queued after commit. The number made."""
    wanted = [e for e in events if not endpoint.event_types or e["type"] in endpoint.event_types]
    if not wanted:
        return 0
    now = timezone.now()
    Delivery.objects.bulk_create(
        [
            Delivery(
                endpoint=endpoint,
                event_id=e["event_id"],
                event_position=e["position"],
                event_type=e["type"],
                payload=e,
                next_attempt_at=now,
            )
            for e in wanted
        ],
        ignore_conflicts=True,
    )
    made = Delivery.objects.filter(
        endpoint=endpoint,
        event_position__in=[e["position"] for e in wanted],
        status=Delivery.Status.PENDING,
        attempts=0,
    ).values_list("pk", flat=True)
    for pk in made:
        jobs.webhook_deliver_on_commit(delivery_id=pk)
    return len(wanted)
