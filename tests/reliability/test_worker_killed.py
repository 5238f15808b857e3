"""Issue 14 items 1 and 2, with a real worker: a Celery worker (prefork) on Redis, SIGKILLed
(main process and pool) the moment it receives a round's result-recording job
(`tournaments.match_finished`), then, restarted, the moment it receives the next round's
pairing job (`tournaments.round_pair`). Restarted again, each job comes back after the
visibility timeout (lowered to seconds for the worker here; 300 s in the settings): every
result is recorded exactly once, the round paired exactly once, and the tournament goes on.
"""

from __future__ import annotations

import time
import uuid

import pytest
import redis
from django.conf import settings
from django.db import connection

from demo.bots import match_play_bots
from tests.reliability.helpers import Worker, app_sends_to, wait_for
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors import tournament_stream_events

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.CELERY_BROKER_URL, reason="needs Redis (CELERY_BROKER_URL)"),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the worker shares PostgreSQL"),
]

RULES = {"game_target": 25, "end_when_decided": True}
VISIBILITY_TIMEOUT = 4  # seconds, for the workers started here


@pytest.fixture
def worker(tmp_path):
    url = settings.CELERY_BROKER_URL
    broker = redis.Redis.from_url(url)
    broker.flushdb()  # this suite's own Redis database: no job or unacked entry left over
    queue = f"rel-kill-{uuid.uuid4().hex[:8]}"
    w = Worker(url=url, queue=queue, log_dir=tmp_path)
    with app_sends_to(url, queue):
        try:
            yield w, broker
        finally:
            w.stop()


def events_of(tournament: Tournament, kind: str) -> list[dict]:
    return [e.data for e in tournament_stream_events(tournament=tournament) if e.type == kind]


def test_a_worker_killed_at_each_step_of_a_round_loses_and_repeats_nothing(worker, organiser):
    w, broker = worker
    t = make_tournament(organiser, make_bots(4), rounds=2, ruleset=RULES)
    services.tournament_start(tournament_id=t.pk, by=organiser)
    first = list(Pairing.objects.filter(round__tournament=t, round__number=1))
    assert len(first) == 2 and all(p.match_id for p in first)
    started = time.monotonic()

    # 1. Killed on receipt of the first result: that job waits in Redis's unacked hash.
    w.start(kill_on="tournaments.match_finished", visibility_timeout=VISIBILITY_TIMEOUT)
    for pairing in first:
        match_play_bots(match_id=pairing.match_id)  # each end queues match_finished
    w.wait_killed()
    assert Pairing.objects.filter(round__tournament=t, status="finished").count() == 0
    assert broker.hlen("unacked") >= 1

    # 2. Restarted: the other result at once, the lost one after the visibility timeout;
    # the round completes and queues the pairing job, on whose receipt it is killed again.
    w.start(kill_on="tournaments.round_pair", visibility_timeout=VISIBILITY_TIMEOUT)
    w.wait_killed(timeout=120)  # generous: a condition waited for, not a stopwatch
    recovered = time.monotonic() - started
    assert (
        Pairing.objects.filter(round__tournament=t, round__number=1, status="finished").count() == 2
    )
    assert not Round.objects.filter(tournament=t, number=2).exists()

    # 3. Restarted: the pairing job comes back and pairs round 2.
    w.start(visibility_timeout=VISIBILITY_TIMEOUT)
    wait_for("round 2 to be paired", lambda: Round.objects.filter(tournament=t, number=2).exists(),
             timeout=120)  # fmt: skip
    # Nothing left in Redis to deliver again: every job was acknowledged.
    wait_for("every job to be acknowledged", lambda: broker.hlen("unacked") == 0, timeout=60)
    paired_in = time.monotonic() - started

    recorded = events_of(t, "ResultRecorded")
    assert sorted(e["table"] for e in recorded) == sorted(p.table for p in first)  # once each
    assert [e["round"] for e in events_of(t, "RoundPaired")] == [1, 2]  # round 2 once
    assert Pairing.objects.filter(round__tournament=t, round__number=2).count() == 2
    assert Round.objects.filter(tournament=t).count() == 2

    # The tournament goes on: round 2 played, results recorded by the worker, finished.
    for pairing in Pairing.objects.filter(round__tournament=t, round__number=2):
        match_play_bots(match_id=pairing.match_id)
    wait_for(
        "the tournament to finish",
        lambda: Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED,
        timeout=120,
    )
    assert len(events_of(t, "ResultRecorded")) == 4
    # How long it took is a figure to read (about 40 s on a quiet machine), not an assertion:
    # on a busy one the workers start slower, and the waits above bound it anyway.
    print(f"results recovered after {recovered:.1f}s, round 2 paired after {paired_in:.1f}s")
