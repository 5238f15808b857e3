"""A real Celery worker on Redis sends the webhooks to a real receiver on 127.0.0.1 that
fails, answers slowly and checks signatures; a worker killed (SIGKILL) in the middle of a
delivery and started again: every event arrives, duplicates only with the same event id
and position.

The worker is a subprocess on the test database (these tests commit: `transaction=True`)
and a Redis database and queue of its own, with the fast webhook settings in its
environment; the receiver is a thread of the test process.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from tests.helpers import redis_url
from tests.tournaments.helpers import make_bots, make_tournament
from tests.tournaments.webhooks.helpers import (
    FAST_WEBHOOKS,
    Receiver,
    Worker,
    app_sends_to,
    database_url,
    receiving,
    wait_for,
)
from tournaments import services
from tournaments.webhooks import services as webhooks
from tournaments.webhooks.models import Delivery

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.slow,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL, reason="needs CELERY_BROKER_URL (Redis) for a worker"
    ),
]

REDIS_DB = 11  # not flushed: the queue is named per run


@pytest.fixture(scope="module")
def worker(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Worker]:
    with django_db_blocker.unblock():
        if connection.vendor != "postgresql":
            pytest.skip("the worker test needs PostgreSQL (the worker shares the test database)")
        db_url = database_url(connection.settings_dict)
    url = redis_url(settings.CELERY_BROKER_URL, REDIS_DB)
    queue = f"webhooks-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        **FAST_WEBHOOKS,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": db_url,
        "CELERY_BROKER_URL": url,
        "CELERY_RESULT_BACKEND": url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_VISIBILITY_TIMEOUT": "3",
        "HG_TEST_QUEUE": queue,
    }
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    w = Worker(celery_app=celery_app, env=env, queue=queue, log_path=log_path)
    with app_sends_to(celery_app, url, queue):
        w.start()
        try:
            yield w
        finally:
            w.stop()


def _all_delivered(endpoint_id: int, expected: int) -> bool:
    rows = Delivery.objects.filter(endpoint_id=endpoint_id)
    return rows.count() == expected and not rows.exclude(status="delivered").exists()


def _check_no_loss_and_clean_duplicates(receiver: Receiver, positions: range) -> None:
    got = receiver.by_event()
    assert all(r.signed for rs in got.values() for r in rs), "a delivery failed its signature"
    # Every event, under one id; every copy of an event the same event.
    assert sorted(rs[0].position for rs in got.values()) == list(positions)
    for rs in got.values():
        assert len({r.position for r in rs}) == 1 and all(r.body == rs[0].body for r in rs)


@pytest.mark.django_db(transaction=True)
def test_the_worker_delivers_every_event_through_failures_and_slow_answers(
    worker, organiser, fast_webhooks
):
    # Odd positions: a 500 first; positions divisible by 4: too slow first (a duplicate).
    def plan_for(position: int, n: int) -> str:
        if n > 1:
            return "ok"
        return "fail" if position % 2 else ("slow" if position % 4 == 0 else "ok")

    receiver = Receiver()  # "slow": answers once the worker gave up waiting
    receiver.plan = lambda n, position: plan_for(position, n)
    with receiving(receiver):
        tournament = make_tournament(organiser, make_bots(4), rounds=1, check_in=False)
        written = webhooks.webhook_create(
            tournament_id=tournament.pk, by=organiser, url=receiver.url
        )
        receiver.secret = written.secret
        first = written.endpoint.cursor + 1
        for reg in tournament.registrations.select_related("player"):
            services.tournament_check_in(
                tournament_id=tournament.pk, player=reg.player, by=organiser
            )
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
        tournament.refresh_from_db()
        expected = tournament.version - first + 1
        wait_for(
            f"{expected} deliveries, all delivered (log: {worker.log_path})",
            lambda: _all_delivered(written.endpoint.pk, expected),
        )
        _check_no_loss_and_clean_duplicates(receiver, range(first, tournament.version + 1))
        for d in Delivery.objects.filter(endpoint=written.endpoint):
            plain = d.event_position % 2 == 0 and d.event_position % 4 != 0
            assert d.attempts == (1 if plain else 2), d
            assert d.last_status_code == 200 and d.last_latency_ms is not None


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_delivery_loses_nothing(worker, organiser, fast_webhooks):
    receiver = Receiver()
    receiver.plan = lambda n, _: "hold" if n == 1 and not receiver.holding.is_set() else "ok"
    with receiving(receiver):
        tournament = make_tournament(organiser, make_bots(3), rounds=1, check_in=False)
        written = webhooks.webhook_create(
            tournament_id=tournament.pk, by=organiser, url=receiver.url
        )
        receiver.secret = written.secret
        first = written.endpoint.cursor + 1
        for reg in tournament.registrations.select_related("player"):
            services.tournament_check_in(
                tournament_id=tournament.pk, player=reg.player, by=organiser
            )
        tournament.refresh_from_db()
        expected = tournament.version - first + 1
        wait_for("the receiver to hold a request", receiver.holding.is_set)
        held = receiver.received[0]
        worker.kill()  # mid-delivery: the POST sent, no answer read, nothing recorded
        receiver.release.set()
        in_flight = Delivery.objects.get(event_id=held.event_id)
        assert (in_flight.status, in_flight.attempts) == ("pending", 1)
        assert in_flight.leased_until is not None  # claimed by the dead worker
        worker.start()

        def settled() -> bool:
            webhooks.webhooks_reconcile()  # beat's job, every minute in production
            return _all_delivered(written.endpoint.pk, expected)

        wait_for(f"every delivery to be delivered (log: {worker.log_path})", settled)
        _check_no_loss_and_clean_duplicates(receiver, range(first, tournament.version + 1))
        again = [r for r in receiver.received if r.event_id == held.event_id]
        assert len(again) >= 2 and {r.delivery for r in again} == {held.delivery}
        in_flight.refresh_from_db()
        assert in_flight.attempts >= 2 and in_flight.status == "delivered"
