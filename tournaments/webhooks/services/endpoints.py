"""Webhook endpoints: an organiser registers, changes and removes them (configuration,
not the tournament's history: each change is logged)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from core.transactions import write_service
from tournaments import jobs
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament
from tournaments.webhooks import guard, signing
from tournaments.webhooks.models import WebhookEndpoint
from tournaments.webhooks.selectors import WEBHOOK_EVENT_TYPES, webhook_stream_head
from tournaments.webhooks.services._common import MAX_ENDPOINTS_PER_TOURNAMENT

log = logging.getLogger(__name__)


# --- endpoints -----------------------------------------------------------------------------


def organiser_check(*, tournament: Tournament, by: Any) -> None:
    if not tournament_selectors.user_can_organise(user=by, tournament=tournament):
        raise PermissionDeniedError("only the tournament's organisers and staff manage webhooks")


def _event_types_clean(event_types: list[str] | None) -> list[str]:
    chosen = list(dict.fromkeys(event_types or []))
    unknown = [t for t in chosen if t not in WEBHOOK_EVENT_TYPES]
    if unknown:
        raise ValidationError(
            gettext_noop("unknown event type %(type)r"),
            code="event_types",
            params={"type": unknown[0]},
        )
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
    tournament = _tournament_lock(tournament_id=tournament_id)
    organiser_check(tournament=tournament, by=by)
    if (
        WebhookEndpoint.objects.filter(tournament=tournament).count()
        >= MAX_ENDPOINTS_PER_TOURNAMENT
    ):
        raise ConflictError(
            gettext_noop("a tournament has at most %(most)s webhooks"),
            code="too_many_webhooks",
            params={"most": MAX_ENDPOINTS_PER_TOURNAMENT},
        )
    secret = signing.secret_generate()
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament,
        url=url,
        event_types=event_types,
        description=description,
        secret=secret,
        secret_prefix=_prefix(secret),
        cursor=webhook_stream_head(tournament=tournament),
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
    organiser_check(tournament=tournament, by=by)
    endpoint = endpoint_lock(tournament=tournament, webhook_id=webhook_id)
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
    organiser_check(tournament=tournament, by=by)
    endpoint_lock(tournament=tournament, webhook_id=webhook_id).delete()


def endpoint_lock(*, tournament: Tournament, webhook_id: Any) -> WebhookEndpoint:
    try:
        return WebhookEndpoint.objects.select_for_update().get(pk=webhook_id, tournament=tournament)
    except (WebhookEndpoint.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such webhook") from exc


def _tournament_lock(*, tournament_id: Any) -> Tournament:
    """The tournament row, locked until the end of the caller's transaction."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such tournament") from exc
