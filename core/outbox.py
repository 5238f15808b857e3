"""The transactional outbox: jobs recorded with the write that calls for them, relayed to the
broker after commit, and never waited on by a request.

`enqueue_in_tx` writes an OutboxMessage in the caller's transaction (or, outside one, at
once) and, once it commits, relays it: the publish uses its own broker connection with
short timeouts and no retries, so a hung broker (accepting connections, never answering)
costs a request at most RELAY_TIMEOUT seconds, and after one failure the relay stops trying
for RELAY_PAUSE seconds, so requests do not queue up behind it. Whatever was not relayed
(a failure, a crash between commit and relay) is sent by `outbox_drain`, which beat runs
every few seconds in a worker; a job is idempotent (STYLE 7), so the rare message relayed
twice (a relay and a drain racing) does no harm.

Under eager Celery (`make run`, the SQLite suite) the relay runs the job at once, as
`task.delay` does there.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.context import request_id_var
from core.models import OutboxMessage
from core.retention import delete_in_batches

log = logging.getLogger(__name__)

RELAY_TIMEOUT = 1.0  # seconds, to connect and to publish
RELAY_PAUSE = 30.0  # seconds without relaying after a failure (the drain sends those)
DRAIN_AGE = dt.timedelta(seconds=2)  # the drain leaves the newest to their own relay

_paused_until = 0.0
_lock = threading.Lock()


def enqueue_in_tx(*, task: str, args: tuple[Any, ...], eta: dt.datetime | None = None) -> None:
    """Record job `task(*args)` (at `eta`) with the caller's writes; relay it after commit."""
    message = OutboxMessage.objects.create(
        task=task, args=list(args), eta=eta, request_id=request_id_var.get()
    )
    transaction.on_commit(lambda: relay(message_id=message.pk))


def _eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def _publish(message: OutboxMessage) -> None:
    """Queue it (or, eager, run it) under the id of the request that recorded it, which
    the job's message carries (core.requestid)."""
    token = request_id_var.set(message.request_id or request_id_var.get())
    try:
        _publish_now(message)
    finally:
        request_id_var.reset(token)


def _publish_now(message: OutboxMessage) -> None:
    task = current_app.tasks[message.task]
    if _eager():
        # In process, as `delay` does under eager Celery; `apply` needs no broker at all
        # (eager `apply_async` still takes a producer from the app's pool).
        task.apply(tuple(message.args))
        return
    options = {"socket_timeout": RELAY_TIMEOUT, "socket_connect_timeout": RELAY_TIMEOUT}
    # A connection and producer of its own (not the app's pool, whose connections have no
    # such timeouts), so the publish goes where the timeouts hold.
    with (
        current_app.connection_for_write(
            connect_timeout=RELAY_TIMEOUT, transport_options=options
        ) as conn,
        conn.Producer() as producer,
    ):
        task.apply_async(tuple(message.args), eta=message.eta, producer=producer, retry=False)


def _send(message: OutboxMessage) -> bool:
    """Mark it sent and publish it; on failure, unmark it and note why."""
    updated = OutboxMessage.objects.filter(pk=message.pk, sent_at__isnull=True).update(
        sent_at=timezone.now(), attempts=message.attempts + 1
    )
    if not updated:
        return False  # relayed meanwhile
    try:
        _publish(message)
    except Exception as exc:  # noqa: BLE001 - the write committed; the drain sends it later
        OutboxMessage.objects.filter(pk=message.pk).update(
            sent_at=None, last_error=f"{type(exc).__name__}: {exc}"[:500]
        )
        raise
    return True


def relay(*, message_id: int) -> bool:
    """Publish one message now (after its commit). Never raises: a failure leaves it to the
    drain and pauses relaying for RELAY_PAUSE seconds."""
    global _paused_until
    if not _eager() and time.monotonic() < _paused_until:
        return False
    message = OutboxMessage.objects.filter(pk=message_id, sent_at__isnull=True).first()
    if message is None:
        return False
    try:
        return _send(message)
    except Exception:  # noqa: BLE001
        with _lock:
            _paused_until = time.monotonic() + RELAY_PAUSE
        log.warning("could not queue %s; the outbox drain will send it", message, exc_info=True)
        return False


def relay_resume() -> None:
    """Relay again at once (the pause after a failure is over): for tests and operators."""
    global _paused_until
    _paused_until = 0.0


def outbox_drain(*, limit: int = 500) -> int:
    """Send every message left unsent (oldest first). Returns how many were sent."""
    before = timezone.now() - DRAIN_AGE
    pending = list(
        OutboxMessage.objects.filter(sent_at__isnull=True, created_at__lte=before).order_by(
            "created_at", "pk"
        )[:limit]
    )
    sent = 0
    for message in pending:
        try:
            sent += _send(message)
        except Exception:  # noqa: BLE001 - the broker is still away: next run
            log.warning("outbox drain: could not queue %s", message, exc_info=True)
            break
    return sent


def outbox_prune(*, older_than: dt.timedelta | None = None) -> int:
    """Delete messages sent more than `older_than` (default: OUTBOX_KEEP_DAYS) ago, in
    batches (the outbox is not an archive). Run by the retention job (core.retention)."""
    if older_than is None:
        older_than = dt.timedelta(days=float(getattr(settings, "OUTBOX_KEEP_DAYS", 7)))
    cut = timezone.now() - older_than
    return delete_in_batches(OutboxMessage.objects.filter(sent_at__lt=cut))
