"""The project's Celery app for the worker test: everything it sends (the next round's
pairing job) goes to the test's own queue, named in HG_TEST_QUEUE."""

import os

from config.celery import app

app.conf.task_default_queue = os.environ["HG_TEST_QUEUE"]

__all__ = ["app"]
