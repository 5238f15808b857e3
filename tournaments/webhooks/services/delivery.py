"""Sending a delivery: claim it (a lease), post it signed, record the outcome, retry with
backoff."""

from __future__ import annotations

import datetime as dt
import json
import logging
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from core.transactions import write_service
from tournaments import jobs
from tournaments.webhooks import guard, sending, signing
from tournaments.webhooks.models import Delivery
from tournaments.webhooks.services._common import _EARLY, setting

log = logging.getLogger(__name__)


# --- sending -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Claim:
    delivery_id: int
    lease: uuid.UUID
    attempt: int
    uid: uuid.UUID
    url: str
    secret: str
    payload: dict[str, Any]


def retry_delay(*, attempts: int, rand: Callable[[], float] = random.random) -> float:
    """Seconds before the next attempt after `attempts` failed ones: exponential
    (WEBHOOK_BACKOFF_SECONDS doubled each time, at most WEBHOOK_BACKOFF_MAX_SECONDS), with
    jitter (between half and all of it) so that many failed deliveries do not come back at
    the same moment."""
    base = setting("WEBHOOK_BACKOFF_SECONDS", 30.0)
    cap = setting("WEBHOOK_BACKOFF_MAX_SECONDS", 3600.0)
    delay = min(cap, base * 2 ** max(attempts - 1, 0))
    return delay / 2 + rand() * delay / 2


def _timeout() -> float:
    return setting("WEBHOOK_TIMEOUT_SECONDS", 10.0)


def _lease_seconds() -> float:
    # Longer than an attempt can take (DNS, connect, send, read), so a lease only runs out
    # on a worker that died.
    return 3 * _timeout() + 2


def body_bytes(payload: dict[str, Any]) -> bytes:
    """A delivery's body: its payload as compact JSON, keys sorted (the same bytes on
    every attempt)."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def delivery_send(*, delivery_id: int) -> str:
    """One attempt at a delivery, if it is pending, due, and nobody else is sending it.
    Answers what happened: "delivered", "retry", "parked", "busy" (another worker holds it:
    tried again when its lease ends), "skipped" (not pending, not due, removed)."""
    claim = _attempt_claim(delivery_id=delivery_id)
    if isinstance(claim, dt.datetime):
        jobs.webhook_deliver_on_commit(delivery_id=delivery_id, eta=claim)
        return "busy"
    if claim is None:
        return "skipped"
    body = body_bytes(claim.payload)
    headers = {
        signing.SIGNATURE_HEADER: signing.signature_header(secret=claim.secret, body=body),
        "X-HG-Event-Id": str(claim.payload["event_id"]),
        "X-HG-Event-Position": str(claim.payload["position"]),
        "X-HG-Event-Type": str(claim.payload["type"]),
        "X-HG-Tournament": str(claim.payload["tournament"]),
        "X-HG-Delivery": str(claim.uid),
        "X-HG-Attempt": str(claim.attempt),
    }
    try:
        target = guard.url_check(claim.url)  # again: the host may resolve elsewhere now
    except guard.WebhookUrlError as exc:
        outcome = sending.Outcome(status_code=None, latency_ms=0, response="", error=exc.message)
    else:
        outcome = sending.post(target=target, body=body, headers=headers, timeout=_timeout())
    return _attempt_record(claim=claim, outcome=outcome)


@write_service
def _attempt_claim(*, delivery_id: int) -> _Claim | dt.datetime | None:
    now = timezone.now()
    delivery = (
        Delivery.objects.select_for_update(of=("self",))
        .select_related("endpoint")
        .filter(pk=delivery_id)
        .first()
    )
    if delivery is None or delivery.status != Delivery.Status.PENDING:
        return None
    if not delivery.endpoint.is_active:
        return None  # paused: the reconciler picks it up once active again
    if delivery.next_attempt_at and delivery.next_attempt_at > now + _EARLY:
        return None  # early: the job queued for its time will come (or the reconciler)
    if delivery.leased_until and delivery.leased_until > now:
        return delivery.leased_until
    delivery.attempts += 1
    delivery.lease = uuid.uuid4()
    delivery.leased_until = now + dt.timedelta(seconds=_lease_seconds())
    delivery.last_attempt_at = now
    delivery.save(update_fields=["attempts", "lease", "leased_until", "last_attempt_at"])
    return _Claim(
        delivery_id=delivery.pk,
        lease=delivery.lease,
        attempt=delivery.attempts,
        uid=delivery.uid,
        url=delivery.endpoint.url,
        secret=delivery.endpoint.secret,
        payload=delivery.payload,
    )


@write_service
def _attempt_record(*, claim: _Claim, outcome: sending.Outcome) -> str:
    delivery = Delivery.objects.select_for_update().filter(pk=claim.delivery_id).first()
    if delivery is None:
        return "skipped"  # the endpoint was removed meanwhile
    now = timezone.now()
    delivery.last_status_code = outcome.status_code
    delivery.last_latency_ms = outcome.latency_ms
    delivery.last_response = outcome.response
    delivery.last_error = outcome.error
    ours = delivery.lease == claim.lease
    if ours:
        delivery.lease, delivery.leased_until = None, None
    if outcome.ok and delivery.status != Delivery.Status.DELIVERED:
        delivery.status = Delivery.Status.DELIVERED
        delivery.delivered_at, delivery.next_attempt_at = now, None
        result = "delivered"
    elif outcome.ok or not ours or delivery.status != Delivery.Status.PENDING:
        result = "skipped"  # delivered already, or taken over after our lease ran out
    elif delivery.attempts >= int(setting("WEBHOOK_MAX_ATTEMPTS", 8)):
        delivery.status, delivery.next_attempt_at = Delivery.Status.PARKED, None
        result = "parked"
    else:
        delivery.next_attempt_at = now + dt.timedelta(
            seconds=retry_delay(attempts=delivery.attempts)
        )
        jobs.webhook_deliver_on_commit(delivery_id=delivery.pk, eta=delivery.next_attempt_at)
        result = "retry"
    delivery.save()
    if result == "parked":
        log.warning("webhook delivery %s parked after %s attempts", delivery.pk, delivery.attempts)
    return result
