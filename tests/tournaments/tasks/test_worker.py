"""A real Celery worker on Redis pairs the rounds (CI: PostgreSQL + Redis).

The worker is a subprocess started on the test database (visible to it because these tests
use `transaction=True`, so every write is committed), on a dedicated Redis database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from demo.bots import match_play_bots
from tests.helpers import celery_sends_to, redis_url, worker_database_url
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round, Tournament
from tournaments.projections import standings_from_events, tournament_tiebreaks
from tournaments.selectors import tournament_stream_events
from tournaments.tasks import tournament_round_pair_task

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL, reason="needs CELERY_BROKER_URL (Redis) for a worker"
    ),
]

# A Redis database of its own (flushed at start: HG_TEST_WORKER_REDIS_DB picks another one on
# a machine whose database 3 is in use) and a queue named per run.
REDIS_DB = int(os.environ.get("HG_TEST_WORKER_REDIS_DB", "3"))
ROOT = Path(__file__).resolve().parents[3]


def _redis_url() -> str:
    return redis_url(settings.CELERY_BROKER_URL, REDIS_DB)


def wait_for(what: str, check: Callable[[], Any], timeout: float = 90.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


@pytest.fixture(autouse=True)
def _worker_idle_after(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that used the worker: wait until it has no job running or waiting (the
    players' notices a pairing queues), or the test database's flush deadlocks with one."""
    yield
    if "worker" not in request.fixturenames:
        return
    node = request.getfixturevalue("worker")

    def idle() -> bool:
        inspect = celery_app.control.inspect(destination=[node], timeout=1.0)
        busy = [*(inspect.active() or {}).values(), *(inspect.reserved() or {}).values()]
        return not any(busy)

    wait_for("the worker to finish the test's jobs", idle, timeout=120)


@pytest.fixture(scope="module")
def worker(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with django_db_blocker.unblock():
        if connection.vendor != "postgresql":
            pytest.skip("the worker test needs PostgreSQL (the worker shares the test database)")
        database_url = worker_database_url()
    url = _redis_url()
    import redis

    redis.Redis.from_url(url).flushdb()  # no job left over from an earlier run
    run = uuid.uuid4().hex[:8]
    node, queue = f"tourn-test-{run}@localhost", f"tourn-test-{run}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": url,
        "CELERY_RESULT_BACKEND": url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "HG_TEST_QUEUE": queue,
    }
    log = open(tmp_path_factory.mktemp("celery") / "worker.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tests.tournaments.tasks.worker_app", "worker",
         "--pool=threads", "--concurrency=2", "-n", node, "-Q", queue, "-l", "INFO",
         "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        with celery_sends_to(url, queue):
            wait_for(
                f"the worker {node} to answer a ping (log: {log.name})",
                lambda: (
                    proc.poll() is None and celery_app.control.ping(destination=[node], timeout=1.0)
                ),
                timeout=60,
            )
            yield node
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.mark.django_db(transaction=True)
def test_the_worker_pairs_each_next_round(worker, organiser):
    # Small and quick: 4 bots, 3 rounds, matches ending once two games (to 25) are won.
    rules = {"game_target": 25, "end_when_decided": True}
    t = make_tournament(organiser, make_bots(4), rounds=3, ruleset=rules)
    services.tournament_start(tournament_id=t.pk, by=organiser)
    for number in (1, 2, 3):
        for pairing in Pairing.objects.filter(round__tournament=t, round__number=number):
            if pairing.match_id:
                match_play_bots(match_id=pairing.match_id)
        if number < 3:
            round_ = wait_for(
                f"the worker to pair round {number + 1}",
                lambda n=number: Round.objects.filter(tournament=t, number=n + 1).first(),
            )
            assert round_.paired_by is None  # paired by the job, not by hand
    wait_for(
        "the worker to finish the tournament",
        lambda: Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED,
    )
    assert Pairing.objects.filter(round__tournament=t).exclude(status="finished").count() == 0
    rebuilt, _ = standings_from_events(
        events=tournament_stream_events(tournament=t), tiebreaks=tournament_tiebreaks(tournament=t)
    )
    incremental = list(t.standings.order_by("rank"))
    assert [(s.player, s.match_wins, s.games_won) for s in rebuilt] == [
        (s.player_id, s.match_wins, s.games_won) for s in incremental
    ]


@pytest.mark.django_db(transaction=True)
def test_a_pairing_job_delivered_twice_at_once_pairs_once(worker, organiser):
    from django.utils import timezone

    t = make_tournament(organiser, make_bots(6), rounds=2, starts_at=timezone.now())
    # Two deliveries of the same job, picked up by the worker's two threads together.
    first = tournament_round_pair_task.apply_async((t.pk, 1))
    second = tournament_round_pair_task.apply_async((t.pk, 1))
    outcomes = sorted([first.get(timeout=60), second.get(timeout=60)])
    assert outcomes == [False, True]
    assert Round.objects.filter(tournament=t).count() == 1
    assert Pairing.objects.filter(round__tournament=t).count() == 3
    paired = [e for e in tournament_stream_events(tournament=t) if e.type == "RoundPaired"]
    assert len(paired) == 1
