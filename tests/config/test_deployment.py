"""Issue 35: the production deployment. `check --deploy` is clean at WARNING with the
documented production variables; every entry point reads one DJANGO_SETTINGS_MODULE;
docker-compose.yml restarts every long-running service and puts a TLS proxy in front."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]

# What docs/operators/running.md says production needs (the rest has safe defaults).
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "EVENT_CHAIN_KEY": secrets.token_urlsafe(32),  # production refuses to start without it
    "ALLOWED_HOSTS": "gin.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://gin.example.org",
    "NUM_PROXIES": "1",
}


def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env={**base, **env}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


@pytest.mark.slow
def test_check_deploy_is_clean_at_warning_with_the_documented_variables():
    done = run("manage.py", "check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    # ... and it is a real check: without HSTS it fails.
    worse = run(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING",
        env={**PRODUCTION, "SECURE_HSTS_SECONDS": "0"},
    )  # fmt: skip
    assert worse.returncode != 0 and "security.W004" in worse.stderr


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi", "config.celery"])
def test_every_entry_point_reads_the_one_settings_variable(entry):
    code = (
        f"import {entry}; from django.conf import settings; "
        "import os; print(os.environ['DJANGO_SETTINGS_MODULE'], settings.DEBUG)"
    )
    local = run("-c", code, env={"DJANGO_SETTINGS_MODULE": "config.settings.local"})
    assert local.stdout.split() == ["config.settings.local", "True"], local.stderr
    keys = {k: PRODUCTION[k] for k in ("SECRET_KEY", "EVENT_CHAIN_KEY")}
    unset = run("-c", code, env={**keys, "ALLOWED_HOSTS": "x"})
    assert unset.stdout.split() == ["config.settings.production", "False"], unset.stderr


def test_manage_py_without_the_variable_runs_the_production_settings():
    done = run("manage.py", "diffsettings", env={"SECRET_KEY": ""})
    assert done.returncode != 0 and "config.settings.production" in done.stderr  # no key


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_restarts_every_long_running_service_and_proxies_with_tls():
    services = compose()["services"]
    one_shot = {"migrate"}
    for name, service in services.items():
        restart = service.get("restart")
        if name in one_shot:
            assert restart == "no"
        else:
            assert restart in ("unless-stopped", "always"), name
    assert services["proxy"]["image"].startswith("caddy")
    assert {"80:80", "443:443"} <= set(services["proxy"]["ports"])
    assert "healthcheck" in services["beat"]
    assert services["live"]["environment"]["CONN_MAX_AGE"] == "0"
    env = services["web"]["environment"]
    assert env["NUM_PROXIES"] == "1" and env["SESSION_COOKIE_SECURE"] == "true"
    assert env["EVENT_CHAIN_KEY_FILE"] == "/run/secrets/event_chain_key"
    assert "manage.py backup --output-dir /backups --keep 14" in " ".join(
        services["backup"]["command"]
    )
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "tls {$TLS_ISSUER:internal}" in caddyfile and "live:8001" in caddyfile


def test_every_systemd_unit_reads_the_one_environment_file():
    units = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
    assert {u.stem for u in units} >= {
        "hollywood-gin-web", "hollywood-gin-live", "hollywood-gin-worker",
        "hollywood-gin-beat", "hollywood-gin-release", "hollywood-gin-backup",
    }  # fmt: skip
    for unit in units:
        assert "EnvironmentFile=/etc/hollywood-gin/env" in unit.read_text(), unit.name
    example = (ROOT / "deploy" / "systemd" / "hollywood-gin.env.example").read_text()
    assert "DJANGO_SETTINGS_MODULE=config.settings.production" in example
