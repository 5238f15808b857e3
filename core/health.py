"""What /readyz checks (web.health): each check returns "ok", "skipped" (not in this
setup, e.g. no broker: jobs run in process) or why it failed. Every check is cheap enough to
run on each probe: a query or two and a cache round trip."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from core.heartbeats import BEAT, WORKER_PREFIX, heartbeat_age
from core.models import OutboxMessage

OK, SKIPPED = "ok", "skipped"
_migrated = False  # once every migration was seen applied, this process never asks again


def _error(exc: Exception) -> str:
    return f"error: {exc.__class__.__name__}"


def check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return OK
    except Exception as exc:  # noqa: BLE001 - any failure is reported, not raised
        return _error(exc)


def check_cache() -> str:
    """A write and a read through the cache itself (Redis when CACHE_URL says so), not
    through the per-process fallback that keeps throttles answering (core.cache)."""
    try:
        ping = getattr(cache, "primary_ping", None)
        if ping is not None:
            ping()
            return OK
        cache.set("hg:readyz", "1", timeout=30)
        if cache.get("hg:readyz") != "1":
            return "error: the value written was not read back"
        return OK
    except Exception as exc:  # noqa: BLE001
        return _error(exc)


def check_migrations() -> str:
    global _migrated
    if _migrated:
        return OK
    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as exc:  # noqa: BLE001
        return _error(exc)
    if plan:
        return f"error: {len(plan)} migrations not applied"
    _migrated = True
    return OK


def _jobs_in_process() -> bool:
    return bool(current_app.conf.task_always_eager)


def _heartbeat(prefix: str, limit_seconds: float) -> str:
    if _jobs_in_process():
        return SKIPPED
    try:
        age = heartbeat_age(prefix)
    except Exception as exc:  # noqa: BLE001
        return _error(exc)
    if age is None:
        return "error: no heartbeat yet"
    if age.total_seconds() > limit_seconds:
        return f"error: silent for {int(age.total_seconds())}s"
    return OK


def check_worker() -> str:
    return _heartbeat(WORKER_PREFIX, settings.READYZ_WORKER_SILENT_SECONDS)


def check_beat() -> str:
    return _heartbeat(BEAT, settings.READYZ_BEAT_SILENT_SECONDS)


def outbox_oldest_age() -> dt.timedelta | None:
    """How long the oldest job not yet relayed to the broker has waited; None: none waits."""
    oldest = (
        OutboxMessage.objects.filter(sent_at__isnull=True)
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    return None if oldest is None else timezone.now() - oldest


def check_outbox() -> str:
    try:
        age = outbox_oldest_age()
    except Exception as exc:  # noqa: BLE001
        return _error(exc)
    if age is not None and age.total_seconds() > settings.READYZ_OUTBOX_MAX_AGE_SECONDS:
        return f"error: a job has waited {int(age.total_seconds())}s to be queued"
    return OK


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "cache": check_cache,
    "migrations": check_migrations,
    "worker": check_worker,
    "beat": check_beat,
    "outbox": check_outbox,
}


def readiness() -> tuple[bool, dict[str, str]]:
    """(ready, each check's result). The database's failure makes the checks that query it
    fail too: each says so, and `failed` names them all."""
    results = {name: check() for name, check in CHECKS.items()}
    return all(v in (OK, SKIPPED) for v in results.values()), results
