"""Production settings: refuse to start without real secrets and hosts."""

from django.core.exceptions import ImproperlyConfigured

from config.env import env
from config.settings.base import *  # noqa: F403
from config.settings.base import (
    DEV_SECRET_KEY,
    EVENT_CHAIN_KEY,
    EVENT_CHAIN_KEY_FILE,
    EVENT_CHAIN_KEYS,
    EVENT_CHAIN_KEYS_FILE,
    LOG_LEVEL,
    SECRET_KEY,
    SENTRY_DSN,
)
from core.logs import logging_config

DEBUG = env.bool("DEBUG", default=False)
if not SECRET_KEY or SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is unset or is the development key: set SECRET_KEY in the environment "
        "to a long random value before starting with config.settings.production (the "
        "settings of every entry point when DJANGO_SETTINGS_MODULE is unset). On a "
        "developer's machine, put DJANGO_SETTINGS_MODULE=config.settings.local in .env."
    )
if not any((EVENT_CHAIN_KEYS, EVENT_CHAIN_KEYS_FILE, EVENT_CHAIN_KEY, EVENT_CHAIN_KEY_FILE)):
    raise ImproperlyConfigured(
        "No chain key: set EVENT_CHAIN_KEY (or EVENT_CHAIN_KEY_FILE, or a keyring in "
        "EVENT_CHAIN_KEYS / EVENT_CHAIN_KEYS_FILE) before starting with "
        "config.settings.production. The event seals are never made with a key derived from "
        "SECRET_KEY in production: keep the chain key apart from the database and its "
        "backups (docs/operators/backup-restore.md, Key custody)."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
# Each web worker keeps its database connection (and the prepared statements of a game
# action, config/prepared.py) rather than opening one per request; checked before reuse.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=300)  # noqa: F405
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # noqa: F405
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
# Behind a TLS proxy (Caddy in docker-compose.yml, deploy/Caddyfile) that sets
# X-Forwarded-Proto: plain HTTP is redirected to HTTPS, and browsers are told to use only
# HTTPS for a year (HSTS). The probes and /metrics answer on plain HTTP too: a container's
# healthcheck and a scraper on the same machine ask the app directly.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^livez$", r"^readyz$", r"^healthz$", r"^metrics$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
# Preloading (browsers shipping the host as HTTPS-only) is a submission a club decides on,
# not a default: without it Django's check W021 would warn, so it is silenced unless asked.
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

# `check --deploy` is about this deployment; the schema's own warnings (drf-spectacular's
# naming of enums) are the API's business, checked where the schema is built and tested.
SPECTACULAR_SETTINGS = {**SPECTACULAR_SETTINGS, "ENABLE_DJANGO_DEPLOY_CHECK": False}  # noqa: F405

# Logs: one JSON object a line (core.logs), unless LOG_FORMAT=plain.
LOG_FORMAT = env("LOG_FORMAT", default="json")
LOGGING = logging_config(fmt=LOG_FORMAT, level=LOG_LEVEL, mail_admins=not SENTRY_DSN)

# Static files (the admin's and the pages' CSS and scripts) served by the app itself with
# WhiteNoise: compressed, with hashed names cached for ever; `collectstatic` runs in the
# Dockerfile. Nothing comes from a CDN.
_SECURITY = MIDDLEWARE.index("django.middleware.security.SecurityMiddleware")  # noqa: F405
MIDDLEWARE = [  # noqa: F405 - SecurityMiddleware, then WhiteNoise
    *MIDDLEWARE[: _SECURITY + 1],  # noqa: F405
    "whitenoise.middleware.WhiteNoiseMiddleware",
    *MIDDLEWARE[_SECURITY + 1 :],  # noqa: F405
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
