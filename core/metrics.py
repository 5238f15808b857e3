"""The metrics, in Prometheus's text format (GET /metrics, web.metrics), with
prometheus-client. Counted where it happens, after commit where a transaction could still
roll back; what is a state of the database (the outbox, rounds overdue, heartbeats, open
alerts) is read when scraped (`ScrapeTimeCollector`, with readers the apps register).

Each process counts its own. Under gunicorn (several worker processes) and a prefork Celery
worker, PROMETHEUS_MULTIPROC_DIR names a directory the processes share, and a scrape adds
them up (prometheus-client's multiprocess mode; deploy/gunicorn.conf.py clears it at start
and marks a dead worker's gauges). A Celery worker serves its own on WORKER_METRICS_PORT.

Labels are bounded: a URL pattern (never a raw path), a status code, an event or action
type, a task name."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from django.db import transaction
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

# In multiprocess mode each metric opens its file as it is created (below): the directory
# must be there first, in every process of the service (a container's /tmp/prometheus).
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

http_requests = Counter(
    "hg_http_requests", "HTTP requests answered, by view (URL pattern), method and status.",
    ["view", "method", "status"],
)  # fmt: skip
http_duration = Histogram(
    "hg_http_request_duration_seconds", "Time to answer a request (a stream: to open it).",
    ["view"], buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)  # fmt: skip
db_seconds = Counter(
    "hg_db_query_seconds", "Time spent in database queries, by view (or task:<name>).",
    ["view"],
)  # fmt: skip
db_queries = Counter("hg_db_queries", "Database queries run, by view (or task:<name>).", ["view"])
events_appended = Counter(
    "hg_events_appended", "Events appended to the event store (committed), by type.", ["type"]
)
match_actions = Counter(
    "hg_match_actions", "Players' actions recorded in matches (committed), by type.", ["type"]
)
hands_recorded = Counter("hg_hands_recorded", "Hands recorded from a paper scoresheet (committed).")
rounds_paired = Counter("hg_rounds_paired", "Tournament rounds paired (committed).")
login_failures = Counter("hg_login_failures", "Failed sign-ins (every login path).")
jobs_failed = Counter(
    "hg_jobs_failed", "Jobs that failed for good (no retry left), by task.", ["task"]
)
replica_skipped = Counter(
    "hg_replica_skipped",
    "Reads a replica could have served that went to the primary, by replica and reason "
    "(down, lagging, behind: it has not yet replayed the client's own write; core.replicas).",
    ["replica", "reason"],
)
stream_followers = Gauge(
    "hg_stream_followers", "Live-stream followers connected now.", multiprocess_mode="livesum"
)


def on_commit(count: Callable[[], None]) -> None:
    """Count once the caller's transaction commits (at once outside one). The callback is
    this module's (`counted`), so a test of a service's own callbacks can tell them apart."""

    def counted() -> None:
        count()

    transaction.on_commit(counted)


def events_appended_on_commit(types: Iterable[str]) -> None:
    types = list(types)

    def count() -> None:
        for kind in types:
            events_appended.labels(type=kind).inc()

    on_commit(count)


# --- time spent in the database, per request or job -----------------------------------------

_db_time: ContextVar[list[float] | None] = ContextVar("hg_db_time", default=None)


def db_timer_start() -> list[float]:
    """Start summing the database time of this request (or job): [seconds, queries]. The
    list is shared with the threads the request's async code runs its queries in."""
    totals = [0.0, 0.0]
    _db_time.set(totals)
    return totals


def db_timer_stop() -> None:
    _db_time.set(None)


def job_observed(task: str) -> None:
    """A job ended: its database time counted under `task:<name>` (then the timer stops)."""
    totals = _db_time.get()
    if totals is not None and totals[1]:
        db_seconds.labels(view=f"task:{task}").inc(totals[0])
        db_queries.labels(view=f"task:{task}").inc(totals[1])
    db_timer_stop()


def _timed_execute(execute: Callable, sql: Any, params: Any, many: bool, context: Any) -> Any:
    totals = _db_time.get()
    if totals is None:
        return execute(sql, params, many, context)
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        totals[0] += time.perf_counter() - started
        totals[1] += 1


def db_timer_install(connection: Any, **kwargs: Any) -> None:
    """connection_created: every connection times its queries (when a request or job
    started a timer; otherwise the wrapper only looks at a context variable)."""
    if _timed_execute not in connection.execute_wrappers:
        # First (outermost): `with connection.execute_wrapper(...)` pops from the end.
        connection.execute_wrappers.insert(0, _timed_execute)


def request_observed(
    *, view: str, method: str, status: int, seconds: float, db: Sequence[float] | None
) -> None:
    view = view or "unmatched"
    http_requests.labels(view=view, method=method, status=str(status)).inc()
    http_duration.labels(view=view).observe(seconds)
    if db is not None and db[1]:
        db_seconds.labels(view=view).inc(db[0])
        db_queries.labels(view=view).inc(db[1])


# --- read when scraped ------------------------------------------------------------------------

_readers: dict[str, tuple[str, Callable[[], Iterable[tuple[dict[str, str], float]]]]] = {}


def scrape_gauge(
    name: str, doc: str, read: Callable[[], Iterable[tuple[dict[str, str], float]]]
) -> None:
    """Register a gauge read from the database at each scrape: `read()` yields
    (labels, value). Registered once, in an app's ready()."""
    _readers[name] = (doc, read)


class ScrapeTimeCollector(Collector):
    def collect(self) -> Iterable[GaugeMetricFamily]:
        for name, (doc, read) in sorted(_readers.items()):
            samples = list(read())
            labels = sorted({k for sample_labels, _ in samples for k in sample_labels})
            family = GaugeMetricFamily(name, doc, labels=labels)
            for sample_labels, value in samples:
                family.add_metric([sample_labels.get(k, "") for k in labels], value)
            yield family


def multiprocess_dir() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


def exposition(*, with_database: bool = True) -> tuple[bytes, str]:
    """The metrics of every process of this service (multiprocess mode) or of this one, and
    the database's states if `with_database`: (body, content type)."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry()
        registry.register(_Process())
    if with_database:
        registry.register(ScrapeTimeCollector())
    return generate_latest(registry), CONTENT_TYPE_LATEST


class _Process(Collector):
    """The default registry's metrics (this process's counters and its process_* ones)."""

    def collect(self) -> Iterable[Any]:
        return REGISTRY.collect()


def multiprocess_dir_clear() -> None:
    """A service starts: its processes' files of the last run go (else a restarted
    container would add its dead processes' counts in). Before any process of it counts."""
    directory = multiprocess_dir()
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        for stale in Path(directory).glob("*.db"):
            stale.unlink()


def process_dead(pid: int) -> None:
    """A worker process exited: its live gauges no longer count (multiprocess mode)."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(pid)


def worker_metrics_serve(port: int) -> None:
    """Serve this process's (or, in multiprocess mode, its pool's) metrics over HTTP on
    `port`, in a thread: a Celery worker's (no database states: web's /metrics has them)."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        start_http_server(port, registry=registry)
    else:
        start_http_server(port)
