"""gunicorn's settings for the web service: `gunicorn -c config/gunicorn.py config.wsgi`
(docker-compose and the Dockerfile run this; bench/api.py serves with it too).

Sync workers, gunicorn's recommended 2 x cores + 1 of them: a game action spends part of
its time waiting on PostgreSQL (round trips, the commit's WAL flush), which the extra worker
covers. WEB_CONCURRENCY overrides the count (in a container, os.cpu_count() is the host's).
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * (os.cpu_count() or 1) + 1)
worker_class = "sync"
backlog = 256
# Persistent database connections (CONN_MAX_AGE) live in each worker; recycle workers now
# and then anyway, staggered, so that one leak cannot grow for ever.
max_requests = 20000
max_requests_jitter = 2000
