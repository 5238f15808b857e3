"""The retention job (core.retention): one beat entry; each kind of old row deleted after
its setting, recent and live rows kept, in batches, each count logged; a second run deletes
nothing more."""

from __future__ import annotations

import datetime as dt
import logging

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.models import AccessToken, Heartbeat, IdempotencyRecord, OutboxMessage
from core.retention import delete_in_batches
from core.tasks import retention_run_task
from players.models import LoginCode
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments.webhooks.models import Delivery, WebhookEndpoint

pytestmark = pytest.mark.django_db

NOW = timezone.now


def ago(**kwargs: float) -> dt.datetime:
    return NOW() - dt.timedelta(**kwargs)


def test_beat_runs_the_retention_job_hourly():
    entry = settings.CELERY_BEAT_SCHEDULE["retention-run"]
    assert entry == {"task": "core.retention_run", "schedule": 3600.0}
    assert "idempotency-records-expire" not in settings.CELERY_BEAT_SCHEDULE


def _login_codes(player) -> dict[str, LoginCode]:
    def code(name: str, **times) -> LoginCode:
        times.setdefault("issued_at", ago(days=40))
        times.setdefault("expires_at", NOW() + dt.timedelta(hours=1))
        return LoginCode.objects.create(player=player, digest=name.ljust(64, "0"), **times)

    return {
        "used_old": code("used_old", used_at=ago(days=31), expires_at=ago(days=31)),
        "expired_old": code("expired_old", expires_at=ago(days=31)),
        "revoked_old": code("revoked_old", revoked_at=ago(days=31)),
        "used_recent": code("used_recent", used_at=ago(days=29), expires_at=ago(days=29)),
        "live": code("live"),
    }


def _tokens(user) -> dict[str, AccessToken]:
    def token(name: str, **times) -> AccessToken:
        return AccessToken.objects.create(
            user=user, digest=name.ljust(64, "0"), prefix=name[:11], **times
        )

    return {
        "revoked_old": token("revoked_old", revoked_at=ago(days=31)),
        "expired_old": token("expired_old", expires_at=ago(days=31)),
        "expired_recent": token("expired_recent", expires_at=ago(days=29)),
        "live": token("live", expires_at=NOW() + dt.timedelta(days=1)),
    }


def _deliveries(organiser) -> dict[str, Delivery]:
    tournament = make_tournament(organiser, make_bots(2), rounds=1, check_in=False)
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament, url="https://example.org/hook", secret="s", secret_prefix="s"
    )
    made = {}
    for n, (name, status, days) in enumerate(
        [
            ("delivered_old", "delivered", 31),
            ("parked_old", "parked", 31),
            ("pending_old", "pending", 31),
            ("delivered_recent", "delivered", 29),
        ]
    ):
        delivery = Delivery.objects.create(
            endpoint=endpoint,
            event_id=n + 1,
            event_position=n + 1,
            event_type="RoundPaired",
            payload={},
            status=status,
        )
        Delivery.objects.filter(pk=delivery.pk).update(created_at=ago(days=days))
        made[name] = delivery
    return made


def test_each_kind_goes_after_its_time_and_the_rest_stays(organiser, make_player, caplog):
    player = make_player("Kim")
    codes, tokens = _login_codes(player), _tokens(player.user)
    deliveries = _deliveries(organiser)
    for name, sent in [("sent_old", ago(days=8)), ("sent_recent", ago(days=6)), ("unsent", None)]:
        OutboxMessage.objects.create(task=name, sent_at=sent)
    Heartbeat.objects.create(name="worker:gone@host", beat_at=ago(hours=25))
    Heartbeat.objects.create(name="worker:alive@host", beat_at=ago(minutes=1))
    Heartbeat.objects.create(name="beat", beat_at=ago(days=3))
    for key, expiry in [("gone", ago(minutes=1)), ("live", NOW() + dt.timedelta(days=1))]:
        Session.objects.create(session_key=key, session_data="", expire_date=expiry)
    for key, hours in [("old", 25), ("new", 23)]:
        record = IdempotencyRecord.objects.create(
            user=player.user, key=key, method="POST", path="/", fingerprint="f", status_code=201
        )
        IdempotencyRecord.objects.filter(pk=record.pk).update(created_at=ago(hours=hours))

    with caplog.at_level(logging.INFO, logger="core.retention"):
        counts = retention_run_task.delay().get()

    assert counts == {
        "idempotency_records_expire": 1,
        "access_tokens_prune": 2,
        "outbox_prune": 1,
        "heartbeats_prune": 1,
        "sessions_prune": 1,
        "login_codes_prune": 3,
        "deliveries_prune": 2,
    }
    assert set(IdempotencyRecord.objects.values_list("key", flat=True)) == {"new"}
    assert set(AccessToken.objects.values_list("name", "prefix")) == {
        ("", "expired_rec"),
        ("", "live"),
    }
    left = set(LoginCode.objects.values_list("pk", flat=True))
    assert left == {codes["used_recent"].pk, codes["live"].pk}
    assert set(Delivery.objects.values_list("pk", flat=True)) == {
        deliveries["pending_old"].pk,
        deliveries["delivered_recent"].pk,
    }
    # (the tournament made above queued jobs of its own: its players' notices, unsent)
    ours = OutboxMessage.objects.filter(task__in=["sent_old", "sent_recent", "unsent"])
    assert set(ours.values_list("task", flat=True)) == {"sent_recent", "unsent"}
    assert set(Heartbeat.objects.values_list("name", flat=True)) == {"worker:alive@host", "beat"}
    assert set(Session.objects.values_list("session_key", flat=True)) == {"live"}
    logged = {r.prune: r.deleted for r in caplog.records if hasattr(r, "deleted")}
    assert logged == counts
    assert set(retention_run_task.delay().get().values()) == {0}  # again: nothing more
    assert tokens["live"].pk in set(AccessToken.objects.values_list("pk", flat=True))


def test_deletes_go_in_batches(make_player):
    user = make_player("Kim").user
    for n in range(7):
        IdempotencyRecord.objects.create(
            user=user, key=str(n), method="POST", path="/", fingerprint="f", status_code=201
        )
    with CaptureQueriesContext(connection) as queries:
        assert delete_in_batches(IdempotencyRecord.objects.all(), batch=3) == 7
    deletes = [q["sql"] for q in queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 3  # 3 + 3 + 1 rows: short statements, never the whole table
    assert not IdempotencyRecord.objects.exists()
