"""Retention: rows that hold personal data or operational logs, deleted once old.

One beat job (`core.retention_run`, every RETENTION_SECONDS) calls each prune listed in the
RETENTION_PRUNES setting — dotted paths, named in config (the composition root), since the
shared kernel imports no app — and logs how many rows each deleted. Each prune deletes in
batches of RETENTION_BATCH_SIZE rows, one short transaction each, so a big table is never
locked for long and a killed run leaves nothing half done; running again deletes nothing
more than what has aged since. What is kept how long: docs/operators/privacy.md.

Events are never touched here: the log is immutable (request ids in their metadata stay).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.module_loading import import_string

from core.heartbeats import WORKER_PREFIX
from core.models import AccessToken, Heartbeat

log = logging.getLogger(__name__)


def delete_in_batches(queryset: QuerySet[Any], *, batch: int | None = None) -> int:
    """Delete the rows of `queryset` a batch at a time (each batch its own statement and,
    in autocommit, its own transaction); returns how many rows of its model went."""
    size = batch or int(getattr(settings, "RETENTION_BATCH_SIZE", 1000))
    model, total = queryset.model, 0
    while True:
        ids = list(queryset.order_by().values_list("pk", flat=True)[:size])
        if not ids:
            return total
        model._default_manager.filter(pk__in=ids).delete()
        total += len(ids)


def _days(name: str, default: float) -> dt.datetime:
    return timezone.now() - dt.timedelta(days=float(getattr(settings, name, default)))


def access_tokens_prune() -> int:
    """Access tokens revoked or expired more than ACCESS_TOKENS_KEEP_DAYS ago: they no longer
    let anyone in; kept that long so a refused token still says why (revoked, expired)."""
    cut = _days("ACCESS_TOKENS_KEEP_DAYS", 30)
    return delete_in_batches(
        AccessToken.objects.filter(Q(revoked_at__lt=cut) | Q(expires_at__lt=cut))
    )


def heartbeats_prune() -> int:
    """The heartbeats of workers gone (silent for more than a day): a worker renamed or
    scaled down leaves its row behind; beat's own row is kept."""
    cut = timezone.now() - dt.timedelta(hours=float(getattr(settings, "HEARTBEATS_KEEP_HOURS", 24)))
    return delete_in_batches(
        Heartbeat.objects.filter(name__startswith=WORKER_PREFIX, beat_at__lt=cut)
    )


def sessions_prune() -> int:
    """Browser sessions past their expiry (Django keeps them until `clearsessions`)."""
    return delete_in_batches(Session.objects.filter(expire_date__lt=timezone.now()))


def retention_run() -> dict[str, int]:
    """Each prune of RETENTION_PRUNES, in order; returns (and logs) the count of each. A
    prune that fails is logged and the next ones still run; the job fails at the end, so
    Celery retries it and the failure is seen."""
    counts: dict[str, int] = {}
    failed: list[str] = []
    for path in settings.RETENTION_PRUNES:
        name = path.rsplit(".", 1)[-1]
        try:
            counts[name] = int(import_string(path)())
        except Exception:
            log.exception("retention: %s failed", name, extra={"prune": name})
            failed.append(name)
            continue
        log.info(
            "retention: %s deleted %d rows",
            name,
            counts[name],
            extra={"prune": name, "deleted": counts[name]},
        )
    if failed:
        raise RuntimeError(f"retention prunes failed: {', '.join(failed)}")
    return counts
