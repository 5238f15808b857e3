"""Idempotency keys expire: beat deletes the recorded responses after the TTL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from core.models import IdempotencyRecord
from core.tasks import idempotency_records_expire_task

pytestmark = pytest.mark.django_db


def create_player(client, key: str, name: str):
    return client.post("/api/players/", {"name": name}, format="json", HTTP_IDEMPOTENCY_KEY=key)


def age(key: str, hours: float) -> None:
    created = timezone.now() - timedelta(hours=hours)
    IdempotencyRecord.objects.filter(key=key).update(created_at=created)


def test_beat_runs_the_expiry_hourly_with_the_other_prunes():
    entry = settings.CELERY_BEAT_SCHEDULE["retention-run"]
    assert entry == {"task": "core.retention_run", "schedule": 3600.0}
    assert settings.RETENTION_PRUNES[0] == "core.idempotency.idempotency_records_expire"


def test_records_older_than_the_ttl_are_deleted_and_newer_ones_kept(organiser_client):
    assert create_player(organiser_client, "old", "Old").status_code == 201
    assert create_player(organiser_client, "new", "New").status_code == 201
    age("old", settings.IDEMPOTENCY_KEY_TTL_HOURS + 1)
    age("new", settings.IDEMPOTENCY_KEY_TTL_HOURS - 1)
    assert idempotency_records_expire_task.delay().get() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    assert idempotency_records_expire_task.delay().get() == 0  # a second run: nothing more


def test_a_retry_within_the_ttl_replays_and_after_it_runs_again(organiser_client):
    first = create_player(organiser_client, "k1", "Kim")
    again = create_player(organiser_client, "k1", "Kim")
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    age("k1", settings.IDEMPOTENCY_KEY_TTL_HOURS + 1)
    idempotency_records_expire_task.delay().get()
    later = create_player(organiser_client, "k1", "Kim")
    assert later.status_code == 201 and "Idempotent-Replayed" not in later.headers
    assert later.json()["id"] != first.json()["id"]  # a new request, a new player
