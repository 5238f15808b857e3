"""Settings for `make run` and a developer's machine: the base settings (SQLite and eager
Celery unless DATABASE_URL / CELERY_BROKER_URL say otherwise) with DEBUG on."""

from config.env import env
from config.settings.base import *  # noqa: F403

DEBUG = env.bool("DEBUG", default=True)
