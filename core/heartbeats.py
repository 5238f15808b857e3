"""Heartbeats of the background processes, kept in the database so that /readyz (any web
process) sees them: celery beat's scheduler writes `beat` as it ticks
(`HeartbeatScheduler`, CELERY_BEAT_SCHEDULER), each worker writes `worker:<node>` on a
timer of its own (`WorkerHeartbeat`, a worker bootstep). A silent beat stops every
deadline, scheduled round, reconciler, the outbox drain and the checkpoints at once, so it
is checked by /readyz and raises an alert (core.alerts) when a worker sees it silent."""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import Any

from celery import bootsteps
from celery.beat import PersistentScheduler
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

log = logging.getLogger(__name__)

BEAT = "beat"
WORKER_PREFIX = "worker:"


def heartbeat_record(name: str) -> None:
    """Note that `name` is alive now. Never raises: a heartbeat that cannot be written is
    one missed, which /readyz will notice."""
    from core.models import Heartbeat  # this module is loaded with the Celery app, before Django

    try:
        Heartbeat.objects.update_or_create(name=name, defaults={"beat_at": timezone.now()})
    except Exception:  # noqa: BLE001
        log.warning("heartbeat %s not recorded", name, exc_info=True)


def heartbeat_age(prefix: str) -> dt.timedelta | None:
    """How long since the newest heartbeat whose name starts with `prefix`; None: never."""
    from core.models import Heartbeat  # loaded with the Celery app, before Django (above)

    newest = (
        Heartbeat.objects.filter(name__startswith=prefix)
        .order_by("-beat_at")
        .values_list("beat_at", flat=True)
        .first()
    )
    return None if newest is None else timezone.now() - newest


def _interval() -> float:
    return float(getattr(settings, "HEARTBEAT_SECONDS", 15.0))


BEAT_SILENT_KEY = "beat_silent"


def beat_watch() -> None:
    """A worker's timer: beat silent past READYZ_BEAT_SILENT_SECONDS raises an alert (the
    desks' banner, ADMINS' e-mail). Never raises."""
    from core.alerts import alert_raise  # reads the models: loaded before Django (above)

    try:
        age = heartbeat_age(BEAT)
        limit = float(settings.READYZ_BEAT_SILENT_SECONDS)
        if age is not None and age.total_seconds() > limit:
            alert_raise(
                kind="beat_silent",
                key=BEAT_SILENT_KEY,
                params={"seconds": int(age.total_seconds())},
            )
    except Exception:  # noqa: BLE001
        log.warning("beat's heartbeat not checked", exc_info=True)


def beat_heard() -> None:
    """Beat ticks again: its alert, if one is open, is over."""
    from core.alerts import alert_resolve  # reads the models: loaded before Django (above)

    try:
        alert_resolve(key=BEAT_SILENT_KEY)
    except Exception:  # noqa: BLE001
        log.warning("beat's alert not resolved", exc_info=True)


def _worker_beat(name: str) -> None:
    close_old_connections()  # a timer outside any job: drop a connection gone stale
    heartbeat_record(name)
    beat_watch()


class HeartbeatScheduler(PersistentScheduler):
    """celery beat's default scheduler, writing beat's heartbeat at most every
    HEARTBEAT_SECONDS as it ticks (beat ticks at least that often: max_interval)."""

    _last_heartbeat = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_interval = min(self.max_interval, _interval())

    def tick(self, *args: Any, **kwargs: Any) -> float:
        now = time.monotonic()
        if now - self._last_heartbeat >= _interval():
            self._last_heartbeat = now
            close_old_connections()  # beat holds one connection for ever: drop it if stale
            heartbeat_record(BEAT)
            beat_heard()
        return super().tick(*args, **kwargs)


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A worker bootstep: `worker:<node name>` written every HEARTBEAT_SECONDS by the
    worker's own timer (in its main process, which also takes jobs off the queue), which
    also watches beat's heartbeat (`beat_watch`)."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref = None

    def start(self, worker: Any) -> None:
        name = WORKER_PREFIX + worker.hostname
        _worker_beat(name)
        self.tref = worker.timer.call_repeatedly(_interval(), _worker_beat, (name,))

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
