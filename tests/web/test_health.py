"""The probes (issue 35): /livez asks nothing external; /readyz (and /healthz, its older
name) checks the database, the cache, the migrations, the worker's and beat's heartbeats
and the outbox, and names what failed."""

import datetime as dt

import pytest
from celery import current_app
from django.utils import timezone

from core.heartbeats import BEAT, heartbeat_record
from core.models import Heartbeat, OutboxMessage


def test_livez_answers_without_the_database(client, django_db_blocker):
    with django_db_blocker.block():  # a query would raise here
        response = client.get("/livez")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/readyz", "/healthz"])
def test_readyz_with_jobs_in_process_checks_what_there_is(client, path):
    response = client.get(path)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok" and body["failed"] == []
    assert body["checks"] == {
        "database": "ok", "cache": "ok", "migrations": "ok",
        "worker": "skipped", "beat": "skipped", "outbox": "ok",
    }  # fmt: skip


@pytest.fixture
def with_a_broker(settings):
    """Jobs queued to workers (not run in process): their heartbeats count."""
    current_app.conf.task_always_eager = False
    settings.READYZ_WORKER_SILENT_SECONDS = 60
    settings.READYZ_BEAT_SILENT_SECONDS = 60


@pytest.mark.django_db
def test_readyz_names_beat_and_worker_never_heard_or_silent(client, with_a_broker):
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["beat", "worker"]
    assert response.json()["checks"]["beat"] == "error: no heartbeat yet"

    heartbeat_record("worker:w1@host")
    heartbeat_record(BEAT)
    assert client.get("/readyz").status_code == 200

    Heartbeat.objects.filter(name=BEAT).update(beat_at=timezone.now() - dt.timedelta(seconds=61))
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["beat"]
    assert response.json()["checks"]["beat"].startswith("error: silent for 6")


@pytest.mark.django_db
def test_readyz_names_an_outbox_job_waiting_too_long(client, settings):
    settings.READYZ_OUTBOX_MAX_AGE_SECONDS = 120
    message = OutboxMessage.objects.create(task="core.outbox_drain", args=[])
    assert client.get("/readyz").status_code == 200  # young: the relay or drain sends it
    OutboxMessage.objects.filter(pk=message.pk).update(
        created_at=timezone.now() - dt.timedelta(seconds=121)
    )
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["outbox"]


@pytest.mark.django_db
def test_readyz_names_unapplied_migrations(client, monkeypatch):
    import core.health

    monkeypatch.setattr(core.health, "_migrated", False)
    monkeypatch.setattr(
        core.health.MigrationExecutor, "migration_plan", lambda self, targets: [("x", False)]
    )
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["migrations"]


@pytest.mark.django_db
def test_heartbeat_check_is_the_beat_containers_healthcheck(settings):
    from django.core.management import CommandError, call_command

    settings.READYZ_BEAT_SILENT_SECONDS = 60
    with pytest.raises(CommandError, match="no heartbeat yet"):
        call_command("heartbeat_check", "beat")
    heartbeat_record(BEAT)
    call_command("heartbeat_check", "beat")
    Heartbeat.objects.filter(name=BEAT).update(beat_at=timezone.now() - dt.timedelta(seconds=61))
    with pytest.raises(CommandError, match="silent for"):
        call_command("heartbeat_check", "beat")
