"""Settings shared by every environment, part two: Celery, the periodic jobs (beat) and the
webhooks' deliveries. `config.settings.base` imports them all; they come from the
environment like the rest (docs/operators/settings.md)."""

from config.env import env

# Celery: with no broker configured, tasks run eagerly in process (make run, unit tests).
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis: a job taken by a worker that dies (acks_late) goes back to the queue after this
# many seconds (Celery's default: an hour). Every job is idempotent (a status or version
# guard), so one still running when the timeout passes and run a second time does nothing
# more; jobs with an ETA further off than this are re-delivered at their time, and run
# once (the same guards).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=300),
    # kombu sweeps the unacked jobs every `unacked_restore_interval` (10 s) but scans Redis
    # only on every `unacked_restore_throttle`-th sweep (default 10: every ~100 s), so a
    # killed job came back 300-400 s after it was taken. Scanning on every sweep (one
    # ZRANGE under a mutex per worker each 10 s) brings it back 300-310 s after.
    "unacked_restore_throttle": 1,
}
CELERY_TIMEZONE = "UTC"
# Beat's scheduler writes beat's heartbeat as it ticks; each worker writes its own on a timer
# (core.heartbeats), every HEARTBEAT_SECONDS. /readyz fails when they are older than these.
CELERY_BEAT_SCHEDULER = "core.heartbeats:HeartbeatScheduler"
HEARTBEAT_SECONDS = env.float("HEARTBEAT_SECONDS", default=15.0)
READYZ_WORKER_SILENT_SECONDS = env.float("READYZ_WORKER_SILENT_SECONDS", default=90.0)
READYZ_BEAT_SILENT_SECONDS = env.float("READYZ_BEAT_SILENT_SECONDS", default=90.0)
# ... and when a job has waited this long in the outbox to be queued (the broker away).
READYZ_OUTBOX_MAX_AGE_SECONDS = env.float("READYZ_OUTBOX_MAX_AGE_SECONDS", default=120.0)
# The worker's log lines go through LOGGING (JSON in production, with the job's request id).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# A Celery worker's own metrics (core.metrics), served on this port by its main process
# (0: not served).
WORKER_METRICS_PORT = env.int("WORKER_METRICS_PORT", default=0)
# Periodic jobs (celery beat): round start times and deadlines of club tournaments.
CELERY_BEAT_SCHEDULE: dict = {
    # The transactional outbox (core.outbox): jobs whose relay after commit failed.
    "core-outbox-drain": {
        "task": "core.outbox_drain",
        "schedule": env.float("OUTBOX_DRAIN_SECONDS", default=5.0),
    },
    "tournament-rounds-start-due": {
        "task": "tournaments.rounds_start_due",
        "schedule": env.float("TOURNAMENT_SCHEDULE_SECONDS", default=30.0),
    },
    # No-shows past a check-in deadline whose own job was lost (issue 40).
    "tournament-no-shows": {
        "task": "tournaments.no_shows_due",
        "schedule": env.float("TOURNAMENT_DEADLINES_SECONDS", default=60.0),
    },
    # The players' reminders the day before a tournament (issue 40).
    "tournament-notices-reminders": {"task": "tournaments.notices_reminders", "schedule": 3600.0},
    "tournament-deadlines-enforce": {
        "task": "tournaments.deadlines_enforce",
        "schedule": env.float("TOURNAMENT_DEADLINES_SECONDS", default=60.0),
    },
    # Results whose match_finished job was lost (a killed worker, the broker down at commit).
    "tournament-results-reconcile": {
        "task": "tournaments.results_reconcile",
        "schedule": env.float("TOURNAMENT_RECONCILE_SECONDS", default=60.0),
    },
    # Signed checkpoints of every stream head that moved (eventstore.checkpoints).
    "eventstore-checkpoints-take": {
        "task": "eventstore.checkpoints_take",
        "schedule": env.float("EVENT_CHECKPOINT_SECONDS", default=300.0),
    },
    # Old rows with personal data or logs: each prune of RETENTION_PRUNES (core.retention).
    "retention-run": {
        "task": "core.retention_run",
        "schedule": env.float("RETENTION_SECONDS", default=3600.0),
    },
    # Club ratings of finished tournaments whose ratings job was lost (tournaments.ratings).
    "ratings-reconcile": {
        "task": "ratings.reconcile",
        "schedule": env.float("RATINGS_RECONCILE_SECONDS", default=60.0),
    },
    # Webhook deliveries no job made or sent (a lost job, a killed worker).
    "tournament-webhooks-reconcile": {
        "task": "tournaments.webhooks_reconcile",
        "schedule": env.float("WEBHOOK_RECONCILE_SECONDS", default=60.0),
    },
}
# Webhooks (tournaments.webhooks): each attempt's timeout, the backoff between attempts
# (doubled each time, with jitter, capped) and the attempts before a delivery is parked.
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=10.0)
WEBHOOK_BACKOFF_SECONDS = env.float("WEBHOOK_BACKOFF_SECONDS", default=30.0)
WEBHOOK_BACKOFF_MAX_SECONDS = env.float("WEBHOOK_BACKOFF_MAX_SECONDS", default=3600.0)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=8)
# Endpoints on private, loopback, link-local and reserved addresses are refused, at
# registration and at each delivery, except in these networks (CIDRs, e.g. 127.0.0.1/32
# for a receiver on this machine in tests or development). Empty in production.
WEBHOOK_ALLOWED_NETWORKS = env.list("WEBHOOK_ALLOWED_NETWORKS", default=[])
