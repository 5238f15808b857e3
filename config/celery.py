"""Celery application. Without CELERY_BROKER_URL tasks run eagerly in process."""

import logging

from celery import Celery
from django.conf import settings  # lazy object: reading it configures Django, not importing it

from config.entry import settings_module_choose

settings_module_choose()  # DJANGO_SETTINGS_MODULE, one for every entry point

app = Celery("hollywood_gin")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# --- what every job and worker does besides its work (core.requestid, heartbeats, alerts) --

from typing import Any  # noqa: E402

from celery.signals import (  # noqa: E402
    before_task_publish,
    task_failure,
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_shutdown,
    worker_ready,
)

from core.heartbeats import WorkerHeartbeat  # noqa: E402

app.steps["worker"].add(WorkerHeartbeat)


# The hooks import the kernel when they run, not above (start-up order): this module loads
# with the Celery app, before Django is set up; core.alerts reads the models, and
# prometheus_client picks its multiprocess mode when core.metrics first loads it.


@before_task_publish.connect
def _request_id_into_job(headers: dict | None = None, **kwargs: Any) -> None:
    """A job queued during a request carries the request's id (core.requestid)."""
    from core.requestid import headers_for_job  # lazy: Celery loads this module before Django

    if headers is not None:
        for key, value in headers_for_job().items():
            headers.setdefault(key, value)


@task_prerun.connect
def _job_started(task: Any = None, **kwargs: Any) -> None:
    from core import metrics  # lazy: Celery loads this module before Django
    from core.requestid import job_started  # lazy: Celery loads this module before Django

    if task is not None:
        job_started(task)
        if not getattr(task.request, "is_eager", False):
            metrics.db_timer_start()


@task_postrun.connect
def _job_ended(task: Any = None, **kwargs: Any) -> None:
    from core import metrics  # lazy: Celery loads this module before Django

    if task is not None and not getattr(task.request, "is_eager", False):
        metrics.job_observed(task.name)


@task_failure.connect
def _job_failed_for_good(
    sender: Any = None, args: Any = None, exception: BaseException | None = None, **kwargs: Any
) -> None:
    """No retry left (a retry is task_retry, not this): counted, and an alert raised for
    the club (core.alerts) — which e-mails ADMINS, as Sentry would report it when set."""
    from core import metrics  # lazy: Celery loads this module before Django
    from core.alerts import job_failed_for_good  # lazy: Celery loads this module before Django

    name = getattr(sender, "name", "") or "unknown"
    metrics.jobs_failed.labels(task=name).inc()
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # in process (make run, tests): the caller sees the exception itself
    try:
        job_failed_for_good(task=name, args=tuple(args or ()), error=exception or Exception())
    except Exception:  # noqa: BLE001 - the hook must never take the worker down
        logging.getLogger(__name__).warning("alert for %s not raised", name, exc_info=True)


@worker_init.connect
def _worker_metrics_fresh(**kwargs: Any) -> None:
    """Before the pool starts: the last run's metrics files go (core.metrics)."""
    from core.metrics import multiprocess_dir_clear  # lazy: Celery loads this module before Django

    multiprocess_dir_clear()


@worker_ready.connect
def _worker_metrics_served(**kwargs: Any) -> None:
    """A worker's own metrics (its pool's, added up) on WORKER_METRICS_PORT, if set."""
    port = getattr(settings, "WORKER_METRICS_PORT", 0)
    if port:
        from core.metrics import worker_metrics_serve  # lazy: before Django

        worker_metrics_serve(port)


@worker_process_shutdown.connect
def _worker_process_gone(pid: int | None = None, **kwargs: Any) -> None:
    from core.metrics import process_dead  # lazy: Celery loads this module before Django

    if pid:
        process_dead(pid)
