"""gunicorn's settings for bench/soak.py: config/gunicorn.py, with SOAK_MAX_REQUESTS
overriding the deployed recycling (0: never recycle, so that growth shows instead of being
cut short by a restart)."""

from __future__ import annotations

import os

from config.gunicorn import *  # noqa: F403 - bind, workers, worker_class, max_requests, ...

if "SOAK_MAX_REQUESTS" in os.environ:
    max_requests = int(os.environ["SOAK_MAX_REQUESTS"])
    max_requests_jitter = 0
