"""Settings shared by every environment. Everything comes from the environment (see
`.env.example`) and has a safe local default, except production secrets."""

import environ

from config.env import BASE_DIR, env
from core.logs import logging_config

DEV_SECRET_KEY = "django-insecure-local-development-only"  # noqa: S105 (refused in production)

SECRET_KEY = env("SECRET_KEY", default=DEV_SECRET_KEY)
DEBUG = env.bool("DEBUG", default=False)  # production-like; config.settings.local turns it on
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",  # CORS for a club's own web or phone client (off unless origins are set)
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "axes",  # failed logins by account and client address (core.login_throttle)
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served by the app: docs work offline
    "core",
    "eventstore",
    "players",
    "games",
    "tournaments",
    "tournaments.ratings",  # club ratings and seasons (issue 22)
    "tournaments.teams",  # team events between club sides (issue 39)
    "tournaments.federation",  # a federation of clubs, its member list (issue 39)
    "web",
    "demo",
]

# The profile that token authentication loads with the user (core.authentication).
TOKEN_PROFILE_MODEL = "players.Player"
# CORS (django-cors-headers), off by default: the origins of a club's own web or phone
# client allowed to call the API from a browser, e.g. https://club.example.org. Tokens go
# in the Authorization header (no cookies across origins); a browser's EventSource, which
# cannot send it, follows a stream with a ticket (POST /api/streams/ticket/).
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = [
    "accept",
    "authorization",
    "content-type",
    "idempotency-key",
    "last-event-id",
    "x-request-id",
    "x-read-after",  # read-your-writes behind replicas (core.replicas)
]
CORS_EXPOSE_HEADERS = [
    "X-Request-ID",
    "Retry-After",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "Idempotent-Replayed",
    "X-Read-After",
]
CORS_PREFLIGHT_MAX_AGE = 3600
# How long a stream ticket lasts (core.live): a browser's EventSource opens its stream
# with it, for one stream.
STREAM_TICKET_SECONDS = env.int("STREAM_TICKET_SECONDS", default=300)

# How long a token from `POST /api/auth/token/` (a login) lasts; named tokens (bots,
# integrations: /api/auth/tokens/) last until their own optional expiry.
TOKEN_LOGIN_HOURS = env.float("TOKEN_LOGIN_HOURS", default=24 * 30)

# What the app that groups matches decides about them (games/policy.py, STYLE 16): may a
# finished match's result change, may a dispute open, who may see a match, is it public.
# Games load it by name on first use; they import no tournament code.
GAMES_MATCH_POLICY = "tournaments.selectors.match_policy.TournamentMatchPolicy"

MIDDLEWARE = [
    # First: the request id (X-Request-ID), its log line and its metrics (core.requestid).
    "core.requestid.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # CORS headers under /api/ and preflights answered before anything asks for a login.
    "corsheaders.middleware.CorsMiddleware",
    # Django's HTML error pages under /api/ (DEBUG's 404 page): the API's JSON error body.
    "config.exception_handler.ApiErrorsAsJsonMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: the account's language choice (core.language), then LocaleMiddleware's.
    "core.language.LanguageMiddleware",
    "web.localize.PersianDigitsMiddleware",  # Persian pages: Persian digits
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A lost database connection outside DRF's views (streams, pages): 503, not 500.
    "config.exception_handler.DatabaseUnavailableMiddleware",
    "core.login_throttle.LoginSlotsMiddleware",  # gives back a login's hashes at once
    # X-RateLimit-* from the throttles that counted the request (core.throttles).
    "core.throttles.RateLimitHeadersMiddleware",
    # A body under /api/ that is not JSON: 415 before anything reads it (CSRF, axes, DRF).
    "core.parsers.JsonBodyOnlyMiddleware",
    "core.text.FormTextMiddleware",  # a form field with a control character: 400 (issue 32)
    "axes.middleware.AxesMiddleware",  # last: answers a locked-out login with 429
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "web.language.context",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/hollywood_gin; default: SQLite file.
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A club laptop's writes wait their turn instead of failing (issue 32): begun IMMEDIATE,
    # a transaction takes the write lock first (one that had read, then wrote, was refused
    # at once), waits up to SQLITE_BUSY_SECONDS for it; WAL lets the pages read meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": env.float("SQLITE_BUSY_SECONDS", default=20),
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
# Read replicas (core/replicas.py, docs/operators/scaling.md): DATABASE_REPLICA_URL, one or
# more hot standbys of DATABASE_URL, comma-separated, become replica1..N. GET/HEAD requests
# read from one outside transactions, unless it is down, lags more than
# DATABASE_REPLICA_MAX_LAG_SECONDS or has not replayed the client's own last write
# (X-Read-After / the hg_read_after cookie). Unset: one database, nothing installed.
DATABASE_REPLICA_URLS = [url for url in env.list("DATABASE_REPLICA_URL", default=[]) if url]
DATABASE_REPLICA_MAX_LAG_SECONDS = env.float("DATABASE_REPLICA_MAX_LAG_SECONDS", default=10.0)
# How long a replica's replay position and health are trusted before it is asked again.
DATABASE_REPLICA_CHECK_SECONDS = env.float("DATABASE_REPLICA_CHECK_SECONDS", default=1.0)
# How long a browser keeps the position of its last write (the hg_read_after cookie).
DATABASE_REPLICA_READ_AFTER_SECONDS = env.int("DATABASE_REPLICA_READ_AFTER_SECONDS", default=300)
for _number, _url in enumerate(DATABASE_REPLICA_URLS, start=1):
    _replica = environ.Env.db_url_config(_url)
    _replica["ATOMIC_REQUESTS"] = False
    _replica.setdefault("CONN_MAX_AGE", DATABASES["default"]["CONN_MAX_AGE"])
    # A replica that is down is found out fast and skipped, not waited for.
    _replica.setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
    # The tests' replicas are the test database itself (pytest-django creates none).
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES[f"replica{_number}"] = _replica
DATABASE_ROUTERS = ["core.replicas.ReplicaRouter"] if DATABASE_REPLICA_URLS else []
if DATABASE_REPLICA_URLS:
    # Right after the request id: outside the session, whose save is a write (above).
    MIDDLEWARE.insert(
        MIDDLEWARE.index("core.requestid.RequestIdMiddleware") + 1,
        "core.replicas.ReplicaReadsMiddleware",
    )

# A connection pooler in front of the primary (docs/operators/scaling.md): "pgbouncer"
# (transaction mode) turns off what needs one server session across transactions: the
# prepared statements below and Django's server-side cursors. The LISTEN connection of the
# streams needs a session: DATABASE_DIRECT_URL names the primary itself (core/live.py).
DATABASE_POOLER = env.str("DATABASE_POOLER", default="")
if DATABASE_POOLER not in ("", "pgbouncer"):
    raise ValueError(f"DATABASE_POOLER must be empty or pgbouncer, not {DATABASE_POOLER!r}")
if DATABASE_POOLER == "pgbouncer":
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
DATABASE_DIRECT_URL = env.str("DATABASE_DIRECT_URL", default="")
# A game action's hot queries as prepared statements (core/prepared.py); off behind a
# pooler in transaction mode (pgbouncer), where they would not follow the session.
DB_PREPARED_STATEMENTS = env.bool("DB_PREPARED_STATEMENTS", default=not DATABASE_POOLER)
# The finished hands' records each worker keeps of the matches it serves (one snapshot's
# per match, games/repository.py): about 10 kB each, a late hand of a long match has 30.
HAND_RESULTS_CACHED_RECORDS = env.int("HAND_RESULTS_CACHED_RECORDS", default=1000)
# ... and of a match it has not served for this long, none (finished, or played elsewhere).
MATCH_CACHE_IDLE_SECONDS = env.int("MATCH_CACHE_IDLE_SECONDS", default=300)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"  # the last fallback (web.language: choice, Accept-Language, tournament)
# The clubs' languages (README, "Languages"): their catalogues live in locale/ at the root.
LANGUAGES = [
    ("en", "English"),
    ("ro", "Română"),
    ("de", "Deutsch"),
    ("lt", "Lietuvių"),
    ("fa", "فارسی"),
]
LANGUAGES_BIDI = ["fa"]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "hg_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

# Cache: Redis when REDIS_URL/CACHE_URL is set (throttles, idempotency keys), memory otherwise.
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://hollywood-gin")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # Redis away: this process's memory instead (per-process throttles), logged once, Redis
    # tried again every CACHE_RETRY_SECONDS; /readyz says the cache is down (core.cache).
    CACHES["default"]["BACKEND"] = "core.cache.FallbackRedisCache"
    CACHES["default"].setdefault("OPTIONS", {})["retry_seconds"] = env.float(
        "CACHE_RETRY_SECONDS", default=30.0
    )

# Celery, the periodic jobs and the webhooks' deliveries: config/settings/jobs.py.
from config.settings.jobs import *  # noqa: E402, F403

# The keys of the event seals and checkpoint signatures (eventstore.seals): never in the
# database, kept apart from it and its backups (docs/operators/backup-restore.md). A
# keyring, oldest first, the last one signs: EVENT_CHAIN_KEYS="id1:secret1,id2:secret2" or
# EVENT_CHAIN_KEYS_FILE (one id:secret a line); or one key: EVENT_CHAIN_KEY (or
# EVENT_CHAIN_KEY_FILE) with the id EVENT_CHAIN_KEY_ID. None set: derived from SECRET_KEY
# (not in production: config/settings/production.py refuses to start).
EVENT_CHAIN_KEYS = env("EVENT_CHAIN_KEYS", default="")
EVENT_CHAIN_KEYS_FILE = env("EVENT_CHAIN_KEYS_FILE", default="")
EVENT_CHAIN_KEY = env("EVENT_CHAIN_KEY", default="")
EVENT_CHAIN_KEY_FILE = env("EVENT_CHAIN_KEY_FILE", default="")
EVENT_CHAIN_KEY_ID = env("EVENT_CHAIN_KEY_ID", default="1")
# Retention (core.retention; docs/operators/privacy.md): what the hourly job deletes, and
# when. How long a POST's Idempotency-Key is remembered (its first response replayed to
# retries); login codes used, expired or revoked; access tokens revoked or expired; webhook
# delivery logs (delivered or parked); outbox messages sent; heartbeats of workers gone;
# (and sessions past their expiry, as `clearsessions` would).
IDEMPOTENCY_KEY_TTL_HOURS = env.float("IDEMPOTENCY_KEY_TTL_HOURS", default=24.0)
LOGIN_CODES_KEEP_DAYS = env.float("LOGIN_CODES_KEEP_DAYS", default=30.0)
ACCESS_TOKENS_KEEP_DAYS = env.float("ACCESS_TOKENS_KEEP_DAYS", default=30.0)
WEBHOOK_DELIVERIES_KEEP_DAYS = env.float("WEBHOOK_DELIVERIES_KEEP_DAYS", default=30.0)
OUTBOX_KEEP_DAYS = env.float("OUTBOX_KEEP_DAYS", default=7.0)
HEARTBEATS_KEEP_HOURS = env.float("HEARTBEATS_KEEP_HOURS", default=24.0)
# Rows deleted per statement (short transactions: a big table is never locked for long).
RETENTION_BATCH_SIZE = env.int("RETENTION_BATCH_SIZE", default=1000)
# The prunes the job runs, in order (each returns how many rows it deleted).
RETENTION_PRUNES = [
    "core.idempotency.idempotency_records_expire",
    "core.retention.access_tokens_prune",
    "core.outbox.outbox_prune",
    "core.retention.heartbeats_prune",
    "core.retention.sessions_prune",
    "players.services.login_codes_prune",
    "tournaments.webhooks.services.deliveries_prune",
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "core.authentication.ProfileTokenAuthentication",  # DRF's, loading the player too
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # DRF's JSON written by orjson (the same bytes); the browsable API as DRF's default.
    "DEFAULT_RENDERER_CLASSES": [
        "core.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    # Request bodies are JSON only (the schema says so too): DRF's JSON parser with a depth
    # limit, no lone surrogates, DATA_UPLOAD_MAX_MEMORY_SIZE. Any other body is refused
    # before it is read (core.parsers.JsonBodyOnlyMiddleware). The desk's HTML forms post to
    # their own Django views, not to the API.
    "DEFAULT_PARSER_CLASSES": ["core.parsers.SafeJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # ISO 8601 in the current zone, which is TIME_ZONE = "UTC": every instant ends in `Z`
    # (README, "API overview"); tournament times too (tournaments.serializers).
    "DATETIME_FORMAT": "iso-8601",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": env.int("API_PAGE_SIZE", default=50),
    "EXCEPTION_HANDLER": "config.exception_handler.api_exception_handler",
    # Anonymous requests are throttled per address; signed-in users only if THROTTLE_USER is set.
    # Each answer says where the client stands (X-RateLimit-*: core.throttles).
    "DEFAULT_THROTTLE_CLASSES": [
        "core.throttles.AnonRateThrottle",
        "core.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("THROTTLE_ANON", default="120/min"),
        "login": env("THROTTLE_LOGIN", default="20/min"),
        "user": env("THROTTLE_USER", default=None),
        "login_account": env("THROTTLE_LOGIN_ACCOUNT", default="10/min"),
        "practice": env("THROTTLE_PRACTICE", default="20/hour"),  # practice matches a player starts
    },
    # How many proxies of ours stand in front of the app (each appends to X-Forwarded-For):
    # the client's address is the one the nearest of them saw. 0 (no proxy): the header is
    # ignored, so a client cannot spoof its address to dodge the throttles.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}

# Login throttling on every login path (core.login_throttle), before any password is
# hashed: django-axes locks an account at a client address out for AXES_COOLOFF_TIME after
# AXES_FAILURE_LIMIT failed logins, and an address after LOGIN_ADDRESS_FAILURE_LIMIT; the
# password hashes a minute are bounded per address and per account.
AUTHENTICATION_BACKENDS = [
    "core.login_throttle.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# The database handler: counts shared by every worker without Redis, visible in the admin.
AXES_HANDLER = "core.login_throttle.LoginLockoutHandler"  # axes' database handler + per address
AXES_DISABLE_ACCESS_LOG = True  # no row per successful login
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = env.float("LOGIN_COOLOFF_HOURS", default=0.25)
# The account at a client address locks out: failing someone's password from elsewhere
# does not lock them out (`username,ip_address` locks the account, or the address, alone).
AXES_LOCKOUT_PARAMETERS = [
    item.split("+") if "+" in item else item
    for item in env.list("LOGIN_LOCKOUT_BY", default=["username+ip_address"])
]
# ... and any address after this many failed logins (of any accounts; 0: no such limit).
# High enough for a club's phones behind one address.
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30)
# Password hashes a minute (each costs a fraction of a second of CPU) per client address
# and per account, wrong or right, refused (429) before hashing once spent; 0: unbounded.
LOGIN_HASHES_PER_ADDRESS = env.int("LOGIN_HASHES_PER_ADDRESS", default=20)
LOGIN_HASHES_PER_ACCOUNT = env.int("LOGIN_HASHES_PER_ACCOUNT", default=10)
# ... and at most this many at once (each holds a worker while it runs), refused (429)
# past them: a burst from one client cannot take every worker; 0: unbounded.
LOGIN_HASHES_AT_ONCE_PER_ADDRESS = env.int("LOGIN_HASHES_AT_ONCE_PER_ADDRESS", default=2)
LOGIN_HASHES_AT_ONCE_PER_ACCOUNT = env.int("LOGIN_HASHES_AT_ONCE_PER_ACCOUNT", default=2)
# A one-time sign-in link for staff and organisers (`manage.py staff_signin_link`): valid
# this many minutes, and only until the account next signs in.
STAFF_SIGNIN_LINK_MINUTES = env.int("STAFF_SIGNIN_LINK_MINUTES", default=15)
AXES_CLIENT_IP_CALLABLE = "core.login_throttle.client_ip"
AXES_LOCKOUT_CALLABLE = "core.login_throttle.lockout_response"
# A success does not wipe the failures: else one's own login would reset an address's count.
AXES_RESET_ON_SUCCESS = False
AXES_VERBOSE = False

SPECTACULAR_SETTINGS = {
    "TITLE": "Hollywood Gin tournaments API",
    "DESCRIPTION": "Play, follow and audit Hollywood Gin matches; run club tournaments.",
    # The API's version (semantic): bumped with every change a client sees, each one in
    # CHANGELOG.md (major: a change that breaks a client; minor: additions).
    "VERSION": "3.3.0",
    "SERVERS": [
        {
            "url": env("API_SERVER_URL", default="/"),
            "description": "This server (API_SERVER_URL; paths start with /api/).",
        }
    ],
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    # No badge from validator.swagger.io: the docs page talks to this app only.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The live streams are async Django views, not DRF's: described by config/openapi.py.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.add_live_streams",
        "config.openapi_events.add_typed_events",
        "config.openapi.add_error_responses",
        "config.openapi.request_defaults_as_text",
        # Every operation's summary and description, from one table (issue 38).
        "config.openapi_operations.add_operation_docs",
    ],
    # Stable names for the enums clients branch on.
    "ENUM_NAME_OVERRIDES": {
        "ErrorCodeEnum": "core.api.ERROR_CODE_VALUES",
        "PhaseEnum": "games.engine.state.PHASES",
        "ActionTypeEnum": "games.serializers.ACTION_TYPES",
        "MatchStatusEnum": "games.serializers.MATCH_STATUSES",
        "FinishReasonEnum": "games.serializers.FINISH_REASONS",
        "HandKindEnum": "games.serializers.records.HAND_KINDS",
        "KindEnum": ["login", "named"],  # an access token's kind (core.models.AccessToken)
        "RulingTypeEnum": "games.serializers.records.RULING_TYPES",
        "FormatEnum": "tournaments.models.Tournament.Format",
        "TeamEventFormatEnum": ["team_round_robin", "team_swiss"],  # issue 39
        "NoticeKindEnum": "tournaments.notices.models.Notice.Kind",  # issue 40
        "EntryPaymentEnum": "tournaments.entries.models.EntryPayment.Status",  # issue 40
    },
}

# GET /metrics (Prometheus's text format) answers these networks (the client's address as
# the throttles see it, behind NUM_PROXIES proxies) or `Authorization: Bearer METRICS_TOKEN`;
# anyone else gets 404.
METRICS_ALLOWED_NETWORKS = env.list("METRICS_ALLOWED_NETWORKS", default=["127.0.0.1/32", "::1/128"])
METRICS_TOKEN = env("METRICS_TOKEN", default="")

# Errors: with SENTRY_DSN set, reported to Sentry (Django and Celery integrations,
# config/errors.py); without it nothing is sent anywhere, and a server error is e-mailed to
# ADMINS ("Name <address>,…") instead.
SENTRY_DSN = env("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env("SENTRY_ENVIRONMENT", default="production")
SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)
ADMINS = [
    (address.split("<")[0].strip() or address, address.split("<")[-1].rstrip(">").strip())
    for address in env.list("ADMINS", default=[])
]
MANAGERS = ADMINS
# E-mail (server errors to ADMINS, alerts to organisers): EMAIL_URL, e.g.
# smtp+tls://user:password@mail.example.org:587; default: written to the console.
_EMAIL = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = env("EMAIL_BACKEND", default=_EMAIL["EMAIL_BACKEND"])  # e.g. the console's
EMAIL_HOST = _EMAIL["EMAIL_HOST"] or "localhost"
EMAIL_PORT = _EMAIL["EMAIL_PORT"] or 25
EMAIL_HOST_USER = _EMAIL["EMAIL_HOST_USER"] or ""
EMAIL_HOST_PASSWORD = _EMAIL["EMAIL_HOST_PASSWORD"] or ""
EMAIL_USE_TLS = bool(_EMAIL.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_EMAIL.get("EMAIL_USE_SSL"))
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="hollywood-gin@localhost")
SERVER_EMAIL = env("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
EMAIL_SUBJECT_PREFIX = env("EMAIL_SUBJECT_PREFIX", default="[Hollywood Gin] ")
# The players' notices through a provider (django-anymail; issue 40): its settings as JSON,
# e.g. {"MAILGUN_API_KEY": "...", "MAILGUN_SENDER_DOMAIN": "mg.example.org"}, with
# EMAIL_BACKEND=anymail.backends.mailgun.EmailBackend.
ANYMAIL = env.json("ANYMAIL", default={})

# Logs: plain text (make run) or one JSON object a line (LOG_FORMAT=json; production's
# default), each with the request id, user id and route (core.logs).
LOG_FORMAT = env("LOG_FORMAT", default="plain")
LOG_LEVEL = env("LOG_LEVEL", default="INFO")
LOGGING = logging_config(fmt=LOG_FORMAT, level=LOG_LEVEL, mail_admins=not SENTRY_DSN)

if SENTRY_DSN:
    from config.errors import sentry_init  # only when set: Sentry stays unloaded otherwise

    sentry_init(
        dsn=SENTRY_DSN,
        environment=SENTRY_ENVIRONMENT,
        traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE,
    )
