"""The kernel's gauges read when /metrics is scraped (core.metrics.scrape_gauge): the
outbox's depth and oldest age, each heartbeat's age, the open alerts by kind, the jobs that
failed for good."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count
from django.utils import timezone

from core.health import outbox_oldest_age
from core.metrics import scrape_gauge
from core.models import Alert, Heartbeat, OutboxMessage

Sample = tuple[dict[str, str], float]


def _outbox_depth() -> Iterable[Sample]:
    yield {}, OutboxMessage.objects.filter(sent_at__isnull=True).count()


def _outbox_age() -> Iterable[Sample]:
    age = outbox_oldest_age()
    yield {}, 0.0 if age is None else age.total_seconds()


def _heartbeat_ages() -> Iterable[Sample]:
    now = timezone.now()
    for name, at in Heartbeat.objects.values_list("name", "beat_at"):
        yield {"process": name}, (now - at).total_seconds()


def _alerts_open() -> Iterable[Sample]:
    counts = dict(
        Alert.objects.filter(resolved_at__isnull=True)
        .values_list("kind")
        .annotate(n=Count("id"))
        .values_list("kind", "n")
    )
    for kind in Alert.Kind.values:
        yield {"kind": kind}, counts.get(kind, 0)


def _jobs_failed() -> Iterable[Sample]:
    yield {}, Alert.objects.filter(kind=Alert.Kind.JOB_FAILED).count()


def register_scrape_gauges() -> None:
    scrape_gauge(
        "hg_outbox_depth", "Jobs recorded but not yet queued to the broker.", _outbox_depth
    )
    scrape_gauge(
        "hg_outbox_oldest_age_seconds", "Age of the oldest job not yet queued (0: none).",
        _outbox_age,
    )  # fmt: skip
    scrape_gauge(
        "hg_heartbeat_age_seconds", "Seconds since each background process's heartbeat.",
        _heartbeat_ages,
    )  # fmt: skip
    scrape_gauge("hg_alerts_open", "Open alerts (the desk's banners), by kind.", _alerts_open)
    scrape_gauge(
        "hg_jobs_failed_for_good", "Jobs that failed with no retry left (alerts raised, ever).",
        _jobs_failed,
    )  # fmt: skip
