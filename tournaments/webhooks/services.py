"""Webhook commands: register, change and remove endpoints (organisers and staff), turn a
tournament's new events into deliveries (the outbox, past each endpoint's cursor), send
one delivery (claim, POST, record), redeliver.

At least once: a delivery row is written in the same transaction that moves its
endpoint's cursor past the event, so an event is either still ahead of the cursor or has
its row; a pending row has a job queued after commit, and beat's `webhooks_reconcile`
queues any whose job was lost. A send is claimed (attempt counted, a lease taken) in one
short transaction, the POST made outside any transaction, and the result recorded in
another; a worker killed between the two leaves the lease to expire, and the job (acks
late) or the reconciler sends it again: the receiver may get an event twice, always with
the same event id and position, never a different event under them.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone

from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from core.transactions import write_service
from tournaments import jobs
from tournaments import selectors as tournament_selectors
from tournaments.domain import EVENT_TYPES
from tournaments.models import Tournament
from tournaments.webhooks import guard, sending, signing
from tournaments.webhooks.models import Delivery, WebhookEndpoint
from tournaments.webhooks.selectors import (
    deliveries_due,
    endpoints_behind,
    events_to_send,
)

log = logging.getLogger(__name__)

MAX_ENDPOINTS_PER_TOURNAMENT = 10
# A job may start this much before its delivery's time (clocks of different workers).
_EARLY = dt.timedelta(milliseconds=100)


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


# --- endpoints -----------------------------------------------------------------------------


def _organiser_check(*, tournament: Tournament, by: Any) -> None:
    if not tournament_selectors.user_can_organise(user=by, tournament=tournament):
        raise PermissionDeniedError("only the tournament's organisers and staff manage webhooks")


def _event_types_clean(event_types: list[str] | None) -> list[str]:
    chosen = list(dict.fromkeys(event_types or []))
    unknown = [t for t in chosen if t not in EVENT_TYPES]
    if unknown:
        raise ValidationError(f"unknown event type {unknown[0]!r}", code="event_types")
    return chosen


@dataclass(frozen=True)
class EndpointWritten:
    endpoint: WebhookEndpoint
    secret: str | None  # the secret in full: on creation and rotation only, never again


def webhook_create(
    *,
    tournament_id: Any,
    by: Any,
    url: str,
    event_types: list[str] | None = None,
    description: str = "",
) -> EndpointWritten:
    """Register an endpoint; its events start after the tournament's current version. The
    URL is resolved and checked first, outside the transaction (a slow DNS answer holds no
    lock)."""
    types = _event_types_clean(event_types)
    guard.url_check(url)
    return _webhook_create(
        tournament_id=tournament_id, by=by, url=url, event_types=types, description=description
    )


@write_service
def _webhook_create(
    *, tournament_id: Any, by: Any, url: str, event_types: list[str], description: str
) -> EndpointWritten:
    tournament = tournament_selectors.tournament_lock(tournament_id=tournament_id)
    _organiser_check(tournament=tournament, by=by)
    if (
        WebhookEndpoint.objects.filter(tournament=tournament).count()
        >= MAX_ENDPOINTS_PER_TOURNAMENT
    ):
        raise ConflictError(
            f"a tournament has at most {MAX_ENDPOINTS_PER_TOURNAMENT} webhooks",
            code="too_many_webhooks",
        )
    secret = signing.secret_generate()
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament,
        url=url,
        event_types=event_types,
        description=description,
        secret=secret,
        secret_prefix=_prefix(secret),
        cursor=tournament.version,
        created_by=by if getattr(by, "pk", None) else None,
    )
    return EndpointWritten(endpoint=endpoint, secret=secret)


def _prefix(secret: str) -> str:
    return secret[: len(signing.SECRET_PREFIX) + 4]


def webhook_update(
    *,
    tournament_id: Any,
    webhook_id: Any,
    by: Any,
    url: str | None = None,
    event_types: list[str] | None = None,
    description: str | None = None,
    is_active: bool | None = None,
    rotate_secret: bool = False,
) -> EndpointWritten:
    """Change an endpoint; a new URL is checked again (first, outside the transaction).
    `rotate_secret`: a new secret, shown in this answer only (the old one stops signing at
    once). Reactivated, an endpoint resumes where its cursor stopped."""
    if url is not None:
        guard.url_check(url)
    return _webhook_update(
        tournament_id=tournament_id,
        webhook_id=webhook_id,
        by=by,
        url=url,
        event_types=None if event_types is None else _event_types_clean(event_types),
        description=description,
        is_active=is_active,
        rotate_secret=rotate_secret,
    )


@write_service
def _webhook_update(
    *,
    tournament_id: Any,
    webhook_id: Any,
    by: Any,
    url: str | None,
    event_types: list[str] | None,
    description: str | None,
    is_active: bool | None,
    rotate_secret: bool,
) -> EndpointWritten:
    tournament = tournament_selectors.tournament_get(tournament_id=tournament_id)
    _organiser_check(tournament=tournament, by=by)
    endpoint = _endpoint_lock(tournament=tournament, webhook_id=webhook_id)
    if url is not None:
        endpoint.url = url
    if event_types is not None:
        endpoint.event_types = event_types
    if description is not None:
        endpoint.description = description
    if is_active is not None:
        endpoint.is_active = is_active
    secret = None
    if rotate_secret:
        secret = signing.secret_generate()
        endpoint.secret, endpoint.secret_prefix = secret, _prefix(secret)
    endpoint.save()
    if endpoint.is_active:
        jobs.webhooks_dispatch_on_commit(tournament_id=tournament.pk)  # resumed: catch up
    return EndpointWritten(endpoint=endpoint, secret=secret)


@write_service
def webhook_delete(*, tournament_id: Any, webhook_id: Any, by: Any) -> None:
    """Remove an endpoint and its delivery log; jobs still queued for it do nothing."""
    tournament = tournament_selectors.tournament_get(tournament_id=tournament_id)
    _organiser_check(tournament=tournament, by=by)
    _endpoint_lock(tournament=tournament, webhook_id=webhook_id).delete()


def _endpoint_lock(*, tournament: Tournament, webhook_id: Any) -> WebhookEndpoint:
    try:
        return WebhookEndpoint.objects.select_for_update().get(pk=webhook_id, tournament=tournament)
    except (WebhookEndpoint.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such webhook") from exc


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
    made = _deliveries_make_in_tx(endpoint=endpoint, events=events)
    endpoint.cursor = events[-1]["position"]
    endpoint.save(update_fields=["cursor", "updated_at"])
    return made


def _deliveries_make_in_tx(*, endpoint: WebhookEndpoint, events: list[dict[str, Any]]) -> int:
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
    base = _setting("WEBHOOK_BACKOFF_SECONDS", 30.0)
    cap = _setting("WEBHOOK_BACKOFF_MAX_SECONDS", 3600.0)
    delay = min(cap, base * 2 ** max(attempts - 1, 0))
    return delay / 2 + rand() * delay / 2


def _timeout() -> float:
    return _setting("WEBHOOK_TIMEOUT_SECONDS", 10.0)


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
    elif delivery.attempts >= int(_setting("WEBHOOK_MAX_ATTEMPTS", 8)):
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
    _organiser_check(tournament=tournament, by=by)
    endpoint = _endpoint_lock(tournament=tournament, webhook_id=webhook_id)
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
    _organiser_check(tournament=tournament, by=by)
    if from_position < 1:
        raise ValidationError("from_position starts at 1", code="from_position")
    endpoint = _endpoint_lock(tournament=tournament, webhook_id=webhook_id)
    if from_position > endpoint.cursor:
        return 0
    events = events_to_send(tournament=tournament, after=from_position - 1, up_to=endpoint.cursor)
    _deliveries_make_in_tx(endpoint=endpoint, events=events)  # missing rows, queued
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
