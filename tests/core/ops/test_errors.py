"""Issue 35: errors. With SENTRY_DSN set, Sentry with Django's and Celery's integrations;
without it nothing is sent there, and a server error is e-mailed to ADMINS."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail

import core.health

ROOT = Path(__file__).resolve().parents[3]
PROBE = (
    "import django; django.setup(); import sentry_sdk; c = sentry_sdk.get_client(); "
    "print(c.is_active(), sorted(c.integrations) if c.is_active() else [])"
)


def sentry(dsn: str) -> str:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "SENTRY_DSN": dsn}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_sentry_is_on_only_with_a_dsn():
    assert sentry("") == "False []"
    on = sentry("https://public@127.0.0.1:9/1")  # a port nothing listens on
    assert on.startswith("True") and "'django'" in on and "'celery'" in on


@pytest.mark.django_db
def test_a_server_error_is_e_mailed_to_admins_with_its_request_id(client, settings, monkeypatch):
    settings.ADMINS = [("Ops", "ops@example.org")]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    def broken() -> str:
        raise RuntimeError("a check that breaks")

    monkeypatch.setitem(core.health.CHECKS, "broken", broken)
    client.raise_request_exception = False
    response = client.get("/readyz", HTTP_X_REQUEST_ID="err-1")
    assert response.status_code == 500
    assert response["X-Request-ID"] == "err-1"
    (sent,) = mail.outbox
    assert sent.to == ["ops@example.org"] and "RuntimeError" in sent.body
    assert "err-1" in sent.body  # the request's id, to find its log lines
