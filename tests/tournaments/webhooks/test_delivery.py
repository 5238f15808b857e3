"""Sending, in process (eager jobs) to a real receiver on 127.0.0.1: signed, retried with
backoff after failures and slow answers, parked after the limit, checked against the
guard again at delivery, and nothing lost when a job is."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from tests.tournaments.helpers import make_bots, make_tournament
from tests.tournaments.webhooks.helpers import Receiver
from tournaments import services
from tournaments.webhooks import services as webhooks
from tournaments.webhooks.models import Delivery, WebhookEndpoint

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _retries_when_due(monkeypatch):
    """Eager jobs run at commit: a retry queued for its time (`eta`) would run at once, too
    early by its backoff and skipped, or, on a busy machine, late enough to be sent there
    and then (an attempt more than the test counts). Keeping a job until its time is the
    broker's part; here it is the test's: a job with an `eta` is not run at commit, and the
    test sends the delivery when it is due."""
    from tournaments import jobs as queue

    now = queue.webhook_deliver_on_commit

    def at_commit_unless_later(*, delivery_id: int, eta=None) -> None:
        if eta is None:
            now(delivery_id=delivery_id)

    monkeypatch.setattr(queue, "webhook_deliver_on_commit", at_commit_unless_later)


@pytest.fixture
def tournament(organiser):
    return make_tournament(organiser, make_bots(3), rounds=1, check_in=False)


def _register(tournament, organiser, receiver: Receiver, **kwargs) -> WebhookEndpoint:
    written = webhooks.webhook_create(
        tournament_id=tournament.pk, by=organiser, url=receiver.url, **kwargs
    )
    receiver.secret = written.secret
    return written.endpoint


def _check_in_all(tournament, organiser, jobs) -> None:
    with jobs():
        for reg in tournament.registrations.select_related("player"):
            services.tournament_check_in(
                tournament_id=tournament.pk, player=reg.player, by=organiser
            )


def _send_when_due(jobs, delivery: Delivery) -> str:
    delivery.refresh_from_db()
    if delivery.next_attempt_at is not None:
        time.sleep(max(0.0, (delivery.next_attempt_at - timezone.now()).total_seconds()))
    with jobs():
        return webhooks.delivery_send(delivery_id=delivery.pk)


def _settle(jobs, timeout: float = 180.0) -> None:
    """Send every pending delivery when due until none is pending."""
    deadline = time.monotonic() + timeout
    while (pending := Delivery.objects.filter(status="pending").first()) is not None:
        assert time.monotonic() < deadline, "deliveries still pending"
        _send_when_due(jobs, pending)


def test_failures_are_retried_with_backoff_until_delivered(
    organiser, tournament, fast_webhooks, receiver, jobs
):
    receiver.plan = lambda n, _: "fail" if n <= 2 else "ok"  # the first two attempts: 500
    endpoint = _register(tournament, organiser, receiver)
    _check_in_all(tournament, organiser, jobs)  # three PlayerCheckedIn events
    first = Delivery.objects.order_by("event_position").first()
    assert first.status == "pending" and first.attempts == 1
    assert first.last_status_code == 500 and first.last_response == "try again later"
    assert first.next_attempt_at > first.last_attempt_at  # backed off
    _settle(jobs)
    tournament.refresh_from_db()
    delivered = list(Delivery.objects.filter(endpoint=endpoint).order_by("event_position"))
    assert [d.event_position for d in delivered] == list(
        range(endpoint.cursor + 1, tournament.version + 1)
    )
    assert {(d.status, d.attempts, d.last_status_code) for d in delivered} == {
        ("delivered", 3, 200)
    }
    for d in delivered:
        got = receiver.by_event()[d.event_id]
        assert [r.attempt for r in got] == [1, 2, 3]
        assert all(r.signed for r in got)
        assert {r.position for r in got} == {d.event_position}
        assert all(r.body == got[0].body for r in got)  # the same event every time
        assert got[0].body["type"] == "PlayerCheckedIn" and got[0].body["event_id"] == d.event_id
        assert "username" not in str(got[0].body)  # the public view: no organiser's login


def test_a_slow_receiver_times_out_and_gets_the_event_again(
    organiser, tournament, fast_webhooks, receiver, jobs
):
    receiver.plan = lambda n, _: "slow" if n == 1 else "ok"  # answers once the sender hung up
    _register(tournament, organiser, receiver, event_types=["PlayerCheckedIn"])
    reg = tournament.registrations.select_related("player").first()
    with jobs():
        services.tournament_check_in(tournament_id=tournament.pk, player=reg.player, by=organiser)
    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and delivery.last_status_code is None
    assert "timed out" in delivery.last_error.lower() or "timeout" in delivery.last_error.lower()
    # It waited for its timeout, and no longer: the receiver answers only once it hung up.
    assert delivery.last_latency_ms >= 1000 * fast_webhooks.WEBHOOK_TIMEOUT_SECONDS - 50
    _settle(jobs)
    delivery.refresh_from_db()
    assert delivery.status == "delivered" and delivery.attempts == 2
    # It got it twice: a duplicate with the same id and position, as at-least-once allows.
    got = receiver.by_event()[delivery.event_id]
    assert len(got) == 2 and {r.position for r in got} == {delivery.event_position}


def test_a_delivery_is_parked_after_the_limit_and_redelivered_by_hand(
    organiser, tournament, fast_webhooks, receiver, jobs, caplog
):
    receiver.plan = lambda n, _: "fail"
    endpoint = _register(tournament, organiser, receiver, event_types=["PlayerCheckedIn"])
    reg = tournament.registrations.select_related("player").first()
    began = time.monotonic()
    with jobs():  # the first attempt, after the commit
        services.tournament_check_in(tournament_id=tournament.pk, player=reg.player, by=organiser)
    spans = [time.monotonic() - began]  # how long each attempt took, at most
    delivery = Delivery.objects.get()
    waits = []  # from each failed attempt to the next, as the delivery scheduled it
    while delivery.status == "pending":
        waits.append((delivery.next_attempt_at - delivery.last_attempt_at).total_seconds())
        time.sleep(max(0.0, (delivery.next_attempt_at - timezone.now()).total_seconds()))
        began = time.monotonic()
        with jobs():
            webhooks.delivery_send(delivery_id=delivery.pk)
        spans.append(time.monotonic() - began)
        delivery.refresh_from_db()
    assert delivery.status == "parked" and delivery.attempts == 6  # WEBHOOK_MAX_ATTEMPTS
    assert delivery.next_attempt_at is None and "parked" in caplog.text
    assert [r.attempt for r in receiver.received] == [1, 2, 3, 4, 5, 6]
    # Backed off: 0.2-0.4, 0.4-0.8, then 0.5-1 s (the 1 s cap), with jitter, counted from
    # the end of the failed attempt; checked on the schedule the delivery recorded (not a
    # stopwatch over the whole, which a busy machine stretches): an attempt's start to the
    # next's due time is the delay plus that attempt's own time.
    bands = [(0.2, 0.4), (0.4, 0.8)] + [(0.5, 1.0)] * 3
    for wait, span, (low, high) in zip(waits, spans[:-1], bands, strict=True):
        assert low <= wait <= high + span + 0.01, (waits, spans)
    assert _send_when_due(jobs, delivery) == "skipped"  # a parked delivery stays parked
    receiver.plan = lambda n, _: "ok"
    with jobs():
        webhooks.delivery_redeliver(
            tournament_id=tournament.pk,
            webhook_id=endpoint.pk,
            delivery_id=delivery.pk,
            by=organiser,
        )
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.redeliveries) == ("delivered", 1, 1)


def test_the_backoff_doubles_with_jitter_up_to_its_cap(settings):
    settings.WEBHOOK_BACKOFF_SECONDS = 30.0
    settings.WEBHOOK_BACKOFF_MAX_SECONDS = 3600.0
    low = [webhooks.retry_delay(attempts=n, rand=lambda: 0.0) for n in range(1, 10)]
    high = [webhooks.retry_delay(attempts=n, rand=lambda: 1.0) for n in range(1, 10)]
    assert high[:4] == [30, 60, 120, 240] and high[-1] == 3600
    assert low[:4] == [15, 30, 60, 120] and low[-1] == 1800
    assert len({webhooks.retry_delay(attempts=3) for _ in range(20)}) > 1  # jittered


def test_the_guard_is_checked_again_at_delivery(
    organiser, tournament, fast_webhooks, receiver, jobs, settings
):
    _register(tournament, organiser, receiver, event_types=["PlayerCheckedIn"])
    settings.WEBHOOK_ALLOWED_NETWORKS = []  # 127.0.0.1 no longer allowed
    reg = tournament.registrations.select_related("player").first()
    with jobs():
        services.tournament_check_in(tournament_id=tournament.pk, player=reg.player, by=organiser)
    delivery = Delivery.objects.get()
    assert delivery.attempts == 1 and delivery.status == "pending"
    assert "may not reach" in delivery.last_error and delivery.last_status_code is None
    assert receiver.received == []


def test_repeated_jobs_send_nothing_more(organiser, tournament, fast_webhooks, receiver, jobs):
    endpoint = _register(tournament, organiser, receiver)
    _check_in_all(tournament, organiser, jobs)
    tournament.refresh_from_db()
    assert len(receiver.received) == tournament.version - endpoint.cursor
    with jobs():
        assert webhooks.webhooks_dispatch(tournament_id=tournament.pk) == 0  # cursor moved
        for delivery in Delivery.objects.all():
            assert webhooks.delivery_send(delivery_id=delivery.pk) == "skipped"
        assert webhooks.webhooks_reconcile() == 0
    assert len(receiver.received) == tournament.version - endpoint.cursor


def test_a_delivery_being_sent_elsewhere_is_not_sent_twice_at_once(
    organiser, tournament, fast_webhooks, receiver, jobs
):
    _register(tournament, organiser, receiver, event_types=["PlayerCheckedIn"])
    from tournaments import jobs as queue

    original = queue.webhook_deliver_on_commit
    queue.webhook_deliver_on_commit = lambda **kwargs: None  # made, not sent yet
    try:
        reg = tournament.registrations.select_related("player").first()
        with jobs():
            services.tournament_check_in(
                tournament_id=tournament.pk, player=reg.player, by=organiser
            )
        delivery = Delivery.objects.get()
        leased = timezone.now() + timezone.timedelta(seconds=30)
        Delivery.objects.filter(pk=delivery.pk).update(leased_until=leased)  # another worker
        assert webhooks.delivery_send(delivery_id=delivery.pk) == "busy"
    finally:
        queue.webhook_deliver_on_commit = original
    assert receiver.received == [] and Delivery.objects.get().attempts == 0


def test_events_whose_job_was_lost_are_sent_by_the_reconciler(
    organiser, tournament, fast_webhooks, receiver, jobs, monkeypatch
):
    from tournaments import jobs as queue

    endpoint = _register(tournament, organiser, receiver)
    monkeypatch.setattr(queue, "enqueue_in_tx", lambda **kwargs: None)  # the broker is down
    _check_in_all(tournament, organiser, jobs)
    assert not Delivery.objects.exists() and receiver.received == []
    monkeypatch.undo()
    with jobs():
        webhooks.webhooks_reconcile()  # beat, a minute later
    tournament.refresh_from_db()
    assert sorted(r.position for r in receiver.received) == list(
        range(endpoint.cursor + 1, tournament.version + 1)
    )
    assert set(Delivery.objects.values_list("status", flat=True)) == {"delivered"}


def test_a_paused_endpoint_resumes_where_it_stopped(
    organiser, tournament, fast_webhooks, receiver, jobs
):
    endpoint = _register(tournament, organiser, receiver)
    with jobs():
        webhooks.webhook_update(
            tournament_id=tournament.pk, webhook_id=endpoint.pk, by=organiser, is_active=False
        )
    _check_in_all(tournament, organiser, jobs)
    assert receiver.received == []
    with jobs():
        webhooks.webhook_update(
            tournament_id=tournament.pk, webhook_id=endpoint.pk, by=organiser, is_active=True
        )
    assert len(receiver.received) == 3


def test_only_the_chosen_event_types_are_sent_and_the_cursor_passes_the_rest(
    organiser, tournament, fast_webhooks, receiver, jobs
):
    endpoint = _register(tournament, organiser, receiver, event_types=["TournamentStarted"])
    _check_in_all(tournament, organiser, jobs)
    endpoint.refresh_from_db()
    tournament.refresh_from_db()
    assert receiver.received == [] and endpoint.cursor == tournament.version
    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    assert [r.body["type"] for r in receiver.received] == ["TournamentStarted"]


def test_the_jobs_are_registered_and_the_reconciler_is_on_beat(settings):
    from config.celery import app

    app.loader.import_default_modules()
    names = {"tournaments.webhooks_dispatch", "tournaments.webhook_deliver"}
    assert names | {"tournaments.webhooks_reconcile"} <= set(app.tasks)
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "tournaments.webhooks_reconcile" in schedule
    assert all(app.tasks[name].acks_late for name in names)
