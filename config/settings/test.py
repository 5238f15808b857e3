"""Test settings: the same as base, with fast hashing. DATABASE_URL and CELERY_BROKER_URL
still decide whether PostgreSQL and Redis are used (CI sets both)."""

from config.settings.base import *  # noqa: F403
from config.settings.base import REST_FRAMEWORK

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Every test client is 127.0.0.1 and the budgets' counts outlive a test (the cache): the
# tests of the budgets set their own.
LOGIN_HASHES_PER_ADDRESS = 0
LOGIN_HASHES_PER_ACCOUNT = 0
LOGIN_HASHES_AT_ONCE_PER_ADDRESS = 0
LOGIN_HASHES_AT_ONCE_PER_ACCOUNT = 0
DEBUG = False
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {**REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": "10000/min"},
}
