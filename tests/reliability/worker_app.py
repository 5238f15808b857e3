"""The project's Celery app for the worker-kill tests (tests/reliability/test_worker_killed.py).

What it sends (the next round's pairing job) goes to the test's own queue, HG_TEST_QUEUE.
The Redis visibility timeout is HG_VISIBILITY_TIMEOUT seconds, swept every second, so that
a job whose worker died comes back within the test (production: 300 s). HG_KILL_ON names a
job: when the worker receives it, it SIGKILLs its whole process group (the main process and
the pool) before running it, as an OOM killer or a lost machine would."""

import os
import signal
from typing import Any

from celery.signals import task_received

from config.celery import app

app.conf.task_default_queue = os.environ["HG_TEST_QUEUE"]
app.conf.broker_transport_options = {
    **app.conf.broker_transport_options,
    "visibility_timeout": int(os.environ.get("HG_VISIBILITY_TIMEOUT", "5")),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}


@task_received.connect
def _killed_on_receipt(request: Any = None, **kwargs: Any) -> None:
    if request is not None and request.name == os.environ.get("HG_KILL_ON"):
        print(f"KILLED on receipt of {request.name}[{request.id}]", flush=True)
        os.killpg(os.getpgrp(), signal.SIGKILL)


__all__ = ["app"]
