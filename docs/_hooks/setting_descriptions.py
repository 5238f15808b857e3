"""What each setting is, where the comment above it in the code does not say it well
enough for an operator (docs/_hooks/settings_page.py). A new environment variable needs a
line here or a comment above where it is read (tests/docs/test_reference.py)."""

# What each variable is for, where the comment the code gives it (used when there is none
# here) does not say it on its own line. A variable the code reads with neither fails
# tests/docs/test_reference.py; so does a line here for a variable the code no longer reads.
DESCRIPTIONS = {
    "ANYMAIL": "The mail provider's settings for django-anymail, as a JSON object (e.g. "
    '`{"MAILGUN_API_KEY": "…", "MAILGUN_SENDER_DOMAIN": "mg.example.org"}`), with '
    "EMAIL_BACKEND naming the provider's backend (`anymail.backends.mailgun.EmailBackend`). "
    "Unused with SMTP (EMAIL_URL). The players' notices (issue 40) go out this way.",
    "SECRET_KEY": "Django's secret key (sessions, signed stream tickets, login-code hashes). "
    "Required, and checked, in production: the development key is refused.",
    "DEBUG": "Django's debug mode. Never on in production.",
    "ALLOWED_HOSTS": "The host names the app answers to (comma-separated).",
    "CSRF_TRUSTED_ORIGINS": "Origins trusted for the pages' forms behind a proxy, e.g. "
    "`https://gin.example.org`.",
    "DATABASE_URL": "The database: e.g. `postgres://postgres@127.0.0.1:5432/hollywood_gin`; "
    "unset: a SQLite file `db.sqlite3` beside `manage.py` (what `make run` uses).",
    "CONN_MAX_AGE": "Seconds a worker keeps its database connection (and the prepared "
    "statements in it).",
    "SQLITE_BUSY_SECONDS": "On SQLite (`make run`): how long a write waits for another to "
    "finish; transactions begin `IMMEDIATE` in WAL mode, so two writes at once both land, one "
    "after the other, instead of one answering 503.",
    "DATABASE_REPLICA_URL": "Read replicas: one or more hot standbys of `DATABASE_URL`, "
    "comma-separated ([Scaling](scaling.md)). Unset: one database.",
    "DATABASE_REPLICA_MAX_LAG_SECONDS": "A replica lagging more than this is not read from.",
    "DATABASE_DIRECT_URL": "Behind PgBouncer: the primary itself, for the streams' LISTEN "
    "connection, which needs a session of its own.",
    "CACHE_URL": "The cache (throttles, idempotency keys, login budgets): e.g. "
    "`rediscache://127.0.0.1:6379/1`; unset: this process's memory.",
    "CELERY_BROKER_URL": "The jobs' broker, e.g. `redis://127.0.0.1:6379/0`; unset: jobs run "
    "at once in the process that queues them (`make run`).",
    "CELERY_RESULT_BACKEND": "Celery's result backend; the app reads no job results (unset).",
    "CELERY_TASK_ALWAYS_EAGER": "Run jobs in process instead of queueing them; on when there "
    "is no broker.",
    "OUTBOX_DRAIN_SECONDS": "Celery beat: how often the outbox's jobs whose relay after "
    "commit failed are queued again.",
    "TOURNAMENT_SCHEDULE_SECONDS": "Celery beat: how often rounds whose start time has come "
    "are paired.",
    "TOURNAMENT_DEADLINES_SECONDS": "Celery beat: how often players past their turn time or "
    "round deadline are forfeited.",
    "TOURNAMENT_RECONCILE_SECONDS": "Celery beat: how often results whose job was lost are "
    "taken into their pairings.",
    "EVENT_CHECKPOINT_SECONDS": "Celery beat: how often the heads of the streams that moved "
    "are signed (checkpoints).",
    "RETENTION_SECONDS": "Celery beat: how often the retention job runs (`core.retention`).",
    "RATINGS_RECONCILE_SECONDS": "Celery beat: how often club rating periods whose job was "
    "lost are applied.",
    "WEBHOOK_RECONCILE_SECONDS": "Celery beat: how often webhook deliveries no job made or "
    "sent are made and sent.",
    "WEBHOOK_TIMEOUT_SECONDS": "Each webhook attempt's timeout.",
    "WEBHOOK_BACKOFF_SECONDS": "The first wait before a failed webhook delivery is tried "
    "again; doubled each time, with jitter.",
    "WEBHOOK_BACKOFF_MAX_SECONDS": "The longest wait between two webhook attempts.",
    "WEBHOOK_MAX_ATTEMPTS": "Attempts before a webhook delivery is parked (sent again only "
    "when redelivered).",
    "EVENT_CHAIN_KEYS": "The chain keys as a keyring, `id1:secret1,id2:secret2`, oldest "
    "first: the last signs, all verify. Never in the database nor its backups "
    "([Backup, restore, keys](backup-restore.md)).",
    "EVENT_CHAIN_KEYS_FILE": "The keyring in a file, one `id:secret` a line.",
    "EVENT_CHAIN_KEY": "One chain key instead of a keyring. None of the four set: derived "
    "from `SECRET_KEY` (production refuses to start).",
    "EVENT_CHAIN_KEY_FILE": "One chain key, in a file.",
    "EVENT_CHAIN_KEY_ID": "The id of `EVENT_CHAIN_KEY`.",
    "IDEMPOTENCY_KEY_TTL_HOURS": "How long a POST's `Idempotency-Key` is remembered (its "
    "first answer replayed to retries); the retention job forgets older ones.",
    "LOGIN_CODES_KEEP_DAYS": "The retention job deletes login codes used, expired or revoked "
    "this long after.",
    "ACCESS_TOKENS_KEEP_DAYS": "... access tokens revoked or expired, this long after (a "
    "revoked token says so until then).",
    "WEBHOOK_DELIVERIES_KEEP_DAYS": "... webhook deliveries delivered or parked, this long after.",
    "OUTBOX_KEEP_DAYS": "... outbox messages sent, this long after.",
    "HEARTBEATS_KEEP_HOURS": "... heartbeats of workers gone, this long after (sessions go "
    "when they expire).",
    "API_PAGE_SIZE": "A list's page when the client sends no `limit`.",
    "THROTTLE_ANON": "Anonymous requests a client address may make (DRF's rate format).",
    "THROTTLE_LOGIN": "Logins a client address may try, counted apart from anonymous reads.",
    "THROTTLE_USER": "Signed-in requests a user may make; unset: signed-in play is never "
    "throttled.",
    "THROTTLE_LOGIN_ACCOUNT": "Token logins per account, from any address; once spent, only "
    "the addresses that have failed for the account are refused, so its owner still signs in.",
    "THROTTLE_PRACTICE": "Practice matches a player may start (429 past it); at most three "
    "in play, a fourth resigning the oldest.",
    "LOGIN_FAILURE_LIMIT": "django-axes: failed logins that lock out (see `LOGIN_LOCKOUT_BY`) "
    "every login path (`/api/auth/token/`, `/admin/login/`, `/api-auth/login/`, "
    "`/desk/login/`: 429) for the cool-off ([Logins](logins.md)).",
    "LOGIN_COOLOFF_HOURS": "How long a lockout lasts.",
    "LOGIN_LOCKOUT_BY": "What failed logins lock out: by default an account at one client "
    "address, so failing someone's password from elsewhere does not lock them out; "
    "`username,ip_address` locks the account (from everywhere) or the address, alone.",
    "API_SERVER_URL": "The schema's `servers` entry: the API's public base URL.",
    "ADMINS": "Who gets server errors by e-mail when Sentry is not set: `Name <address>,...`.",
    "EMAIL_BACKEND": "Django's e-mail backend; unset: the one `EMAIL_URL` names.",
    "DEFAULT_FROM_EMAIL": "The sender of the app's e-mail.",
    "SERVER_EMAIL": "The sender of the error e-mails; unset: `DEFAULT_FROM_EMAIL`'s value.",
    "EMAIL_SUBJECT_PREFIX": "The start of every e-mail's subject.",
    "LOG_LEVEL": "The lowest level logged.",
    "SESSION_COOKIE_SECURE": "Production: the session cookie only over HTTPS.",
    "CSRF_COOKIE_SECURE": "Production: the CSRF cookie only over HTTPS.",
    "SECURE_SSL_REDIRECT": "Production: plain HTTP redirected to HTTPS (the probes and "
    "`/metrics` apart).",
    "SECURE_HSTS_SECONDS": "Production: how long browsers are told to use only HTTPS (HSTS).",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "Production: HSTS for the subdomains too.",
    "DJANGO_SETTINGS_MODULE": "The settings of every entry point (`manage.py`, Celery, WSGI, "
    "ASGI, gunicorn); a developer's `.env` says `config.settings.local` (`make run` passes "
    "it itself).",
    "GUNICORN_BIND": "Where gunicorn listens (`config/gunicorn.py`, `deploy/gunicorn.conf.py`).",
    "WEB_CONCURRENCY": "gunicorn's sync workers; unset: 2 x cores + 1.",
    "PROMETHEUS_MULTIPROC_DIR": "The metrics of several processes (gunicorn's workers) "
    "added up: a directory every process of the service writes its metrics' files to.",
    "HOST": "`make run`: the address the demo's printed links name (and uvicorn listens on).",
    "PORT": "`make run`: the port the demo's printed links name (and uvicorn listens on).",
    "GUNICORN_ACCESS_LOG": "gunicorn's access log; empty turns it off.",
    "CACHE_RETRY_SECONDS": "Redis away: this process's memory serves instead (per-process "
    "throttles), and Redis is tried again this often; `/readyz` says the cache is down.",
    "CELERY_VISIBILITY_TIMEOUT": "Redis: seconds before a job taken by a worker that died "
    "goes back to the queue (Celery's default is an hour); every job is idempotent.",
    "HEARTBEAT_SECONDS": "How often each worker and beat write their heartbeat.",
    "READYZ_WORKER_SILENT_SECONDS": "`/readyz` fails when no worker's heartbeat is newer.",
    "READYZ_BEAT_SILENT_SECONDS": "`/readyz` fails when beat's heartbeat is older.",
    "LOGIN_HASHES_PER_ACCOUNT": "Password hashes a minute per account (past them, refused "
    "only from an address that has failed for it); 0: unbounded.",
    "LOGIN_HASHES_AT_ONCE_PER_ACCOUNT": "Password hashes running at once for one account; "
    "0: unbounded.",
    "METRICS_TOKEN": "A bearer token that may read `/metrics` from any address.",
    "SENTRY_ENVIRONMENT": "The environment Sentry files the errors under.",
    "SENTRY_TRACES_SAMPLE_RATE": "The share of requests Sentry traces (0: none).",
    # Django settings that have no environment variable (a settings module sets them).
    "LIVE_DB_THREADS": "Threads a stream process uses for its database reads.",
    "LIVE_DROP_GRACE_SECONDS": "A stream client that reads nothing at all for this long "
    "after its buffer is full is disconnected.",
    "LIVE_FOLLOWER_BUFFER_BYTES": "A stream client that falls this far behind is ended "
    "(with `retry:`: it reconnects with `Last-Event-ID`); the others are never slowed.",
    "LIVE_KEEPALIVE_SECONDS": "A stream sends a comment (`: keep-alive`) when nothing else "
    "went out for this long.",
    "LIVE_POLL_SECONDS": "On SQLite, where there is no NOTIFY: how often streams look for "
    "new events.",
    "LOGIN_CODE_HOURS": "How long a player's phone login code is valid.",
    "WEB_LIVE_POLL_SECONDS": "A live page whose stream is unavailable polls this often.",
    "DOCS_ROOT": "Where the built manual is, served at `/docs/` (`make install` builds it there).",
}
