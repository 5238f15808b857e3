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
    SECRET_KEY,
)

DEBUG = env.bool("DEBUG", default=False)
if not SECRET_KEY or SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is unset or is the development key: set SECRET_KEY in the environment "
        "to a long random value before starting with config.settings.production."
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
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Static files (the admin's and the pages' CSS and scripts) served by the app itself with
# WhiteNoise: compressed, with hashed names cached for ever; `collectstatic` runs in the
# Dockerfile. Nothing comes from a CDN.
MIDDLEWARE = [  # noqa: F405
    MIDDLEWARE[0],  # noqa: F405 - SecurityMiddleware first, then WhiteNoise
    "whitenoise.middleware.WhiteNoiseMiddleware",
    *MIDDLEWARE[1:],  # noqa: F405
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
